/**
 * Effects in the app's elements: what an action changed in the widgets' text, value, name and
 * states, found by comparing the elements before and after it (learning), and checked exactly
 * after its replay, beside the pixel effects. Exact on purpose: "Alice" in the entry named
 * "Name" is the effect, wherever the layout put that entry.
 */
import type { ElementAnchor, ElementEffect, ElementProperties, ElementStep, Region } from '../domain.ts';
import type { Element } from '../desktop/types.ts';
import { accessibleName, matchElements } from '../desktop/index.ts';
import { secretMasker } from '../spec-file/secrets.ts';
import { regionsIntersect } from '../vision/frame.ts';
import type { Stage } from './stage.ts';
import { closestTo, CONTAINERS, describeElement, indexByRef, pathOf, snapshot, type Snapshot } from './elements.ts';

/** How often the elements are read again while a replayed effect has not shown in them yet. */
const POLL_MS = 40;

type Property = keyof ElementProperties;
const STATES = ['checked', 'sensitive', 'focused', 'selected', 'expanded'] as const;

/** The app's elements, or undefined when it publishes none (nothing to compare). */
export async function readElements(stage: Stage, window: Region): Promise<readonly Element[] | undefined> {
  const read = await snapshot(stage, window);
  return read.ok && read.elements.length > 0 ? read.elements : undefined;
}

const pathKey = (path: readonly ElementStep[]): string => path.map((s) => `${s.role}:${s.index}`).join('/');

/** The properties of an element an effect compares. */
function properties(e: Element): ElementProperties {
  return {
    name: accessibleName(e),
    ...(e.text !== undefined && { text: e.text }),
    ...(e.value !== undefined && { value: e.value }),
    ...Object.fromEntries(STATES.map((s) => [s, e.states[s]])),
  };
}

export interface ChangeOptions {
  /** Regions that change on their own: elements there are left out. */
  readonly dynamic: readonly Region[];
  /** The element the action pointed at: its own focus is its feedback, not an effect. */
  readonly target?: ElementAnchor;
  /** The action typed a secret: no text is kept. */
  readonly secret: boolean;
}

/** An element read before and after an action, paired by its place. */
interface Pair {
  readonly then: Element;
  readonly now: Element;
  readonly path: ElementStep[];
  readonly key: string;
}

/**
 * Elements paired by their place (a toolkit may replace a text's object when the text changes),
 * containers left out; `appeared` and `left` are the ones with no partner.
 */
function pairElements(before: readonly Element[], after: readonly Element[]): { pairs: Pair[]; appeared: Element[]; left: Element[] } {
  const place = (elements: readonly Element[]): Map<string, { element: Element; path: ElementStep[] }> => {
    const byRef = indexByRef(elements);
    return new Map(elements.filter((e) => !CONTAINERS.has(e.role)).map((e) => {
      const path = pathOf(e, byRef);
      return [pathKey(path), { element: e, path }];
    }));
  };
  const was = place(before);
  const is = place(after);
  const pairs: Pair[] = [];
  const appeared: Element[] = [];
  for (const [key, now] of is) {
    const then = was.get(key);
    if (then === undefined || then.element.role !== now.element.role) appeared.push(now.element);
    else pairs.push({ then: then.element, now: now.element, path: now.path, key });
  }
  const left = [...was].filter(([key, then]) => is.get(key)?.element.role !== then.element.role).map(([, then]) => then.element);
  return { pairs, appeared, left };
}

/** The properties that differ between two readings of an element. */
const differences = (then: Element, now: Element): Property[] => {
  const [a, b] = [properties(then), properties(now)];
  return (Object.keys(b) as Property[]).filter((p) => a[p] !== b[p]);
};

/**
 * What changed between two readings of the app's elements (read masked: see `maskElement`).
 * Elements in dynamic regions are left out, and so are the target's own focus and the text of
 * the field a secret was typed into.
 */
export function elementChanges(before: readonly Element[], after: readonly Element[], options: ChangeOptions): ElementEffect[] {
  const targetKey = options.target ? pathKey(options.target.path) : undefined;
  const effects: ElementEffect[] = [];
  for (const { then, now, path, key } of pairElements(before, after).pairs) {
    if (options.dynamic.some((d) => regionsIntersect(d, now.box) || regionsIntersect(d, then.box))) continue;
    const b = properties(now);
    const changed: Record<string, unknown> = {};
    for (const property of differences(then, now)) {
      if (property === 'focused' && key === targetKey) continue;
      if (property === 'text' && options.secret) continue;
      changed[property] = b[property];
    }
    if (Object.keys(changed).length > 0) {
      effects.push({ role: now.role, name: accessibleName(then), path, after: changed as ElementProperties });
    }
  }
  return effects;
}

