/**
 * Targets found through the element source: a role target while learning (`click button "OK"`),
 * the element anchor a recording keeps, and the `element` rung of the replay ladder, which finds
 * the recorded element by role and name and acts at its box once the pixels there are its own.
 */
import type { ElementAnchor, ElementTarget, Frame, Point, Region } from '../domain.ts';
import { isElementTarget } from '../domain.ts';
import type { Element } from '../desktop/types.ts';
import { accessibleName, matchElements } from '../desktop/index.ts';
import { matchAt } from '../vision/template.ts';
import { containsPoint } from '../vision/frame.ts';
import type { Stage } from './stage.ts';
import type { Finding, LadderInput } from './ladder.ts';
import { centre } from './locate.ts';
import { describeTarget } from '../spec-file/describe.ts';
import {
  centreInside,
  closestTo,
  elementAt,
  indexByRef,
  isSurface,
  onScreen,
  pathOf,
  PUBLISHES_NOTHING,
  samePlaceIn,
  snapshot,
  targetQuery,
} from './elements.ts';
import { ELEMENT_LIMITS } from './thresholds.ts';

/** How many names of the asked role a "not found" message lists. */
const LISTED = 12;

export interface ElementHit {
  readonly point: Point;
  readonly element: Element;
  readonly elements: readonly Element[];
}

/**
 * Learning: the element a role target names, waiting up to `timeoutMs` for the app to publish it.
 * @param window the app's main window (screen region), as last captured.
 */
export async function locateElement(
  stage: Stage,
  target: ElementTarget,
  resolveText: (template: string) => string,
  options: { readonly window: Region; readonly timeoutMs: number },
): Promise<ElementHit | { readonly failure: string }> {
  const query = targetQuery(target, resolveText);
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const read = await snapshot(stage, options.window);
    if (read.ok) {
      const byRef = indexByRef(read.elements);
      const hit = matchElements(read.elements, query).find((e) => onScreen(e, byRef) && centreInside(e.box, options.window));
      if (hit) return { point: centre(hit.box), element: hit, elements: read.elements };
    }
    if (Date.now() >= deadline) {
      if (!read.ok) return { failure: `${describeTarget(target)}: ${read.why}` };
      return { failure: `${describeTarget(target)}: ${read.elements.length === 0 ? PUBLISHES_NOTHING : notAmong(read.elements, target)}` };
    }
    await stage.wait(ELEMENT_LIMITS.targetPollMs);
  }
}

/** "no button named "Apply": the app's buttons are "OK", "Cancel"". */
function notAmong(elements: readonly Element[], target: ElementTarget): string {
  const names = [
    ...new Set(
      matchElements(elements, { role: target.role })
        .map(accessibleName)
        .filter((n) => n !== ''),
    ),
  ];
  const what = target.name === undefined ? `no ${target.role}` : `no ${target.role} named "${target.name}"`;
  const nth = target.nth === undefined ? '' : ` (#${target.nth} of its matches)`;
  if (names.length === 0) return `${what}${nth} among the ${elements.length} elements the app publishes; it has no ${target.role} at all`;
  const shown = names
    .slice(0, LISTED)
    .map((n) => `"${n}"`)
    .join(', ');
  return `${what}${nth} on screen; the app's ${target.role} elements are named ${shown}${names.length > LISTED ? ', …' : ''}`;
}

/** The anchor of the element an action was recorded on. */
export function elementAnchorOf(element: Element, elements: readonly Element[]): ElementAnchor {
  return { role: element.role, name: accessibleName(element), box: element.box, path: pathOf(element, indexByRef(elements)) };
}

/** The anchor of the element under `point`, if the app published one there. */
export function elementAnchorAt(elements: readonly Element[], point: Point): ElementAnchor | undefined {
  const element = elementAt(elements, point);
  return element === undefined ? undefined : elementAnchorOf(element, elements);
}

/**
 * The `element` rung. A role target is found by the tree alone: its element (by role and name,
 * on screen), acted on at its box now — at the recorded place inside it, scaled with it, when the
 * recorded element is the same one; covered only when one of the app's dialogs or windows lies
 * over that point (`coveredAt`). Its `confine` is that box (empty when the tree has no such
 * element): no lower rung may put the target anywhere else, so a look-alike field is never
 * healed onto. A text target recorded on a named element is found by that element too: by the
 * tree alone when it is the only one of its role and name on screen, else scored by how well
 * its recorded anchor image matches there (moved with it).
 * Undefined when the rung has nothing to look for or no elements to look in.
 */
