/**
 * Effects in the app's elements: what an action changed in the widgets' text, value, name and
 * states, found by comparing the elements before and after it (learning), and checked exactly
 * after its replay, beside the pixel effects. Exact on purpose: "Alice" in the entry named
 * "Name" is the effect, wherever the layout put that entry.
 */
import type { Effect, ElementAnchor, ElementEffect, ElementProperties, ElementStep, Frame, Region } from '../domain.ts';
import type { Element } from '../desktop/types.ts';
import { accessibleName, matchElements } from '../desktop/index.ts';
import { secretMasker } from '../spec-file/secrets.ts';
import { clampRegion, crop, inflateRegion, regionsIntersect } from '../vision/frame.ts';
import { colourRole } from '../vision/colour-role.ts';
import { CYCLE_LIMITS, EFFECT_THRESHOLDS, ELEMENT_LIMITS } from './thresholds.ts';
import type { Stage } from './stage.ts';
import {
  closestTo,
  CONTAINERS,
  describeElement,
  indexByRef,
  isSurface,
  onScreen,
  pathOf,
  sameShareOf,
  snapshot,
  type Snapshot,
} from './elements.ts';

type Property = keyof ElementProperties;
const STATES = ['checked', 'sensitive', 'focused', 'selected', 'expanded'] as const;

/** The app's elements, or undefined when it publishes none (nothing to compare). */
export async function readElements(stage: Stage, window: Region): Promise<readonly Element[] | undefined> {
  const read = await snapshot(stage, window);
  return read.ok && read.elements.length > 0 ? read.elements : undefined;
}

/**
 * The app's elements once its tree has settled: read until two reads `treeQuietMs` apart show no
 * change between them (changes in dynamic regions aside), for at most `treeSettleMs`.
 */
export async function readSettledElements(
  stage: Stage,
  window: Region,
  dynamic: readonly Region[],
): Promise<readonly Element[] | undefined> {
  const deadline = Date.now() + CYCLE_LIMITS.treeSettleMs;
  let last = await readElements(stage, window);
  while (last !== undefined && Date.now() < deadline) {
    await stage.wait(CYCLE_LIMITS.treeQuietMs);
    const now = await readElements(stage, window);
    if (now === undefined || elementChanges(last, now, { dynamic, secret: false }).length === 0) return now ?? last;
    last = now;
  }
  return last;
}

export const pathKey = (path: readonly ElementStep[]): string => path.map((s) => `${s.role}:${s.index}`).join('/');

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
 * containers but surfaces (`isSurface`: a dialog) and elements off screen left out; `appeared` and
 * `left` are the ones with no partner.
 */
