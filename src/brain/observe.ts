/**
 * Turns what the screen looked like before and after an action into the recorded evidence of a
 * path: the target's anchor and the regions the action changed, each classified by what it
 * means. The action cycle uses it for new recordings and for the proposal of a healed replay.
 */
import type { Action, Anchor, Effect, EffectKind, Frame, Point, RecordedAction, Region } from '../domain.ts';
import { fingerprint } from '../vision/fingerprint.ts';
import {
  crop,
  encodePng,
  clampRegion,
  containsPoint,
  inflateRegion,
  intersectRegions,
  offsetRegion,
  regionArea,
  unionRegions,
} from '../vision/frame.ts';
import { changedRegions, framesEqual } from '../vision/changes.ts';
import { isCaretLike } from '../vision/settle.ts';
import { withoutCaretsIn } from '../vision/caret.ts';
import { readAll } from '../vision/ocr/find-text.ts';
import type { TextReader } from '../vision/types.ts';
import { segmentControls } from '../vision/segment.ts';
import { structureSimilarity } from '../vision/structure.ts';
import { colourRole } from '../vision/colour-role.ts';
import { marksBeyondRecolouring } from '../vision/hover.ts';
import { knownReading, readingRows, sameText, type KnownText } from './effect-text.ts';
import { textPlaces } from './elements.ts';
import type { Element } from '../desktop/types.ts';
import { assetName } from '../paths/store.ts';
import { ANCHOR_LIMITS, EFFECT_THRESHOLDS, UNEXPECTED_LIMITS } from './thresholds.ts';

/** Images collected while observing, keyed by asset name. */
export type AssetSink = Map<string, Uint8Array>;

const { minEffectPixels: MIN_EFFECT_PIXELS, padding: EFFECT_PADDING } = EFFECT_THRESHOLDS;

const store = (sink: AssetSink, frame: Frame): string => {
  const png = encodePng(frame);
  const name = assetName(png);
  sink.set(name, png);
  return name;
};

/** The box an anchor crops: the control under the point, or a fixed crop centred on it. */
export function anchorBox(frame: Frame, point: Point): Region {
  const control = segmentControls(frame)
    .filter((r) => containsPoint(r, point) && r.width <= ANCHOR_LIMITS.maxControl.width && r.height <= ANCHOR_LIMITS.maxControl.height)
    .sort((a, b) => a.width * a.height - b.width * b.height)[0];
  const box = control
    ? inflateRegion(control, 2)
    : {
        x: point.x - ANCHOR_LIMITS.fallback.width / 2,
        y: point.y - ANCHOR_LIMITS.fallback.height / 2,
        ...ANCHOR_LIMITS.fallback,
      };
  return clampRegion(box, frame.width, frame.height);
}

export function makeAnchor(frame: Frame, point: Point, text: string | undefined, sink: AssetSink): Anchor {
  const box = anchorBox(frame, point);
  const image = store(sink, crop(frame, box));
  return text === undefined ? { point, box, image } : { point, box, image, text };
}

/** The control the pointer left to do an action, and whether a change on it is its hover look going. */
export interface PointerLeft {
  readonly box: Region;
  readonly gone: (change: Region) => boolean;
}

/** What observing an action needs: the settled window before and after it. */
export interface ObserveInput {
  readonly before: Frame;
  readonly after: Frame;
  /** Regions that change on their own: no effect of the action. */
  readonly dynamic: readonly Region[];
  /** The action typed a secret: no image and no text of it is kept. */
  readonly secret: boolean;
  readonly sink: AssetSink;
  readonly reader: TextReader;
  /** The box of the control the action pointed at, if any: its own feedback is told apart. */
  readonly target?: Region;
  /**
   * The app's elements say the action left the target as it was (`leftAsItWas`: a button
   * pressed): every change on it is its own look, even one that crosses its edge — what came
   * over it (a dialog drawn over its lower edge) is told by its own elements.
   */
  readonly targetUnchanged?: boolean;
  /** The boxes of elements whose focus alone the action changed (the field it left): their feedback too. */
  readonly focusOnly?: readonly Region[];
  /**
   * The control the pointer left to do this action, where the app publishes no elements: its
   * box (`pointer-trail.ts`, the whole control its hover look lit) and whether a change on it is
   * that look going (`hoverGone`). That is the pointer's doing, nobody's news: not recorded, and
   * looked at apart, so it never joins the target's own change beside it into one effect.
   */
  readonly pointerLeft?: PointerLeft;
  /**
   * The control the pointer rests on after the action, where the app publishes no elements
   * (`restingOn`: the whole control its hover look lit). A change on it that a recolouring
   * explains but for some marks is the pointer's arrival plus what the action did: only the
   * marks (a check mark, a radio's dot) are recorded, so another theme's hover look still verifies.
   */
  readonly hovered?: Region;
  /** What is known to be shown after the action, so a text read is never recorded misread (`knownReading`). */
  readonly known?: {
    /** What the action typed, placeholders resolved. */
    readonly typed?: string;
    /** The app's elements after the action. */
    readonly elements?: readonly Element[];
  };
}

