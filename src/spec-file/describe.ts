/** Short, secret-free descriptions of actions, for progress lines, reports and errors. */
import type { Action, ElementEffect, Target } from '../domain.ts';
import { isElementTarget, isTextTarget } from '../domain.ts';
import { describeForDisplay } from './interpolate.ts';
import { secretMasker } from './secrets.ts';

/** `"OK"`, `(12, 40)`, or `button "OK"` (`button #2` for the third unnamed one). */
export const describeTarget = (t: Target): string => {
  if (isTextTarget(t)) return `"${describeForDisplay(t.text)}"`;
  if (isElementTarget(t)) {
    const name = t.name === undefined ? '' : ` "${describeForDisplay(t.name)}"`;
    return `${t.role}${name}${t.nth === undefined ? '' : ` #${t.nth}`}`;
  }
  return `(${t.x}, ${t.y})`;
};

export function describeAction(action: Action): string {
  switch (action.kind) {
    case 'click':
    case 'double-click':
    case 'right-click':
      return `${action.kind} ${describeTarget(action.target)}`;
    case 'type':
      return `type "${describeForDisplay(action.text)}"${action.into ? ` into ${describeTarget(action.into)}` : ''}`;
    case 'key':
      return `press ${action.combo}`;
    case 'scroll':
      return `scroll ${action.direction} ${action.amount}${action.target ? ` in ${describeTarget(action.target)}` : ''}`;
    case 'drag':
      return `drag ${describeTarget(action.from)} to ${describeTarget(action.to)}`;
    case 'check':
      return `${action.checked ? 'check' : 'uncheck'} ${describeTarget(action.target)}`;
    case 'select':
      return `select "${describeForDisplay(action.option)}" in ${describeTarget(action.target)}`;
    case 'wait':
      return `wait ${action.ms} ms`;
    case 'wait-for':
      return `wait for "${describeForDisplay(action.text)}"`;
  }
}

/** The targets of an action, in the order they are resolved. */
export function targetsOf(action: Action): Target[] {
  switch (action.kind) {
    case 'click':
    case 'double-click':
    case 'right-click':
    case 'check':
    case 'select':
      return [action.target];
    case 'type':
      return action.into ? [action.into] : [];
    case 'scroll':
      return action.target ? [action.target] : [];
    case 'drag':
      return [action.from, action.to];
    default:
      return [];
  }
}

/** `label "Total: 0" → "Total: 1"`, `radio "Express" → checked`, `cell "3 × Tea" appeared`. */
export function describeElementEffect(effect: ElementEffect): string {
  const name = secretMasker.mask(effect.name);
  const what = name === '' ? effect.role : `${effect.role} "${name}"`;
  if (effect.change !== undefined) return `${what} ${effect.change === 'gone' ? 'went' : 'appeared'}`;
  const parts = Object.entries(effect.after).map(([property, value]) =>
    typeof value === 'string'
      ? `"${secretMasker.mask(value)}"`
      : typeof value === 'boolean'
        ? value
          ? property
          : `not ${property}`
        : `${property} ${String(value)}`,
  );
  return `${what} → ${parts.join(', ')}`;
}