function pairElements(before: readonly Element[], after: readonly Element[]): { pairs: Pair[]; appeared: Element[]; left: Element[] } {
  const place = (elements: readonly Element[]): Map<string, { element: Element; path: ElementStep[] }> => {
    const byRef = indexByRef(elements);
    return new Map(
      elements
        .filter((e) => (!CONTAINERS.has(e.role) || isSurface(e)) && onScreen(e, byRef))
        .map((e) => {
          const path = pathOf(e, byRef);
          return [pathKey(path), { element: e, path }];
        }),
    );
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

/** An element worth recording as appeared or gone: a surface (a dialog), or any other non-container that shows a name or text. */
const tellsWhat = (e: Element): boolean => isSurface(e) || (!CONTAINERS.has(e.role) && (accessibleName(e) !== '' || (e.text ?? '') !== ''));

/** What an element that appeared shows: its name, text, value and the states a person reads (not its focus). */
function shows(e: Element, secret: boolean): ElementProperties {
  const { focused: _focused, expanded: _expanded, ...rest } = properties(e);
  const text = rest.text;
  if (text === undefined || !(secret || secretMasker.reveals(text))) return rest;
  const { text: _text, ...withoutText } = rest;
  return withoutText;
}

/**
 * What changed between two readings of the app's elements (read masked: see `maskElement`):
 * elements whose properties changed, and those that appeared or went (a row, a dialog, an
 * alert), each with its box. Elements in dynamic regions, elements off screen, the target's own
 * focus and the text of the field a secret was typed into are left out.
 */
export function elementChanges(before: readonly Element[], after: readonly Element[], options: ChangeOptions): ElementEffect[] {
  const targetKey = options.target ? pathKey(options.target.path) : undefined;
  const inDynamic = (box: Region): boolean => options.dynamic.some((d) => regionsIntersect(d, box));
  const { pairs, appeared, left } = pairElements(before, after);
  const effects: ElementEffect[] = [];
  for (const { then, now, path, key } of pairs) {
    if (inDynamic(now.box) || inDynamic(then.box)) continue;
    const b = properties(now);
    const changed: Record<string, unknown> = {};
    for (const property of differences(then, now)) {
      if (property === 'focused' && key === targetKey) continue;
      if (property === 'text' && options.secret) continue;
      changed[property] = b[property];
    }
    if (Object.keys(changed).length > 0) {
      effects.push({ role: now.role, name: accessibleName(then), path, after: changed as ElementProperties, box: now.box });
    }
  }
  const told = (elements: readonly Element[], all: readonly Element[]): Array<{ element: Element; path: ElementStep[] }> => {
    const byRef = indexByRef(all);
    return elements
      .filter((e) => tellsWhat(e) && !inDynamic(e.box) && !secretMasker.reveals(accessibleName(e)))
      .slice(0, ELEMENT_LIMITS.maxAppeared)
      .map((element) => ({ element, path: pathOf(element, byRef) }));
  };
  for (const { element, path } of told(appeared, after)) {
    effects.push({
      role: element.role,
      name: accessibleName(element),
      path,
      after: shows(element, options.secret),
      change: 'appeared',
      box: element.box,
    });
  }
  for (const { element, path } of told(left, before)) {
    effects.push({ role: element.role, name: accessibleName(element), path, after: {}, change: 'gone', box: element.box });
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

/** The element an effect is about: by role and name (the new name, then the old), else by its place; only one on screen. */
function lookup(effect: ElementEffect, elements: readonly Element[]): Element | undefined {
  const byRef = indexByRef(elements);
  const sameRole = matchElements(elements, { role: effect.role }).filter((e) => onScreen(e, byRef));
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

/** Whether an effect holds in a read of the app's elements: why not, or the element it is about (none for one gone). */
export type ElementCheck = { readonly problem: string } | { readonly problem?: undefined; readonly element?: Element };

/** Whether an effect holds in `elements`: exactly, on the element it was recorded on, never on another that happens to show its text. */
export function checkElementEffect(effect: ElementEffect, elements: readonly Element[]): ElementCheck {
  const what = describeElement(effect, effect.name);
  if (effect.change === 'gone') {
    const byRef = indexByRef(elements);
    const key = pathKey(effect.path);
    const still = matchElements(elements, { role: effect.role }).find(
      (e) => accessibleName(e) === effect.name && onScreen(e, byRef) && pathKey(pathOf(e, byRef)) === key,
    );
    return still === undefined ? {} : { problem: `the ${what} is still there; it went when the path was recorded` };
  }
  const element = lookup(effect, elements);
  if (element === undefined) {
    if (effect.change === 'appeared') return { problem: `no ${what} appeared` };
    return empties(effect) ? {} : { problem: `the ${what} is not on screen any more` };
  }
  const now = properties(element);
  for (const [property, expected] of Object.entries(effect.after) as [Property, unknown][]) {
    if (now[property] !== expected) return { problem: `the ${what} has ${property} ${shown(now[property])}, recorded ${shown(expected)}` };
  }
  return { element };
}

/**
 * Replay: every element effect of the action must hold, exactly. The elements are read again for
 * up to `patienceMs` while one does not, since a toolkit may publish a change a moment after it
 * painted it. Returns why the first one that never held does not (`problem`), the last read, and
 * the element each one holds on.
 * `first`, when given, is a read already under way of the window as it is now: the first look.
 */
export async function verifyElementEffects(
  stage: Stage,
  effects: readonly ElementEffect[],
  window: Region,
  patienceMs: number,
  first?: Promise<Snapshot>,
): Promise<ElementVerdict> {
  const deadline = Date.now() + patienceMs;
  for (let earlier = first; ; earlier = undefined) {
    const read = await (earlier ?? snapshot(stage, window));
    // No elements to ask now (the bus went away, the app left it): the pixel effects stand alone.
    if (!read.ok || read.elements.length === 0) return { read, found: [] };
    const checks = effects.map((e) => checkElementEffect(e, read.elements));
    const problem = checks.find((c) => c.problem !== undefined)?.problem;
    if (problem === undefined) return { read, found: effects.map((effect, i) => ({ effect, element: heldOn(checks[i]) })) };
    if (Date.now() >= deadline) return { problem, read, found: [] };
    await stage.wait(ELEMENT_LIMITS.effectPollMs);
  }
}

const heldOn = (check: ElementCheck | undefined): Element | undefined =>
  check !== undefined && check.problem === undefined ? check.element : undefined;

/** The element effects of a replayed action, checked: why one never held, the last read, and where each one that held is now. */
export interface ElementVerdict {
  readonly problem?: string;
  readonly read: Snapshot;
  /** Each effect, with the element it holds on now (none for one gone); empty when one did not hold. */
  readonly found: ReadonlyArray<{ readonly effect: ElementEffect; readonly element: Element | undefined }>;
}

/** The element effect whose element holds a pixel region: its box (once settled) contains it, a padding's width aside. */
const holding = <E extends { readonly box?: Region }>(region: Region, effects: readonly E[]): E | undefined =>
  effects.find((e) => e.box !== undefined && containsRegion(inflateRegion(e.box, 2 * EFFECT_THRESHOLDS.padding), region));

const containsRegion = (outer: Region, inner: Region): boolean =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;

/** Roles whose look, when pressed, is only their feedback. */
const PRESSED: ReadonlySet<string> = new Set(['button', 'link', 'menuitem', 'tab']);

/**
 * Whether the tree says the action left its target as it was: a control whose pressed look is
 * only its feedback (a button), with no change recorded on it (its focus aside, which
 * `elementChanges` leaves out). What changed on it then is its own look, or what came over it.
 */
export const leftAsItWas = (changes: readonly ElementEffect[], target: ElementAnchor | undefined): target is ElementAnchor =>
  target !== undefined && PRESSED.has(target.role) && !changes.some((e) => pathKey(e.path) === pathKey(target.path));

/**
 * Roles that draw content of their own the tree does not tell (a canvas, a picture, a page or a
 * terminal), or hold other elements (each tells its own): a change on them stays a pixel effect.
 */
export const DRAWN: ReadonlySet<string> = new Set(['image', 'canvas', 'document', 'terminal', 'list', 'table', 'tree', 'unknown']);

/**
 * The boxes of the elements on screen whose pixels are theirs to tell: not containers, nor those
 * that draw what the tree does not tell (`DRAWN`). A change inside one is its look, or what the
 * tree says changed there.
 */
export function leafBoxes(elements: readonly Element[]): Region[] {
  const byRef = indexByRef(elements);
  return elements.filter((e) => !CONTAINERS.has(e.role) && !DRAWN.has(e.role) && onScreen(e, byRef)).map((e) => e.box);
}

/**
 * Learning: a pixel effect on an element is that element's to tell. On one the action changed,
 * brought or took away, its element effect decides exactly; on one it left as it was, the change
 * is the element's own look (a default button's highlight as its window became active, a hover)
 * — either way it becomes `element`, evidence only. A look keeps no text (what OCR reads in a
 * radio's circle, "() / /", is nobody's text); a text keeps its colour role for the colour check,
 * and its words as the tree says them, for the report (on a dialog or a window, as read: its
 * name is its title). A pressed control the tree says unchanged (its focus aside) showed its own
 * pressed look: that is its feedback ("Add 1" read on it).
 * Feedback, a secret action's effects (no image) and changes on no element, or on one that draws
 * what the tree does not tell (`DRAWN`), stay as they are.
 * @param shown the app's elements after the action.
 */
export function asElementEvidence(
  effects: readonly Effect[],
  changes: readonly ElementEffect[],
  shown: readonly Element[],
  target?: ElementAnchor,
): Effect[] {
  const untouched = leftAsItWas(changes, target);
  const leaves = leafBoxes(shown).map((box) => ({ box }));
  return effects.map((effect) => {
    if ((effect.kind !== 'text' && effect.kind !== 'look') || effect.image === undefined) return effect;
    if (untouched && holding(effect.region, [target]) !== undefined) return { ...effect, kind: 'feedback' };
    const on = holding(effect.region, changes);
    if (on === undefined && holding(effect.region, leaves) === undefined) return effect;
    const { text: read, ...look } = effect;
    if (effect.kind === 'look' || !read) return { ...look, kind: 'element' };
    // What the tree says the element shows wins over what OCR read of it ("El" for a typed "3");
    // a container's name is its title (a dialog's "Order"), not what it shows.
    const said = on === undefined || CONTAINERS.has(on.role) ? undefined : (on.after.text ?? on.after.name);
    return { ...look, kind: 'element', text: said !== undefined && said !== '' ? said : read };
  });
}

/**
 * Replay: the colour role of each text an element effect decided, read where its element is
 * now: the right words styled as an error are not the recorded effect. Why one differs, or
 * undefined.
 */
export function elementColours(effects: readonly Effect[], found: ElementVerdict['found'], after: Frame): string | undefined {
  const placed = placedOn(found);
  for (const effect of effects) {
    if (effect.kind !== 'element' || !effect.text) continue;
    const on = holding(effect.region, placed);
    if (on === undefined) continue;
    const region = clampRegion(sameShareOf(effect.region, on.box, on.element.box), after.width, after.height);
    if (region.width < 2 || region.height < 2) continue;
    const now = colourRole(crop(after, region));
    const was = effect.role ?? 'plain';
    if (now !== was)
      return `the ${describeElement(on.effect, accessibleName(on.element))} shows "${secretMasker.mask(effect.text)}" restyled from ${was} to ${now}`;
  }
  return undefined;
}

/** The element effects that hold, each with its recorded box and its element now. */
const placedOn = (found: ElementVerdict['found']) =>
  found.flatMap(({ effect, element }) => (element === undefined || effect.box === undefined ? [] : [{ box: effect.box, effect, element }]));

/**
 * Replay: where each pixel change an element effect decides is now — at the same share of its
 * element's box as it was of the recorded one. A dialog that appeared is where the app put it,
 * not moved with the button that opened it.
 */
export function elementEvidence(effects: readonly Effect[], found: ElementVerdict['found']): Region[] {
  const placed = placedOn(found);
  return effects.flatMap((effect) => {
    const on = effect.kind === 'element' ? holding(effect.region, placed) : undefined;
    return on === undefined ? [] : [sameShareOf(effect.region, on.box, on.element.box)];
  });
}
