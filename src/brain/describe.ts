/** Short, secret-free descriptions of actions, for progress lines, reports and errors. */
import type { Action, Target } from '../domain.ts';
import { isTextTarget } from '../domain.ts';
import { describeForDisplay } from '../spec-file/interpolate.ts';

const target = (t: Target): string =>
  isTextTarget(t) ? `"${describeForDisplay(t.text)}"` : `(${t.x}, ${t.y})`;

export function describeAction(action: Action): string {
  switch (action.kind) {
    case 'click':
    case 'double-click':
    case 'right-click':
      return `${action.kind} ${target(action.target)}`;
    case 'type':
      return `type "${describeForDisplay(action.text)}"${action.into ? ` into ${target(action.into)}` : ''}`;
    case 'key':
      return `press ${action.combo}`;
    case 'scroll':
      return `scroll ${action.direction} ${action.amount}${action.target ? ` in ${target(action.target)}` : ''}`;
    case 'drag':
      return `drag ${target(action.from)} to ${target(action.to)}`;
    case 'wait':
      return `wait ${action.ms} ms`;
    case 'wait-for':
      return `wait for "${describeForDisplay(action.text)}"`;
  }
}

/** The point-or-text targets of an action, in the order they are resolved. */
export function targetsOf(action: Action): Target[] {
  switch (action.kind) {
    case 'click':
    case 'double-click':
    case 'right-click':
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
