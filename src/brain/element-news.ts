/**
 * Changes nobody recorded, found in the app's elements first: the elements before a replayed
 * action and after it are compared (element-effects.ts, `elementChanges`) and every change the
 * path's element effects do not account for is news, named by role and name — "dialog "Error"
 * appeared", "2 cells "3 × Tea" appeared, recorded 1", "checkbox "Express" changed: checked
 * false". Pixels then look only where no element accounts for a change (unexpected.ts).
 *
 * The focus moving is never news (the pixels tell a focus ring from content the same way), nor
 * a tooltip: it is the pointer's doing, where it rests.
 */
import type { ElementEffect, ElementProperties, Region, UnexpectedChange } from '../domain.ts';
import type { Element } from '../desktop/types.ts';
import { accessibleName, matchElements } from '../desktop/index.ts';
import { secretMasker } from '../spec-file/secrets.ts';
import { regionArea, subtractRegion } from '../vision/frame.ts';
import { closestTo, CONTAINERS, describeElement, indexByRef, isSurface, onScreen } from './elements.ts';
import { checkElementEffect, DRAWN, elementChanges, leafBoxes, type ChangeOptions, type ElementVerdict } from './element-effects.ts';

const key = (e: ElementEffect): string => `${e.change ?? 'changed'}\u0000${e.role}\u0000${e.name}`;

/** What changed on an element besides what was recorded, its focus aside. */
function extra(now: ElementProperties, recorded: ElementProperties | undefined): Partial<ElementProperties> {
  const out: Record<string, unknown> = {};
  for (const [property, value] of Object.entries(now)) {
    if (property === 'focused' || (recorded !== undefined && property in recorded)) continue;
    out[property] = value;
  }
  return out as Partial<ElementProperties>;
}

const said = (v: unknown): string => (typeof v === 'string' ? `"${secretMasker.mask(v)}"` : String(v));

/**
 * The element changes from `before` to `after` that the recorded element effects do not account
 * for: more elements of a role and name appearing or going than recorded, or properties changing
 * that were not recorded to.
 */
export function elementNews(
  before: readonly Element[],
  after: readonly Element[],
  recorded: readonly ElementEffect[],
  options: ChangeOptions,
): UnexpectedChange[] {
  const expected = new Map<string, ElementEffect[]>();
  for (const effect of recorded) expected.set(key(effect), [...(expected.get(key(effect)) ?? []), effect]);
  const seen = new Map<string, ElementEffect[]>();
  for (const effect of elementChanges(before, after, options)) {
    if (effect.role === 'tooltip') continue;
    seen.set(key(effect), [...(seen.get(key(effect)) ?? []), effect]);
  }
  const news: UnexpectedChange[] = [];
  for (const [k, now] of seen) {
    const was = expected.get(k) ?? [];
    const first = now[0]!;
    const what = describeElement(first, secretMasker.mask(first.name));
    const region = first.box ?? { x: 0, y: 0, width: 0, height: 0 };
    if (first.change !== undefined) {
      if (now.length <= was.length) continue;
      const count = now.length === 1 ? `${what} ${first.change}` : `${now.length} × ${what} ${first.change}`;
      news.push({ region, text: '', element: was.length === 0 ? count : `${count}, recorded ${was.length}` });
      continue;
    }
    for (const effect of now) {
      const more = extra(effect.after, was[0]?.after);
      const entries = Object.entries(more);
      if (entries.length === 0) continue;
      news.push({
        region: effect.box ?? region,
        text: '',
        element: `${what} changed: ${entries.map(([p, v]) => `${p} ${said(v)}`).join(', ')}`,
      });
    }
  }
  return news;
}

/** Where the news is: an element's box, for the pixels not to tell it again. */
export const newsRegions = (news: readonly UnexpectedChange[]): Region[] =>
  news.filter((n) => n.element !== undefined).map((n) => n.region);

/** What the tree says of an action a moment after it was verified. */
export interface TreeHeld {
  /** Why one of its element effects no longer holds. */
  readonly problem?: string;
  /** What changed in the elements since they were read when it verified. */
  readonly late: readonly UnexpectedChange[];
  /** Each effect with the element it holds on now: their pixels are theirs while the effects hold. */
  readonly found: ElementVerdict['found'];
  /** Where the elements are now whose pixels are theirs to tell (`leafBoxes`). */
  readonly told: readonly Region[];
  /** The elements as read now. */
  readonly elements: readonly Element[];
}