/**
 * The texts known to be in `region` after the action: what it typed, alone or after what the
 * region said before (`said`), and what each element showing mostly there says.
 */
function knownIn(known: ObserveInput['known'], region: Region, said: string, after: Frame): KnownText[] {
  const typed = known?.typed ? [known.typed, `${said}${known.typed}`].map((text) => ({ text, from: 'typed' as const })) : [];
  const mostlyIn = (box: Region): boolean => {
    const part = intersectRegions(box, region);
    return part !== null && regionArea(part) >= 0.5 * Math.min(regionArea(box), regionArea(region));
  };
  const shown = known?.elements ? textPlaces(known.elements, after, () => true).filter((p) => mostlyIn(p.box)) : [];
  return [...typed, ...shown.map((p) => ({ text: p.text, from: 'tree' as const }))];
}

/**
 * The text OCR reads in a region, one line per line, whitespace folded. A caret in it is not
 * read: it would be a letter ("alice]") of a text that no longer ends there once typing moves on.
 * With `within` (what an action changed, the region being it padded), only the words lying
 * mostly inside it: the padding shows slivers of the neighbours (the foot of a button's label
 * beside a dialog, read "."), and a change too small for a glyph (a radio button's dot, read
 * "io") has no word of its own. What learning records is what changed, never OCR's noise.
 */
