/**
 * The brain's view of the element source (`Desktop.elements`, AT-SPI): one snapshot of the app's
 * widgets, element targets turned into queries, an element's place in its window, and the
 * element under a point. Pure except `snapshot`, which reads the bus through the stage.
 */
import type { ElementStep, ElementTarget, Point, Region } from '../domain.ts';
import type { Element, ElementQuery } from '../desktop/types.ts';
import { accessibleName, matchElements } from '../desktop/index.ts';
import { parseTitlePattern } from '../spec-file/patterns.ts';
import { containsPoint, inflateRegion, intersectRegions } from '../vision/frame.ts';
import type { Stage } from './stage.ts';
import type { OfferedElement } from './planners/types.ts';
import { secretMasker, type SecretMasker } from '../spec-file/secrets.ts';
import { InfrastructureError } from '../errors.ts';

/** The app's elements at one moment, or why there are none to ask. */
export type Snapshot = { readonly ok: true; readonly elements: readonly Element[] } | { readonly ok: false; readonly why: string };

export const NO_BUS =
  'the display has no accessibility bus (RETRACE_ACCESSIBILITY=off, or a display without one), so no element can be found by its role';

export const PUBLISHES_NOTHING =
  'the application publishes no elements over the accessibility bus (Tk, Xt and xterm publish none; see `retrace doctor SPEC`): ' +
  'use a text target instead, such as click "OK"';

/**
 * Reads the app's elements, every text in them masked (`maskElement`). Absent capability and a
 * failed read are answers, not faults: every caller has a way on without elements (pixels and
 * OCR), or a message to give.
 */
export async function snapshot(stage: Stage, window: Region): Promise<Snapshot> {
  const source = stage.desktop.elements;
  if (source === undefined) return { ok: false, why: NO_BUS };
  try {
    return { ok: true, elements: (await stage.guard(source.read(stage.app, { window }))).map((e) => maskElement(e)) };
  } catch (error) {
    // The app's exit, the display's death or the goal's deadline came through the guard: faults.
    if (error instanceof InfrastructureError || stage.signal.aborted) throw error;
    return { ok: false, why: `the app's elements could not be read: ${(error as Error).message}` };
  }
}

/**
 * `element` as the brain may keep it: its name, label, description and text with every secret
 * masked, and a value that spells one left out. The app echoes what was typed (a greeting, a
 * field's content, a title), and from the snapshot names and texts reach path files, reports and
 * prompts; masked here, the one place they are read, nothing downstream can leak them, and
 * learning and replay compare the same masked texts.
 */
export function maskElement(element: Element, masker: SecretMasker = secretMasker): Element {
  if (masker.size === 0) return element;
  const { label, text, value, ...rest } = element;
  return {
    ...rest,
    name: masker.mask(element.name),
    description: masker.mask(element.description),
    ...(label !== undefined && { label: masker.mask(label) }),
    ...(text !== undefined && { text: masker.mask(text) }),
    ...(value !== undefined && !masker.reveals(String(value)) && { value }),
  };
}

/**
 * A template resolved as the elements it is compared with are: its secrets masked, so
 * `name: "\${secret.X}"` finds the element whose name holds the secret.
 */
export const resolveMasked =
  (resolveText: (template: string) => string) =>
  (template: string): string =>
    secretMasker.mask(resolveText(template));

/** A name written `/…/flags` is a regular expression; any other matches exactly. */
export const namePattern = (name: string): string | RegExp => {
  const rule = parseTitlePattern(name);
  return rule.kind === 'regex' ? rule.regex : name;
};

/** The query of an element target, its placeholders resolved. */
export const targetQuery = (target: ElementTarget, resolveText: (template: string) => string): ElementQuery => ({
  role: target.role,
  ...(target.name !== undefined && { name: namePattern(resolveMasked(resolveText)(target.name)) }),
  ...(target.nth !== undefined && { nth: target.nth }),
});

/** Roles a person acts on; the element under a point is the deepest of these. */
const ACTIONABLE: ReadonlySet<string> = new Set([
  'button',
  'checkbox',
  'radio',
  'entry',
  'textarea',
  'spinbutton',
  'combobox',
  'link',
  'menuitem',
  'menu',
  'tab',
  'item',
  'cell',
  'slider',
  'list',
  'table',
  'tree',
  'terminal',
  'scrollbar',
]);

/** Roles that only hold others: their changes (focus passing through) say nothing about an action. */
export const CONTAINERS: ReadonlySet<string> = new Set([
  'window',
  'dialog',
  'group',
  'document',
  'menubar',
  'toolbar',
  'tablist',
  'statusbar',
  'separator',
]);

/**
 * Whether a container comes and goes whole, over what it covers: a dialog, or a window inside
 * the app's own (Qt publishes a frame shown over its form, an in-window dialog, as one). Its
 * appearing or going is what an action did, and all it draws is its own. The app's top-level
 * windows are not: everything else happens in them.
 */