/**
 * The app's elements a moment after an action verified (`now`), against the read it verified on
 * (`then`): every element effect must still hold, and anything else that changed since is a late
 * change nobody recorded ("checkbox "Express" changed: checked false").
 */
export function treeHeld(
  then: readonly Element[],
  now: readonly Element[],
  effects: readonly ElementEffect[],
  options: ChangeOptions,
): TreeHeld {
  const checks = effects.map((e) => checkElementEffect(e, now));
  const problem = checks.find((c) => c.problem !== undefined)?.problem;
  if (problem !== undefined) return { problem, late: [], found: [], told: [], elements: now };
  return {
    elements: now,
    late: elementNews(then, now, [], options),
    told: leafBoxes(now),
    found: effects.map((effect, i) => ({ effect, element: checks[i]?.problem === undefined ? checks[i]?.element : undefined })),
  };
}

/** Roles that hold rows or items: each row is an element of its own. */
const HOLDERS: ReadonlySet<string> = new Set(['list', 'table', 'tree']);

/**
 * Where the elements of the verified element effects are now (`found`, in the read `elements`):
 * what changed on them is their effect. Not a container's whole box (a list's, a window's, one
 * covering most of the window): what else shows in it is news. A surface (`isSurface`: a dialog,
 * a window shown inside the app's) recorded as appearing that appeared is the exception: its
 * frame, background and margins are its own, drawn at whatever size the theme, font or scale
 * gives it (GDK_SCALE=2 draws it twice as large as recorded); what is in it is told by its own
 * elements, and an element in it nobody recorded is tree news. Only the places in it that draw
 * what the tree does not tell (an image, a canvas, a list in it: `DRAWN`) are left out, for the
 * pixels to judge.
 */
export function effectBoxes(
  found: ElementVerdict['found'],
  elements: readonly Element[],
  size: { width: number; height: number },
): Region[] {
  const byRef = indexByRef(elements);
  const inside = (e: Element, dialog: Element): boolean => {
    for (let up = e.parent; up !== undefined; up = byRef.get(up)?.parent) if (up === dialog.ref) return true;
    return false;
  };
  return found.flatMap(({ effect, element }) => {
    if (element === undefined || regionArea(element.box) > 0.5 * size.width * size.height) return [];
    if (isSurface(element) && effect.change === 'appeared') {
      // Only what is in it: a list the dialog lies over is covered by it, not part of it.
      return elements
        .filter((e) => DRAWN.has(e.role) && inside(e, element))
        .reduce((parts, d) => parts.flatMap((part) => subtractRegion(part, d.box)), [element.box]);
    }
    return ownBox(element, size);
  });
}

/** An element's box as its own to change: not a container's, nor one covering most of the window. */
const ownBox = (element: Element, size: { width: number; height: number }): Region[] =>
  CONTAINERS.has(element.role) || HOLDERS.has(element.role) || regionArea(element.box) > 0.5 * size.width * size.height
    ? []
    : [element.box];

/**
 * Where the elements of the verified `gone` effects were before the action: their going is the
 * change there. Learned, such a place often lay inside a pixel effect of its own (a text that
 * replaced it); when a benign layout moves that effect away, the going still accounts for the
 * place it leaves. The element is found in `before` by role and name, the one whose place in the
 * tree is most like the recorded one (Chromium may publish a sibling of the page a moment late,
 * shifting every index below it), and only an element that is no longer in `after` at all (by
 * its ref, which lasts as long as the app) counts: what shows there now is told by the elements
 * after the action, so nothing new hides in it.
 */
export function goneBoxes(
  found: ElementVerdict['found'],
  before: readonly Element[],
  after: readonly Element[],
  size: { width: number; height: number },
): Region[] {
  const stayed = new Set(after.map((e) => e.ref));
  const byRef = indexByRef(before);
  return found.flatMap(({ effect }) => {
    if (effect.change !== 'gone') return [];
    const candidates = matchElements(before, { role: effect.role }).filter(
      (e) => !stayed.has(e.ref) && accessibleName(e) === effect.name && onScreen(e, byRef),
    );
    const was = closestTo(candidates, effect.path, effect.box, byRef);
    return was === undefined ? [] : ownBox(was, size);
  });
}