/** Where the focus moved, and where anything else about an element changed, by the boxes of the elements (before and after). */
export interface FocusMoves {
  /** Elements whose focus is all that changed: what changed on them is a focus ring coming or going. */
  readonly focusOnly: readonly Region[];
  /** Elements that changed otherwise (text, name, value, another state), appeared or left. */
  readonly changed: readonly Region[];
}

export function focusMoves(before: readonly Element[], after: readonly Element[]): FocusMoves {
  const { pairs, appeared, left } = pairElements(before, after);
  const focusOnly: Region[] = [];
  const changed: Region[] = [...appeared, ...left].map((e) => e.box);
  for (const { then, now } of pairs) {
    const differ = differences(then, now);
    if (differ.length === 0) continue;
    const boxes = sameBox(then.box, now.box) ? [now.box] : [then.box, now.box];
    (differ.length === 1 && differ[0] === 'focused' ? focusOnly : changed).push(...boxes);
  }
  return { focusOnly, changed };
}

export const sameBox = (a: Region, b: Region): boolean => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

/** The element an effect is about: by role and name (the new name, then the old), else by its place. */
function lookup(effect: ElementEffect, elements: readonly Element[]): Element | undefined {
  const byRef = indexByRef(elements);
  const sameRole = matchElements(elements, { role: effect.role });
  const names = [effect.after.name, effect.name].filter((n): n is string => n !== undefined && n !== '');
  for (const name of names) {
    const named = sameRole.filter((e) => accessibleName(e) === name);
    if (named.length > 0) return closestTo(named, effect.path, undefined, byRef);
  }
  // A named element that kept its name is gone when no element has it; one whose name was the
  // change (a label showing a result) is where it was.
  if (names.length > 0 && effect.after.name === undefined) return undefined;
  const key = pathKey(effect.path);
  return sameRole.find((e) => pathKey(pathOf(e, byRef)) === key);
}

const shown = (v: unknown): string => (typeof v === 'string' ? `"${secretMasker.mask(v)}"` : String(v));

/**
 * An effect that empties an element's text: a toolkit may stop publishing an element with
 * nothing to show (Chromium drops an emptied label, or leaves it without an area) as soon as,
 * or a moment after, it publishes it empty — either way it shows nothing.
 */
const empties = (effect: ElementEffect): boolean =>
  Object.entries(effect.after).every(([property, value]) => (property === 'name' || property === 'text') && value === '');

/** Why an effect does not hold in `elements`, or undefined when it does. */
export function checkElementEffect(effect: ElementEffect, elements: readonly Element[]): string | undefined {
  const what = describeElement(effect, effect.name);
  const element = lookup(effect, elements);
  if (element === undefined) return empties(effect) ? undefined : `the ${what} is not on screen any more`;
  const now = properties(element);
  for (const [property, expected] of Object.entries(effect.after) as [Property, unknown][]) {
    if (now[property] !== expected) return `the ${what} has ${property} ${shown(now[property])}, recorded ${shown(expected)}`;
  }
  return undefined;
}

/**
 * Replay: every element effect of the action must hold, exactly. The elements are read again for
 * up to `patienceMs` while one does not, since a toolkit may publish a change a moment after it
 * painted it. Returns why the first one that never held does not (`problem`), and the last read.
 * `first`, when given, is a read already under way of the window as it is now: the first look.
 */
export async function verifyElementEffects(stage: Stage, effects: readonly ElementEffect[], window: Region, patienceMs: number, first?: Promise<Snapshot>): Promise<{ problem?: string; read: Snapshot }> {
  const deadline = Date.now() + patienceMs;
  for (let earlier = first; ; earlier = undefined) {
    const read = await (earlier ?? snapshot(stage, window));
    // No elements to ask now (the bus went away, the app left it): the pixel effects stand alone.
    if (!read.ok || read.elements.length === 0) return { read };
    const problem = effects.map((e) => checkElementEffect(e, read.elements)).find((p) => p !== undefined);
    if (problem === undefined) return { read };
    if (Date.now() >= deadline) return { problem, read };
    await stage.wait(POLL_MS);
  }
}
