/**
 * Reads one application's accessibility tree off the bus, in as few calls as its toolkit allows:
 *
 * 1. The app's cache (`Cache.GetItems`): the whole tree — role, name, states, parent — in one
 *    call. GTK fills it; Chromium lists only its windows, Qt 5 nothing.
 * 2. Where the cache stops short (an element with more children than it lists), the showing
 *    elements below are found with one `Collection.GetMatches` (Chromium), or, where that is
 *    not implemented (Qt 5), by walking the children level by level, hidden subtrees skipped.
 * 3. Boxes (one call per showing element), and text, values and label relations only for the
 *    elements that have them, asked together with step 2.
 *
 * Calls are sent together and answered in turn, so a tree costs about one round trip per
 * level, not per element.
 */
import type { Region } from '../../domain.ts';
import { BusCallError, type BusLink } from './dbus.ts';
import {
  hasState,
  LABELLED_ROLES,
  RELATION_LABELLED_BY,
  retraceRole,
  ROLE_APPLICATION,
  STATE,
  TEXT_ROLES,
  toolkitRoleName,
  VALUE_ROLES,
} from './roles.ts';

/** An element as the bus gives it, before retrace names and places it. */
export interface RawElement {
  readonly ref: string;
  readonly bus: string;
  readonly path: string;
  /** Undefined for a top-level window (its parent is the application). */
  readonly parent: string | undefined;
  /** Where it sits among its parent's children, for tree order. */
  readonly order: number;
  readonly role: number;
  readonly name: string;
  readonly description: string;
  readonly states: readonly number[];
  readonly screenBox: Region;
}

/** What only some elements have. */
export interface RawExtras {
  readonly text?: string;
  readonly value?: number;
  readonly labelledBy?: readonly string[];
}

type ObjectRef = readonly [string, string];
type CacheItem = readonly [ObjectRef, ObjectRef, ObjectRef, number, number, readonly string[], string, number, string, readonly number[]];

const ACCESSIBLE = 'org.a11y.atspi.Accessible';
export const ROOT_PATH = '/org/a11y/atspi/accessible/root';
const SCREEN_COORDS = 0;
const MATCH_ALL = 1;
const SORT_CANONICAL = 1;
/** Collection rule: state SHOWING, every other criterion empty. */
const SHOWING_RULE = [[1 << STATE.showing, 0], MATCH_ALL, {}, MATCH_ALL, [0, 0, 0, 0], MATCH_ALL, [], MATCH_ALL, false];

export const refOf = ([bus, path]: ObjectRef): string => `${bus}${path}`;
export const splitRef = (ref: string): ObjectRef => {
  const slash = ref.indexOf('/');
  return [ref.slice(0, slash), ref.slice(slash)];
};

/**
 * Most elements read from one app. Far above any real window (a dialog has dozens, a big form a
 * few thousand); past it a read would take seconds and hundreds of MB, and a partial tree would
 * answer "no such element" for one it never reached.
 */
export const MAX_ELEMENTS = 20_000;

/**
 * Why an app's tree could not be read whole: it did not answer, or it is bigger than retrace
 * reads. Its message is the one the user sees, in place of "no element named …".
 */
export class TreeReadError extends Error {}

const tooBig = (count: number, where: string): TreeReadError =>
  new TreeReadError(
    `the app's tree had more than ${MAX_ELEMENTS.toLocaleString('en-US')} elements (${count.toLocaleString('en-US')} ${where}); read stopped there`,
  );

/** A call the app left unanswered (frozen, stopped, or busy past the bus's patience) ends the read saying so. */
const unanswered = (error: unknown): TreeReadError | undefined =>
  error instanceof BusCallError && error.errorName === 'retrace.Timeout'
    ? new TreeReadError(`the app did not answer the accessibility bus (${error.message}): is it frozen or busy?`)
    : undefined;

const NOWHERE: Region = { x: 0, y: 0, width: 0, height: 0 };
const toBox = (extents: unknown): Region => {
  const [x, y, width, height] = (extents as number[] | undefined) ?? [];
  return x === undefined || y === undefined || width === undefined || height === undefined ? NOWHERE : { x, y, width, height };
};

/** Resolves to undefined instead of failing: an element can vanish between two calls. */
const maybe = <T>(work: Promise<T>): Promise<T | undefined> => work.catch(() => undefined);