export const isSurface = (e: Pick<Element, 'role' | 'depth'>): boolean => e.role === 'dialog' || (e.role === 'window' && e.depth > 0);

/**
 * Whether an element is on screen where it says: showing, with an area, and its centre inside
 * every ancestor that clips what it holds. A toolkit may publish a hidden popup as showing (Qt
 * keeps a closed combo box's list, 0×0, with items whose boxes lie over the fields below it),
 * and a list its rows scrolled away: such an element is never a target or an anchor.
 */
export function onScreen(element: Element, byRef: ReadonlyMap<string, Element>): boolean {
  const { box } = element;
  if (!element.states.showing || box.width <= 0 || box.height <= 0) return false;
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  for (
    let up = element.parent === undefined ? undefined : byRef.get(element.parent);
    up !== undefined;
    up = up.parent === undefined ? undefined : byRef.get(up.parent)
  ) {
    if (clips(up) && !unknownExtents(up) && !containsPoint(up.box, centre)) return false;
  }
  return true;
}

/**
 * Roles whose content is drawn only inside their box (one with no area shows nothing); any other
 * may hold what overflows it (a page's absolutely placed popup, a menu bar's open menu).
 */
const CLIPPING: ReadonlySet<string> = new Set(['window', 'dialog', 'list', 'table', 'tree']);
/** Negative extents are a toolkit's "not known" (the Java ATK wrapper's frame says -1 × -1): they clip nothing. */
const unknownExtents = (e: Element): boolean => e.box.width < 0 || e.box.height < 0;
const clips = (e: Element): boolean => CLIPPING.has(e.role) || e.toolkitRole === 'scroll pane' || e.toolkitRole === 'viewport';

/** The element an action at `point` lands on: the deepest actionable one there, else the deepest named one; never one off screen. */
export function elementAt(elements: readonly Element[], point: Point): Element | undefined {
  const byRef = indexByRef(elements);
  const under = elements.filter((e) => containsPoint(e.box, point) && onScreen(e, byRef));
  const deepest = (list: readonly Element[]): Element | undefined =>
    list.reduce<Element | undefined>((best, e) => (best === undefined || e.depth >= best.depth ? e : best), undefined);
  return (
    deepest(under.filter((e) => ACTIONABLE.has(e.role))) ??
    deepest(under.filter((e) => !CONTAINERS.has(e.role) && accessibleName(e) !== ''))
  );
}

/** Most elements offered to a planner: a bound on the prompt, far above a dialog's dozen. */
const MAX_OFFERED = 150;

/**
 * What a planner is shown of the app's elements: those showing inside the window that a person
 * acts on, or reads (named, not a container), in the app's order; names masked.
 */
export function offerElements(elements: readonly Element[] | undefined, window: Region): OfferedElement[] {
  const offered: OfferedElement[] = [];
  for (const e of elements ?? []) {
    const name = accessibleName(e);
    if (!e.states.showing || !centreInside(e.box, window)) continue;
    if (!ACTIONABLE.has(e.role) && (CONTAINERS.has(e.role) || name === '')) continue;
    const masked = secretMasker.mask(name);
    const target = masked === name ? targetOf(e, name, elements ?? []) : undefined;
    offered.push({ role: e.role, name: masked, box: e.box, ...(target && { target }) });
    if (offered.length === MAX_OFFERED) break;
  }
  return offered;
}

/** The element target that finds `element` among `elements`: its role, name, and `nth` when others match too. */
export function targetOf(element: Element, name: string, elements: readonly Element[]): ElementTarget | undefined {
  if (name === '' || typeof namePattern(name) !== 'string') return undefined;
  const equals = matchElements(elements, { role: element.role, name });
  const nth = equals.findIndex((e) => e.ref === element.ref);
  if (nth < 0) return undefined;
  return { role: element.role, name, ...(equals.length > 1 && { nth }) };
}

/** Where an element sits: the role and index of each element from its window down to it. */
export function pathOf(element: Element, byRef: ReadonlyMap<string, Element>): ElementStep[] {
  const steps: ElementStep[] = [];
  for (let e: Element | undefined = element; e !== undefined; e = e.parent === undefined ? undefined : byRef.get(e.parent)) {
    steps.unshift({ role: e.role, index: e.index });
  }
  return steps;
}

export const indexByRef = (elements: readonly Element[]): Map<string, Element> => new Map(elements.map((e) => [e.ref, e]));

/** How alike two places are, 0..1: the share of steps, from the window down, that agree. */
export function pathSimilarity(a: readonly ElementStep[], b: readonly ElementStep[]): number {
  const n = Math.max(a.length, b.length);
  if (n === 0) return 1;
  let same = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i]?.role === b[i]?.role && a[i]?.index === b[i]?.index) same++;
  }
  return same / n;
}

