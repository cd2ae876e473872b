/**
 * Finding elements in a tree already read: by role and name (or label), in tree order. Pure, so
 * a caller can query one snapshot many times without asking the bus again.
 */
import type { Region } from '../domain.ts';
import { ALSO_MATCHES, FIELD_ROLES } from './atspi/roles.ts';
import type { Element, ElementQuery } from './types.ts';

const normalise = (text: string): string => text.trim().replace(/\s+/g, ' ');

/** The name a query compares: the element's own, else its label's. */
export const accessibleName = (element: Element): string => normalise(element.name || element.label || '');

const roleMatches = (element: Element, role: string): boolean =>
  element.role === role ||
  element.toolkitRole === role ||
  (ALSO_MATCHES[role] ?? []).some((r) => r === element.toolkitRole || r === element.role);

const nameMatches = (element: Element, name: string | RegExp): boolean => {
  const text = accessibleName(element);
  if (typeof name === 'string') return text === normalise(name);
  name.lastIndex = 0;
  return name.test(text);
};

/** An element with no area cannot be seen or pointed at. */
const visible = (box: Region): boolean => box.width > 0 && box.height > 0;

/** The elements of `elements` (in tree order) that match `query`. */
export const matchElements = (elements: readonly Element[], query: ElementQuery): Element[] => {
  const matches = elements.filter(
    (e) =>
      visible(e.box) &&
      (query.role === undefined || roleMatches(e, query.role)) &&
      (query.name === undefined || nameMatches(e, query.name)),
  );
  if (query.nth === undefined) return matches;
  const picked = matches[query.nth];
  return picked === undefined ? [] : [picked];
};

/** How far a label may sit from what it names, in pixels. */
const LEFT_REACH = 250;
const ABOVE_REACH = 40;
const SLACK = 4;
const ALIGN_SLACK = 24;

/**
 * The label just left of a box on the same row, else just above it: how a form names a field
 * that has no name of its own. Labels of other windows do not count.
 */
export const labelBeside = (target: Element, labels: readonly Element[]): Element | undefined => {
  const t = target.box;
  let best: { label: Element; distance: number } | undefined;
  for (const label of labels) {
    const l = label.box;
    const centre = l.y + l.height / 2;
    const leftGap = t.x - (l.x + l.width);
    const sameRow = centre >= t.y && centre <= t.y + t.height;
    const aboveGap = t.y - (l.y + l.height);
    // Above: a label that starts where the field starts (a form's column), not any text overhead.
    const overColumn = Math.abs(l.x - t.x) <= ALIGN_SLACK;
    let distance: number | undefined;
    if (sameRow && leftGap >= -SLACK && leftGap <= LEFT_REACH) distance = Math.max(0, leftGap);
    else if (overColumn && aboveGap >= -SLACK && aboveGap <= ABOVE_REACH) distance = Math.max(0, aboveGap) + 0.5;
    if (distance !== undefined && (best === undefined || distance < best.distance)) best = { label, distance };
  }
  return best?.label;
};

/** Gives every unnamed field without a `labelled-by` label the label beside it, if any. */
export const withLayoutLabels = (elements: readonly Element[]): Element[] => {
  const windowOf = new Map<string, string>();
  for (const e of elements) windowOf.set(e.ref, e.parent === undefined ? e.ref : (windowOf.get(e.parent) ?? e.ref));
  const labels = elements.filter((e) => e.role === 'label' && e.name.trim() !== '' && visible(e.box));
  return elements.map((e) => {
    if (e.name !== '' || e.label !== undefined || !FIELD_ROLES.has(e.role)) return e;
    const found = labelBeside(
      e,
      labels.filter((l) => windowOf.get(l.ref) === windowOf.get(e.ref)),
    );
    return found === undefined ? e : { ...e, label: normalise(found.name) };
  });
};