const notImplemented = (error: unknown): boolean =>
  error instanceof BusCallError && /UnknownMethod|UnknownObject|UnknownInterface|NotSupported/.test(error.errorName);

/**
 * GTK 4 before 4.10 sets SHOWING on its windows only: below them, VISIBLE is what a hidden
 * widget lacks (and a hidden subtree is left out of its parent's children). For such an app
 * VISIBLE counts as SHOWING, or nothing below its window would be read. One property call,
 * asked beside the cache.
 */
export const showingFromVisible = async (link: BusLink, bus: string): Promise<boolean> => {
  const version = await maybe(link.property(bus, ROOT_PATH, 'org.a11y.atspi.Application', 'Version'));
  const toolkit = await maybe(link.property(bus, ROOT_PATH, 'org.a11y.atspi.Application', 'ToolkitName'));
  return /^gtk$/i.test(String(toolkit)) && /^4\.[0-9]\./.test(String(version));
};

/** The states as retrace reads them: with SHOWING where `fromVisible` and VISIBLE is set. */
export const effectiveStates = (states: readonly number[], fromVisible: boolean): readonly number[] =>
  fromVisible && hasState(states, STATE.visible) && !hasState(states, STATE.showing)
    ? [(states[0] ?? 0) | (1 << STATE.showing), ...states.slice(1)]
    : states;

/**
 * The same GTK 4 versions name a button by its content twice over ("7 7": its label's name and
 * text); the name is said once.
 */
export const onceNamed = (name: string, fromVisible: boolean): string => (fromVisible ? (/^(.+) \1$/s.exec(name)?.[1] ?? name) : name);

/** The app's showing elements, and what only some of them have (by ref). */
export const readAppTree = async (link: BusLink, bus: string): Promise<{ elements: RawElement[]; extras: Map<string, RawExtras> }> => {
  const rootRef = refOf([bus, ROOT_PATH]);
  const elements = new Map<string, RawElement>();
  const listed = new Map<string, number>(); // how many children the cache lists per parent
  const counts = new Map<string, number>(); // how many children each element says it has
  let cached: readonly CacheItem[] = [];
  const lax = showingFromVisible(link, bus);
  try {
    const [items] = await link.call(bus, '/org/a11y/atspi/cache', 'org.a11y.atspi.Cache', 'GetItems');
    // The current format has the index and child count as numbers; an old one lists children.
    cached = ((items as CacheItem[] | undefined) ?? []).filter((item) => typeof item[3] === 'number');
  } catch (error) {
    if (!notImplemented(error)) throw unanswered(error) ?? error;
  }
  if (cached.length > MAX_ELEMENTS) throw tooBig(cached.length, 'in its cache');
  const fromVisible = await lax;
  for (const [self, , parent, index, childCount, , name, role, description, rawStates] of cached) {
    const states = effectiveStates(rawStates, fromVisible);
    const ref = refOf(self);
    const parentRef = refOf(parent);
    listed.set(parentRef, (listed.get(parentRef) ?? 0) + 1);
    counts.set(ref, childCount);
    if (role === ROLE_APPLICATION || !hasState(states, STATE.showing)) continue;
    elements.set(ref, {
      ref,
      bus: self[0],
      path: self[1],
      parent: parentRef === rootRef ? undefined : parentRef,
      order: index,
      role,
      name: onceNamed(name, fromVisible),
      description,
      states,
      screenBox: NOWHERE,
    });
  }
  // Boxes, what only some elements have, and what the cache left out are independent of each
  // other: asked all at once, the app answers one long stream of calls, not three in turn.
  const fromCache = [...elements.values()];
  // A count of -1 is an element that makes its children on demand (GTK's tree views, their rows
  // and cells): the cache never lists them.
  const gaps = fromCache
    .filter((e) => {
      const count = counts.get(e.ref) ?? 0;
      return count < 0 || count > (listed.get(e.ref) ?? 0);
    })
    .map((e) => e.ref);
  if ((listed.get(rootRef) ?? 0) === 0) gaps.push(rootRef);
  const [boxes, extras, below] = await Promise.all([
    Promise.all(fromCache.map((e) => maybe(link.call(e.bus, e.path, 'org.a11y.atspi.Component', 'GetExtents', 'u', [SCREEN_COORDS])))),
    readExtras(link, fromCache),
    Promise.all(gaps.map((gap) => readBelow(link, gap, rootRef, fromVisible))).then(async (found) => {
      const fresh = found.flat().filter((e) => !elements.has(e.ref));
      return { fresh, extras: await readExtras(link, fresh) };
    }),
  ]);
  fromCache.forEach((e, i) => elements.set(e.ref, { ...e, screenBox: toBox(boxes[i]?.[0]) }));
  for (const e of below.fresh) if (!elements.has(e.ref)) elements.set(e.ref, e);
  if (elements.size > MAX_ELEMENTS) throw tooBig(elements.size, 'showing');
  for (const [ref, extra] of below.extras) extras.set(ref, extra);
  return { elements: connected([...elements.values()]), extras };
};