export async function findByElement(input: LadderInput): Promise<Finding | undefined> {
  const { target, anchor, anchorImage, shot, resolveText } = input;
  const recorded = anchor?.element;
  const byTarget = isElementTarget(target);
  // An unnamed element is too easily another one of its kind: pixels know better.
  if (!byTarget && (recorded === undefined || recorded.name === '')) return undefined;
  const read = shot.elements ?? (await snapshot(input.stage, shot.window));
  if (!read.ok || read.elements.length === 0) return undefined;
  const byRef = indexByRef(read.elements);
  const size = { width: shot.frame.width, height: shot.frame.height };
  const visible = (e: Element | undefined): e is Element => e !== undefined && onScreen(e, byRef) && centreInside(e.box, size);
  const query = byTarget ? { ...targetQuery(target, resolveText), nth: undefined } : { role: recorded!.role, name: recorded!.name };
  const matched = matchElements(read.elements, query);
  const candidates = matched.filter(visible);
  const picked =
    byTarget && target.nth !== undefined
      ? matched[target.nth]
      : recorded === undefined
        ? candidates[0]
        : closestTo(candidates, recorded.path, recorded.box, byRef);
  const nowhere = { x: 0, y: 0, width: 0, height: 0 };
  if (!visible(picked)) return { score: 0, runnerUp: 0, ...(byTarget && { confine: nowhere }) };
  const same = recorded !== undefined && anchor !== undefined && picked.role === recorded.role && accessibleName(picked) === recorded.name;
  const point = same ? samePlaceIn(picked.box, recorded.box, anchor.point) : centre(picked.box);
  // The tree decides where it names one element: a role target, or a text target whose recorded
  // element is the only one of its role and name on screen (its recorded image, drawn at another
  // scale or in another theme, is evidence only).
  if (byTarget || candidates.length === 1)
    return {
      point,
      box: picked.box,
      score: coveredAt(picked, point, read.elements, byRef) ? 0 : 1,
      runnerUp: 0,
      ...(byTarget && { confine: picked.box }),
    };
  return { point, box: picked.box, score: pixelsAgree(shot.frame, anchorImage, anchor?.box, recorded?.box, picked.box), runnerUp: 0 };
}

/**
 * Whether something of the app lies over `point` of `element`: a top-level window or dialog
 * published after the element's own window (a dialog opened over it), or a surface inside the
 * window after it in the tree (`isSurface`: a modal layer, Qt's in-window dialog frame) — that
 * holds neither it nor is held by it. A tooltip is the pointer's doing and moves with it: it
 * covers nothing.
 */
export function coveredAt(element: Element, point: Point, elements: readonly Element[], byRef: ReadonlyMap<string, Element>): boolean {
  const ancestors = new Set<string>();
  for (
    let up = element.parent === undefined ? undefined : byRef.get(element.parent);
    up !== undefined;
    up = up.parent === undefined ? undefined : byRef.get(up.parent)
  )
    ancestors.add(up.ref);
  const position = elements.indexOf(element);
  return elements.some((e, i) => {
    if (i <= position || ancestors.has(e.ref) || e.role === 'tooltip' || !(e.depth === 0 || isSurface(e))) return false;
    if (!containsPoint(e.box, point) || !onScreen(e, byRef)) return false;
    // What lies in the element itself (its own popup) does not cover it.
    for (
      let up = e.parent === undefined ? undefined : byRef.get(e.parent);
      up !== undefined;
      up = up.parent === undefined ? undefined : byRef.get(up.parent)
    ) {
      if (up.ref === element.ref) return false;
    }
    return true;
  });
}

/**
 * How well the recorded anchor image matches where the element is now (moved with it): a dialog
 * over the element, or another control drawn there, scores low. 1 when nothing was recorded.
 */
function pixelsAgree(
  frame: Frame,
  image: Frame | undefined,
  anchorBox: Region | undefined,
  recorded: Region | undefined,
  now: Region,
): number {
  if (image === undefined || anchorBox === undefined || recorded === undefined) return 1;
  return matchAt(frame, image, { x: anchorBox.x + now.x - recorded.x, y: anchorBox.y + now.y - recorded.y });
}