export async function readRegion(reader: TextReader, frame: Frame, region: Region, within?: Region): Promise<string> {
  const read = await readAll(reader, withoutCaretsIn(frame, [region]), { region });
  const mostlyIn = (box: Region, area: Region): boolean => {
    const part = intersectRegions(box, area);
    return part !== null && regionArea(part) >= 0.5 * regionArea(box);
  };
  const kept = read.words.filter((w) => !within || mostlyIn(w.box, within));
  const text =
    kept.length === read.words.length
      ? read.text
      : readingRows(kept)
          .map((row) => row.map((w) => w.text).join(' '))
          .join('\n');
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

/**
 * The regions `before` → `after` changed, outside `dynamic`, each with its post image, the text
 * OCR reads in it (neither for an action that typed a secret) and what it means (`kind`): the
 * target's own feedback, a text that changed, or a look that changed.
 */
export async function makeEffects(input: ObserveInput): Promise<Effect[]> {
  const { before, after, sink, reader } = input;
  // Each element whose focus alone moved is looked at on its own: its focus ring going is not
  // part of the text typed into the field beside it, however close the two are drawn. A ring
  // lies on its element's box or just around it; a wider margin would reach the next field.
  // So is the target's own look (hovered, pressed) when that is all that changed on it: a dialog
  // opening next to the button clicked, its edge within reach of the button, is not the button's
  // look, and a layout that moves the button leaves the dialog's text without it. Pixels cannot
  // tell that when the dialog is drawn over the button's edge; the tree can.
  const target =
    input.target && (input.targetUnchanged === true || ownLookOnly(before, after, input.target, input.dynamic)) ? [input.target] : [];
  const rings = [...(input.focusOnly ?? []), ...target]
    .map((box) => ({ box, area: clampRegion(inflateRegion(box, EFFECT_PADDING), after.width, after.height) }))
    .filter(({ area }) => area.width > 0 && area.height > 0);
  // The control the pointer left is cut at its own box, unpadded: the target lit beside it starts
  // a pixel or two further on, and any of its pixels would make the look going more than that.
  const left = input.pointerLeft;
  const apart = [...rings.map((r) => r.area), ...(left ? [left.box] : [])];
  /** `mark`: what the action drew on the control the pointer lit, its hover look set apart (`marksOn`). */
  type Change = { readonly changed: Region; readonly on?: Region; readonly mark?: true };
  const found: Change[] = [
    ...changedRegions(before, after, { ignore: [...input.dynamic, ...apart], minPixels: MIN_EFFECT_PIXELS }).flatMap((changed) =>
      ringsApart(before, after, changed, input.dynamic),
    ),
    ...rings.flatMap(({ box, area }, i) =>
      changedIn(before, after, area, [...input.dynamic, ...rings.slice(0, i).map((r) => r.area)]).map((changed) => ({ changed, on: box })),
    ),
    ...(left
      ? changedIn(before, after, clampRegion(left.box, after.width, after.height), [...input.dynamic, ...rings.map((r) => r.area)])
          .filter((changed) => !left.gone(changed))
          .map((changed) => ({ changed }))
      : []),
  ];
  const apartFromHover = async (c: Change): Promise<Change[]> => {
    const marks = c.on === undefined && !input.secret ? await marksOn(input, c.changed) : undefined;
    return marks ? marks.map((changed) => ({ changed, mark: true })) : [c];
  };
  const changes = (await Promise.all(found.map(apartFromHover)))
    .flat()
    .sort((a, b) => a.changed.y - b.changed.y || a.changed.x - b.changed.x);
  // A caret is in either blink phase on any frame: its appearing is no effect to verify. Nor is
  // more of what changes on its own (a longer headline than any seen rotating).
  const own = continuingChanging(
    changes.map((c) => c.changed),
    input.dynamic,
  );
  const effects: Effect[] = [];
  for (const { changed, on, mark } of changes.filter((c) => !isCaretLike(c.changed) && !own.includes(c.changed))) {
    const region = clampRegion(inflateRegion(changed, EFFECT_PADDING), after.width, after.height);
    if (input.secret) {
      effects.push({ region, kind: 'look' });
      continue;
    }
    const own =
      (on !== undefined && isFocusRing(before, after, region, on)) ||
      (input.target !== undefined && isFeedback(before, after, region, input.target));
    const said = await readRegion(reader, before, region, changed);
    const text = knownReading(await readRegion(reader, after, region, changed), knownIn(input.known, region, said, after));
    const image = store(sink, crop(after, region));
    // A mark on a control whose text reads as it did is no glyph: OCR would guess one ("0 C" for a dot).
    if (mark) {
      effects.push({ region, kind: 'look', image });
      continue;
    }
    // On a target the tree says unchanged, what OCR reads differently (its label half covered) is no text of its own.
    const ownLook = on !== undefined && on === input.target && input.targetUnchanged === true;
    const kind: EffectKind = ownLook || (own && sameText(said, text)) ? 'feedback' : sameText(said, text) ? 'look' : 'text';
    const role = kind === 'text' && text ? colourRole(crop(after, region)) : 'plain';
    effects.push({ region, kind, image, ...(text ? { text } : {}), ...(role !== 'plain' ? { role } : {}) });
  }
  return effects;
}

/**
 * A change lying on the control the pointer rests on (`hovered`), as the marks the action drew
 * beyond its hover look (`marksBeyondRecolouring`: a check mark, a radio's dot) — when the
 * control's text reads as it did; a label that changed under the hover look is a text, read whole.
 */
async function marksOn(input: ObserveInput, changed: Region): Promise<Region[] | undefined> {
  const { before, after, hovered, reader } = input;
  const on = hovered && intersectRegions(changed, hovered);
  if (!on || regionArea(on) < regionArea(changed)) return undefined;
  const marks = marksBeyondRecolouring(before, after, changed, MIN_EFFECT_PIXELS);
  if (!marks) return undefined;
  const region = clampRegion(inflateRegion(changed, EFFECT_PADDING), after.width, after.height);
  const [said, says] = await Promise.all([readRegion(reader, before, region, changed), readRegion(reader, after, region, changed)]);
  return sameText(said, says) ? marks : undefined;
}

/**
 * Whether every change on the target (its box, padded) is its own feedback (`isFeedback`), and
 * none crosses the padding's edge: a dialog drawn over the button's edge changes the button's
 * box too, and goes on past it.
 */
function ownLookOnly(before: Frame, after: Frame, target: Region, dynamic: readonly Region[]): boolean {
  const area = clampRegion(inflateRegion(target, EFFECT_PADDING), after.width, after.height);
  if (area.width <= 0 || area.height <= 0) return false;
  const edges = [
    { ...area, height: 1 },
    { ...area, y: area.y + area.height - 1, height: 1 },
    { ...area, width: 1 },
    { ...area, x: area.x + area.width - 1, width: 1 },
  ];
  // One pixel is enough: a dialog as grey as the window crosses it with its 1-px frame alone.
  if (edges.some((edge) => changedIn(before, after, edge, dynamic, 1).length > 0)) return false;
  const changes = changedIn(before, after, area, dynamic);
  return (
    changes.length > 0 &&
    changes.every((c) => isFeedback(before, after, clampRegion(inflateRegion(c, EFFECT_PADDING), after.width, after.height), target))
  );
}

/**
 * A change over fields drawn one above the other, one of them only losing or gaining its focus
 * ring (the field the focus left, just above the one typed into), split: each ring on its own,
 * told as its field's feedback, and not read as a line of the text typed below it. Where the app
 * publishes no elements this is known by shape alone: a band of changed rows whose inside shows
 * what it showed (`ringOnly`), the band's box taken as its field's.
 */
function ringsApart(before: Frame, after: Frame, changed: Region, ignore: readonly Region[]): { changed: Region; on?: Region }[] {
  const bands = rowBands(changedIn(before, after, changed, ignore, 1, 0));
  if (bands.length < 2) return [{ changed }];
  const rings = bands.filter((band) => ringOnly(before, after, band));
  const rest = bands.filter((band) => !rings.includes(band));
  if (rings.length === 0) return [{ changed }];
  return [...rings.map((band) => ({ changed: band, on: band })), ...(rest.length > 0 ? [{ changed: rest.reduce(unionRegions) }] : [])];
}

/**
 * Whether all that changed on a box is around its inside: its inside (less a share of its smaller
 * side, as `isFeedback` takes it) shows the same pixels, a caret aside. A selection or a fill that
 * moved changes the inside too, however alike its edges stay.
 */
function ringOnly(before: Frame, after: Frame, box: Region): boolean {
  const margin = Math.max(3, Math.round(Math.min(box.width, box.height) * EFFECT_THRESHOLDS.feedbackInsideShare));
  const core = clampRegion(inflateRegion(box, -margin), after.width, after.height);
  if (core.width < 4 || core.height < 4) return false;
  // Carets are looked for just inside the ring: a field's caret may be as tall as its frame's inside.
  const field = [inflateRegion(box, -1)];
  return framesEqual(crop(withoutCaretsIn(before, field), core), crop(withoutCaretsIn(after, field), core));
}

/**
 * Whether a change is only rings coming or going: each band of its rows (a field's, or the part of
 * it a change shows) is `ringOnly`.
 */
export function ringsOnly(before: Frame, after: Frame, change: Region): boolean {
  const bands = rowBands(changedIn(before, after, change, [], 1, 0));
  return bands.length > 0 && bands.every((band) => ringOnly(before, after, band));
}

/** Boxes joined where they share a row: bands of rows, top to bottom, each with its box. */
function rowBands(boxes: readonly Region[]): Region[] {
  const bands: Region[] = [];
  for (const box of [...boxes].sort((a, b) => a.y - b.y)) {
    const last = bands[bands.length - 1];
    if (last && box.y <= last.y + last.height) bands[bands.length - 1] = unionRegions(last, box);
    else bands.push(box);
  }
  return bands;
}

/** The changes inside `area` alone, window-relative; `gap` as changedRegions takes it. */
function changedIn(
  before: Frame,
  after: Frame,
  area: Region,
  ignore: readonly Region[],
  minPixels: number = MIN_EFFECT_PIXELS,
  gap?: number,
): Region[] {
  const inArea = ignore.map((r) => offsetRegion(r, -area.x, -area.y));
  return changedRegions(crop(before, area), crop(after, area), { ignore: inArea, minPixels, ...(gap !== undefined && { gap }) }).map(
    (c) => ({
      x: c.x + area.x,
      y: c.y + area.y,
      width: c.width,
      height: c.height,
    }),
  );
}

/**
 * Whether `candidate` continues, on the same line, a region seen changing on its own: the tens
 * digit of a ticking clock changes only every ten seconds, too seldom to be caught changing while
 * watched, but it sits right beside the seconds digit that was. Same line: its top and bottom
 * within `slackPx` of the changing region's, and no further from it sideways than one character
 * of that line (its height; the colon between a clock's minutes and seconds), nor than `slackPx`.
 * Or its fringe: within `slackPx` all round (a taller letter of a headline in a larger font).
 */
export function extendsChanging(candidate: Region, changing: readonly Region[]): boolean {
  const slack = UNEXPECTED_LIMITS.slackPx;
  return changing.some((r) => {
    const reach = Math.max(slack, r.height);
    const fringe = intersectRegions(candidate, inflateRegion(r, slack));
    return (
      (fringe !== null && regionArea(fringe) === regionArea(candidate)) ||
      (Math.abs(candidate.y - r.y) <= slack &&
        Math.abs(candidate.y + candidate.height - (r.y + r.height)) <= slack &&
        candidate.x <= r.x + r.width + reach &&
        r.x <= candidate.x + candidate.width + reach)
    );
  });
}

/**
 * The candidates that continue a region changing on its own, directly or through one another:
 * a clock's minutes beside its tens of seconds beside its ticking seconds; the end of a headline
 * longer than any seen rotating, beside the part of the banner that was.
 */
export function continuingChanging<R extends Region>(candidates: readonly R[], changing: readonly Region[]): R[] {
  const joined: R[] = [];
  for (;;) {
    const next = candidates.filter((c) => !joined.includes(c) && extendsChanging(c, [...changing, ...joined]));
    if (next.length === 0) return joined;
    joined.push(...next);
  }
}

/**
 * A change is an element's own feedback (pressed, focus ring, hover) when it lies on the element
 * and leaves the element's inside as it was — its label and its marks; only the look around
 * them changed. A check mark or a toggle's knob that appeared changes the inside: that is content.
 */
export function isFeedback(before: Frame, after: Frame, region: Region, target: Region): boolean {
  const { feedbackReachPx, feedbackInsideShare, feedbackStructure } = EFFECT_THRESHOLDS;
  const around = inflateRegion(target, feedbackReachPx);
  const inside = intersectRegions(region, around);
  if (!inside || regionArea(inside) < 0.98 * regionArea(region)) return false;
  const margin = Math.max(3, Math.round(Math.min(target.width, target.height) * feedbackInsideShare));
  const core = clampRegion(inflateRegion(target, -margin), after.width, after.height);
  if (core.width < 4 || core.height < 4) return true;
  return structureSimilarity(crop(before, core), crop(after, core)) >= feedbackStructure;
}

/**
 * A path's first action, when it has no target (typing, a key), keeps the line its first effect
 * appears on, across the window, as it was before the action: a window can open before it is
 * ready for typing (a shell's prompt still to come), and a target the ladder would wait for
 * there is none. Not for a secret: the line may show what was typed.
 */
export function withBeforeLine(recorded: RecordedAction, before: Frame, sink: AssetSink): RecordedAction {
  const { action } = recorded;
  if (recorded.anchor || recorded.secret || (action.kind !== 'type' && action.kind !== 'key')) return recorded;
  const effect = recorded.effects.find((e) => e.image !== undefined && e.kind !== 'feedback');
  if (!effect) return recorded;
  const region = clampRegion({ x: 0, y: effect.region.y, width: before.width, height: effect.region.height }, before.width, before.height);
  return { ...recorded, beforeLine: { region, image: store(sink, crop(before, region)) } };
}

/**
 * The focus ring of an element that gained or lost the focus: its feedback, the caret it shows
 * only while focused aside.
 */
export const isFocusRing = (before: Frame, after: Frame, region: Region, box: Region): boolean => {
  // Inside its frame, where the caret stands on the field's own background.
  const inside = [inflateRegion(box, -EFFECT_PADDING)];
  return isFeedback(withoutCaretsIn(before, inside), withoutCaretsIn(after, inside), region, box);
};

export interface ActionObserveInput {
  readonly action: Action;
  readonly before: Frame;
  readonly after: Frame;
  /** The first target's window-relative point, when the action has one. */
  readonly point?: Point;
  /** The text under the point (the anchor's OCR text); omitted for a secret action. */
  readonly text?: string;
  readonly dynamic: readonly Region[];
  readonly secret: boolean;
  readonly settleMs: number;
  readonly assets: AssetSink;
  readonly reader: TextReader;
}

/**
 * An action as a path records it, from the window before and after it: the anchor of its
 * target, the fingerprints of both states and the regions it changed. (`retrace record` builds
 * its actions with it; the action cycle assembles the same fields for learning.)
 */
export async function observeAction(input: ActionObserveInput): Promise<RecordedAction> {
  const { action, before, after, point, dynamic, secret } = input;
  const anchor = point ? makeAnchor(before, point, secret ? undefined : input.text, input.assets) : undefined;
  const effects = await makeEffects({
    before,
    after,
    dynamic,
    secret,
    sink: input.assets,
    reader: input.reader,
    ...(anchor ? { target: anchor.box } : {}),
    ...(action.kind === 'type' && !secret && { known: { typed: action.text } }),
  });
  return {
    action,
    ...(anchor ? { anchor } : {}),
    before: fingerprint(before, dynamic),
    after: fingerprint(after, dynamic),
    effects,
    dynamic,
    settleMs: Math.round(input.settleMs),
    ...(secret ? { secret: true } : {}),
  };
}