/** The showing elements below `gap`: one Collection query, or a walk where there is none. */
const readBelow = async (link: BusLink, gap: string, rootRef: string, fromVisible: boolean): Promise<RawElement[]> => {
  const [bus, path] = splitRef(gap);
  let refs: ObjectRef[];
  // A query for SHOWING finds nothing in an app that does not set it.
  if (fromVisible) return walk(link, gap, rootRef, fromVisible);
  try {
    const [found] = await link.call(bus, path, 'org.a11y.atspi.Collection', 'GetMatches', '(aiia{ss}iaiiasib)uib', [
      SHOWING_RULE,
      SORT_CANONICAL,
      0,
      true,
    ]);
    refs = (found as ObjectRef[] | undefined) ?? [];
  } catch (error) {
    const silent = unanswered(error);
    if (silent) throw silent;
    if (!notImplemented(error)) return [];
    return walk(link, gap, rootRef, fromVisible);
  }
  if (refs.length > MAX_ELEMENTS) throw tooBig(refs.length, 'showing');
  const read = await Promise.all(
    refs.map(async ([b, p], order): Promise<RawElement | undefined> => {
      const [role, props, states, box] = await Promise.all([
        link.call(b, p, ACCESSIBLE, 'GetRole'),
        link.call(b, p, 'org.freedesktop.DBus.Properties', 'GetAll', 's', [ACCESSIBLE]),
        link.call(b, p, ACCESSIBLE, 'GetState'),
        maybe(link.call(b, p, 'org.a11y.atspi.Component', 'GetExtents', 'u', [SCREEN_COORDS])),
      ]).catch(() => []);
      if (role === undefined) return undefined;
      const all = (props?.[0] ?? {}) as Record<string, { value?: unknown }>;
      const parent = refOf((all.Parent?.value as ObjectRef | undefined) ?? ['', '']);
      return {
        ref: refOf([b, p]),
        bus: b,
        path: p,
        parent: parent === rootRef ? undefined : parent,
        order,
        role: Number(role[0]),
        name: String(all.Name?.value ?? ''),
        description: String(all.Description?.value ?? ''),
        states: (states?.[0] as number[] | undefined) ?? [0, 0],
        screenBox: toBox(box?.[0]),
      };
    }),
  );
  return read.filter((e): e is RawElement => e !== undefined && hasState(e.states, STATE.showing));
};

/** Level by level from `top`, each level's calls sent together; hidden subtrees are not entered. */
const walk = async (link: BusLink, top: string, rootRef: string, fromVisible: boolean): Promise<RawElement[]> => {
  const result: RawElement[] = [];
  let level: Array<{ ref: ObjectRef; parent: string | undefined; order: number }> = [];
  const childrenOf = async (ref: string): Promise<ObjectRef[]> => {
    const [bus, path] = splitRef(ref);
    return ((await maybe(link.call(bus, path, ACCESSIBLE, 'GetChildren')))?.[0] as ObjectRef[] | undefined) ?? [];
  };
  const parentOf = (ref: string): string | undefined => (ref === rootRef ? undefined : ref);
  level = (await childrenOf(top)).map((ref, order) => ({ ref, parent: parentOf(top), order }));
  while (level.length > 0) {
    const read = await Promise.all(
      level.map(async ({ ref: [b, p], parent, order }) => {
        const [role, name, description, states, box, children] = await Promise.all([
          link.call(b, p, ACCESSIBLE, 'GetRole'),
          link.property(b, p, ACCESSIBLE, 'Name'),
          link.property(b, p, ACCESSIBLE, 'Description'),
          link.call(b, p, ACCESSIBLE, 'GetState'),
          maybe(link.call(b, p, 'org.a11y.atspi.Component', 'GetExtents', 'u', [SCREEN_COORDS])),
          maybe(link.call(b, p, ACCESSIBLE, 'GetChildren')),
        ]).catch(() => []);
        const stateSet = effectiveStates((states?.[0] as number[] | undefined) ?? [], fromVisible);
        if (role === undefined || !hasState(stateSet, STATE.showing)) return undefined;
        const element: RawElement = {
          ref: refOf([b, p]),
          bus: b,
          path: p,
          parent,
          order,
          role: Number(role[0]),
          name: onceNamed(String(name ?? ''), fromVisible),
          description: String(description ?? ''),
          states: stateSet,
          screenBox: toBox(box?.[0]),
        };
        return { element, children: (children?.[0] as ObjectRef[] | undefined) ?? [] };
      }),
    );
    level = [];
    for (const entry of read) {
      if (entry === undefined) continue;
      result.push(entry.element);
      entry.children.forEach((ref, order) => level.push({ ref, parent: entry.element.ref, order }));
    }
    if (result.length + level.length > MAX_ELEMENTS) throw tooBig(result.length + level.length, 'found walking it');
  }
  return result;
};