/** Of several candidates, the one whose place is most like `path`, then nearest to `box`. */
export function closestTo(
  candidates: readonly Element[],
  path: readonly ElementStep[],
  box: Region | undefined,
  byRef: ReadonlyMap<string, Element>,
): Element | undefined {
  let best: { element: Element; similarity: number; distance: number } | undefined;
  for (const element of candidates) {
    const similarity = pathSimilarity(pathOf(element, byRef), path);
    const distance = box === undefined ? 0 : Math.hypot(element.box.x - box.x, element.box.y - box.y);
    if (best === undefined || similarity > best.similarity || (similarity === best.similarity && distance < best.distance)) {
      best = { element, similarity, distance };
    }
  }
  return best?.element;
}

/**
 * The point inside a box at the same place as `point` was inside `recorded`: at the same share of
 * its width and height, so a box drawn larger (another scale, font or window size) is acted on
 * where it was, not nearer its corner; kept inside the box.
 */
export function samePlaceIn(box: Region, recorded: Region, point: Point): Point {
  const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));
  const share = (v: number, from: number, length: number): number => (length > 0 ? (v - from) / length : 0.5);
  return {
    x: clamp(Math.round(box.x + share(point.x, recorded.x, recorded.width) * box.width), box.x, box.x + box.width - 1),
    y: clamp(Math.round(box.y + share(point.y, recorded.y, recorded.height) * box.height), box.y, box.y + box.height - 1),
  };
}

/**
 * A region inside `from`, at the same place inside `to`, scaled with it: the anchor's crop around
 * a control, its focus ring, or a change on an element, where the element is now drawn elsewhere
 * or larger.
 */
export const sameShareOf = (region: Region, from: Region, to: Region): Region => {
  const sx = from.width > 0 ? to.width / from.width : 1;
  const sy = from.height > 0 ? to.height / from.height : 1;
  return {
    x: Math.round(to.x + (region.x - from.x) * sx),
    y: Math.round(to.y + (region.y - from.y) * sy),
    width: Math.max(1, Math.round(region.width * sx)),
    height: Math.max(1, Math.round(region.height * sy)),
  };
};

/** How much larger an element is drawn now than when it was recorded (its height, as text size drives it); never below 1. */
export const drawnLarger = (box: Region, recorded: Region): number => (recorded.height > 0 ? Math.max(1, box.height / recorded.height) : 1);

/** Whether a box's centre lies inside a window of this size. */
export const centreInside = (box: Region, size: { readonly width: number; readonly height: number }): boolean => {
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  return box.width > 0 && box.height > 0 && x >= 0 && y >= 0 && x < size.width && y < size.height;
};

/** `button "OK"`, for messages. */
export const describeElement = (e: { readonly role: string }, name: string): string => (name === '' ? e.role : `${e.role} "${name}"`);

export interface TextPlace {
  /** The element's name, or a field's text. */
  readonly text: string;
  /** Where to read it: the element's box and a margin, inside the window and the region asked about. */
  readonly box: Region;
  /** `label "Total: 3"`, for messages. */
  readonly what: string;
}

/** Read around an element's box: glyphs touching its edge. */
const TEXT_MARGIN_PX = 2;

/** Toolkit roles whose `text` is what they show (their name is a label drawn elsewhere). */
const TEXT_FIELDS: ReadonlySet<string> = new Set(['text', 'entry', 'password text', 'spin button', 'terminal']);

/**
 * Where the texts the tree holds are drawn, so the screen is read there rather than all over the
 * window (issue 28): the on-screen elements whose name (a field: its text) `holds` accepts, each
 * with its box and a margin clipped to the window (of `size`) and to `region` when given, in tree
 * order. Where to look, never what is shown: an icon button has a name and no text, a label can be
 * given an accessible name other than what it draws, a dialog can cover a label of the window
 * below it, a field's text can be scrolled past its edge — each of those reads otherwise there.
 */
export function textPlaces(
  elements: readonly Element[],
  size: { readonly width: number; readonly height: number },
  holds: (text: string) => boolean,
  region?: Region,
): TextPlace[] {
  const byRef = indexByRef(elements);
  const bounds = intersectRegions(region ?? { x: 0, y: 0, ...size }, { x: 0, y: 0, ...size });
  const places: TextPlace[] = [];
  for (const e of elements) {
    if (bounds === null || CONTAINERS.has(e.role)) continue;
    const text = ((TEXT_FIELDS.has(e.toolkitRole) ? e.text : e.name) ?? '').trim();
    if (text === '' || !holds(text) || !onScreen(e, byRef)) continue;
    const box = intersectRegions(inflateRegion(e.box, TEXT_MARGIN_PX), bounds);
    if (box) places.push({ text, box, what: `${e.role} "${text}"` });
  }
  return places;
}