/** Keeps the elements whose ancestors are all showing: a showing child of a hidden parent is not on screen. */
const connected = (elements: readonly RawElement[]): RawElement[] => {
  const byRef = new Map(elements.map((e) => [e.ref, e]));
  const verdict = new Map<string, boolean>();
  const reaches = (e: RawElement, seen: Set<string>): boolean => {
    const known = verdict.get(e.ref);
    if (known !== undefined) return known;
    if (e.parent === undefined) return true;
    const parent = byRef.get(e.parent);
    const ok = parent !== undefined && !seen.has(parent.ref) && reaches(parent, seen.add(e.ref));
    verdict.set(e.ref, ok);
    return ok;
  };
  return elements.filter((e) => reaches(e, new Set()));
};

/** The refs a `GetRelationSet` reply relates by `type` (none for a reply that is not one). */
export const relationTargets = (reply: readonly unknown[] | undefined, type: number): string[] => {
  const relations = reply?.[0];
  if (!Array.isArray(relations)) return [];
  return relations.flatMap((relation) => {
    if (!Array.isArray(relation) || relation[0] !== type || !Array.isArray(relation[1])) return [];
    return (relation[1] as unknown[])
      .filter((t): t is ObjectRef => Array.isArray(t) && typeof t[0] === 'string' && typeof t[1] === 'string')
      .map(refOf);
  });
};

/** Text, values and label relations, asked only of the elements that have them. */
export const readExtras = async (link: BusLink, elements: readonly RawElement[]): Promise<Map<string, RawExtras>> => {
  const names = new Map(elements.map((e) => [e.ref, e.name]));
  const extras = new Map<string, RawExtras>();
  await Promise.all(
    elements.map(async (e) => {
      const toolkit = toolkitRoleName(e.role);
      const wantsText = TEXT_ROLES.has(toolkit) || hasState(e.states, STATE.editable);
      const wantsValue = VALUE_ROLES.has(toolkit);
      const wantsLabel = e.name === '' && LABELLED_ROLES.has(retraceRole(toolkit, e.states));
      if (!wantsText && !wantsValue && !wantsLabel) return;
      const [text, value, relations] = await Promise.all([
        wantsText ? maybe(link.call(e.bus, e.path, 'org.a11y.atspi.Text', 'GetText', 'ii', [0, -1])) : undefined,
        wantsValue ? maybe(link.property(e.bus, e.path, 'org.a11y.atspi.Value', 'CurrentValue')) : undefined,
        wantsLabel ? maybe(link.call(e.bus, e.path, ACCESSIBLE, 'GetRelationSet')) : undefined,
      ]);
      const labels = relationTargets(relations, RELATION_LABELLED_BY);
      const labelledBy = await Promise.all(
        labels.map(async (ref) => names.get(ref) ?? String((await maybe(link.property(...splitRef(ref), ACCESSIBLE, 'Name'))) ?? '')),
      );
      const extra: RawExtras = {
        ...(typeof text?.[0] === 'string' && { text: text[0] }),
        ...(typeof value === 'number' && { value }),
        ...(labelledBy.some(Boolean) && { labelledBy: labelledBy.filter(Boolean) }),
      };
      if (Object.keys(extra).length > 0) extras.set(e.ref, extra);
    }),
  );
  return extras;
};
