/**
 * Verification of a replayed action: every recorded effect must have happened again, judged by
 * what it means (its `kind`, decided when it was recorded):
 * - feedback (the target's own pressed or focus look) never decides; nor does a change on an
 *   element the action changed in the app's tree (`element`): its element effect decides
 *   (element-effects.ts), and only its text's colour role is checked here (`elementColours`);
 * - a text is read where it is now and must say exactly what it said (effect-text.ts), in a text
 *   role of the same colour meaning (an error-red restyling is not the same effect);
 * - a look must show its recorded pixels, or — repainted by a theme — its recorded structure; a
 *   look holding a text drawn in another size its text, read exactly, and around it its recorded
 *   structure; a masked entry (a password's dots) as many dots, of any size.
 * Where it is now: at its recorded place, moved with the target (the layout moved), or — by
 * template search, and a text also by what it says — anywhere this action changed the window.
 * Only the recorded pixels at the recorded place are a clean pass; anything else heals the path.
 */
import { onScreen, type Effect, type EffectKind, type Frame, type Point, type RecordedAction, type Region } from '../domain.ts';
import {
  containsPoint,
  crop,
  clampRegion,
  inflateRegion,
  offsetRegion,
  regionCenter,
  regionsIntersect,
  unionRegions,
} from '../vision/frame.ts';
import { readAll } from '../vision/ocr/find-text.ts';
import type { TextBox, TextReader } from '../vision/types.ts';
import { compareFrames } from '../vision/compare.ts';
import { changedRegions } from '../vision/changes.ts';
import { findTemplate } from '../vision/template.ts';
import { isCaretLike } from '../vision/settle.ts';
import { withoutCarets, withoutCaretsIn } from '../vision/caret.ts';
import { structureSimilarity } from '../vision/structure.ts';
import { colourRole } from '../vision/colour-role.ts';
import { maskedGlyphs } from '../vision/masked.ts';
import { EFFECT_THRESHOLDS } from './thresholds.ts';
import { blankCore, isFlat } from './blank-area.ts';
import { findLines, findSaid, readingOrder, sameText } from './effect-text.ts';
import { readRegion } from './observe.ts';

export interface EffectCheck {
  readonly effect: Effect;
  readonly verified: boolean;
  /** True when the effect was found other than as recorded: elsewhere, or in other colours. */
  readonly moved: boolean;
  /** The target's own feedback, or a change an element effect decides: not checked here. */
  readonly skipped?: boolean;
  /** Where the effect was found or looked for, window-relative. */
  readonly region: Region;
  /** What else the action changed around a text found elsewhere (its box, its button): its effect too. */
  readonly covers?: readonly Region[];
  readonly diffPixels: number;
  /** Why it did not verify, in a few words ("reads "16"", "restyled as alert"). */
  readonly detail?: string;
}

export interface VerifyInput {
  readonly reader: TextReader;
  readonly recorded: RecordedAction;
  /** Decodes an image of the path. */
  readonly image: (name: string) => Frame;
  readonly before: Frame;
  readonly after: Frame;
  /** How far the target moved since recording. */
  readonly offset: Point;
  /** Regions changing on their own: never where an effect is looked for. */
  readonly ignore: readonly Region[];
  /**
   * Where the action's target is now (its box). Its own label repaints with its pressed look:
   * found there, a text is the key that was pressed, not what pressing it changed — unless the
   * effect was recorded on the target itself (a button whose label changes).
   */
  readonly target?: Region;
  /**
   * The app's elements cannot be read now (no accessibility bus): a change its element effects
   * were to decide is checked by its recorded pixels instead, or nothing would check it.
   */
  readonly treeless?: boolean;
  /** How much larger than recorded the target is drawn (`drawnScale`): a found text's padding grows with it. @default 1 */
  readonly scale?: number;
}

const { pixelThreshold, channelTolerance, relocateMinScore, blankSlackPx, structureMin } = EFFECT_THRESHOLDS;

/** The kind of an effect; paths of format version 1 did not record it. */
export const kindOf = (effect: Effect): EffectKind => effect.kind ?? (effect.text ? 'text' : 'look');

/** Checks every recorded effect of an action on the window after its replay. */
export async function verifyEffects(input: VerifyInput): Promise<EffectCheck[]> {
  const checks: EffectCheck[] = [];
  let changes: Promise<ChangedWords> | undefined;
  // The app's end is verified by the app ending (replay-step.ts), never by pixels.
  for (const recorded of onScreen(input.recorded.effects)) {
    const effect = input.treeless ? byPixels(recorded) : recorded;
    const image = effect.image ? input.image(effect.image) : undefined;
    const check = checkEffect(effect, image, input.before, input.after, input.offset, elsewhere(input, effect));
    if (!check.verified && kindOf(effect) === 'look' && effect.text && image) {
      checks.push(await checkLookText(input, effect, image, check));
      continue;
    }
    if (check.verified || kindOf(effect) !== 'text' || !image) {
      checks.push(check);
      continue;
    }
    // A text is read where it is now, and then looked for by what it says.
    changes ??= changedWords(input);
    checks.push(await checkText(input, effect, check, changes));
  }
  return changes ? withSurroundings(checks, await changes) : checks;
}

/** An element effect judged by its pixels: a text by what it says (the tree's words), else a look. */
const byPixels = (effect: Effect): Effect => (kindOf(effect) === 'element' ? { ...effect, kind: effect.text ? 'text' : 'look' } : effect);

/**
 * A text found elsewhere was found by its words; the change around them — its button or box
 * repainted, what the new screen replaced there — is its effect too, as the recorded region was.
 * A region this action changed that holds a found text accounts for it, as long as every word
 * it shows belongs to some verified effect: an error beside a right result is not accounted for.
 */
export function withSurroundings(checks: EffectCheck[], { changed, words }: Pick<ChangedWords, 'changed' | 'words'>): EffectCheck[] {
  const found = checks.filter((c) => c.verified && !c.skipped);
  const ours = (w: TextBox): boolean => found.some((c) => containsPoint(c.region, regionCenter(w.box)));
  const covered = changed.filter((c) => words.every((w) => !regionsIntersect(c, w.box) || ours(w)));
  return checks.map((check) => {
    if (!check.verified || !check.moved || kindOf(check.effect) !== 'text') return check;
    const around = covered.filter((c) => regionsIntersect(c, check.region));
    return around.length > 0 ? { ...check, covers: around } : check;
  });
}

/**
 * Whether every effect that decides shows exactly its recorded pixels, at its place (moved with
 * the target): the sign that the action's reaction is complete, so waiting for it ends. Undefined
 * when pixels alone cannot tell (no effect decides, or one has no image: a secret action).
 */
export function presentAsRecorded(
  recorded: RecordedAction,
  image: (name: string) => Frame,
  offset: Point,
): ((frame: Frame) => boolean) | undefined {
  // An element's pixels decide nothing, but showing as recorded they still say the reaction is drawn.
  const decisive = onScreen(recorded.effects).filter((e) => kindOf(e) !== 'feedback');
  if (decisive.length === 0 || decisive.some((e) => e.image === undefined)) return undefined;
  const expected = decisive.map((e) => ({ places: placesOf(e, offset), image: image(e.image!) }));
  return (frame) => expected.every(({ places, image: shown }) => places.some((r) => matches(frame, r, shown).ok));
}

/**
 * Where an effect found elsewhere may not be: on its target, unless it was recorded there.
 * `input.offset` is how far the target moved, so its recorded box is its box now, moved back.
 */
function elsewhere(input: Pick<VerifyInput, 'target' | 'offset'>, effect: Effect): (r: Region) => boolean {
  const { target, offset } = input;
  if (!target || regionsIntersect(effect.region, offsetRegion(target, -offset.x, -offset.y))) return () => true;
  return (r) => !containsPoint(target, regionCenter(r));
}

/** Where an effect may be now: at its recorded place, and moved with the target. */
const placesOf = (effect: Effect, offset: Point): Region[] =>
  offset.x === 0 && offset.y === 0 ? [effect.region] : [effect.region, offsetRegion(effect.region, offset.x, offset.y)];

const inside = (frame: Frame, r: Region): boolean => r.x >= 0 && r.y >= 0 && r.x + r.width <= frame.width && r.y + r.height <= frame.height;

/** Whether this action changed anything (a caret aside) inside `region`. */
const changedAt = (before: Frame, after: Frame, region: Region): boolean => {
  const r = clampRegion(region, after.width, after.height);
  return changedRegions(crop(before, r), crop(after, r), {}).some((c) => !isCaretLike(c));
};

/** Whether `after` shows `expected` at `region`: its pixels, within tolerance, a caret aside. */
export function matches(after: Frame, region: Region, expected: Frame): { ok: boolean; diffPixels: number } {
  if (!inside(after, region)) return { ok: false, diffPixels: region.width * region.height };
  const actual = crop(after, region);
  const result = compareFrames(expected, actual, null, { threshold: pixelThreshold });
  if (result.ok) return { ok: true, diffPixels: 0 };
  const real = changedRegions(expected, actual, { tolerance: channelTolerance }).filter((r) => !isCaretLike(r));
  return { ok: real.length === 0, diffPixels: result.diffPixels };
}

/**
 * The pixel checks of an effect: its recorded image at its places, then a flat region anywhere
 * it changed, its structure at its places (a look only), or the image found elsewhere by
 * template. A text effect whose pixels are nowhere is left to `checkText` (it needs OCR).
 * @param image the recorded post image, or undefined for a secret action, where only "the region
 *   changed" can be checked.
 * @param allowed where the image found elsewhere may be (not on the target: `elsewhere`).
 */
export function checkEffect(
  effect: Effect,
  image: Frame | undefined,
  before: Frame,
  after: Frame,
  offset: Point,
  allowed: (r: Region) => boolean = () => true,
): EffectCheck {
  const places = placesOf(effect, offset);
  // The target's own look, and a change the app's elements account for (their effects decide), are evidence.
  if (kindOf(effect) === 'feedback' || kindOf(effect) === 'element')
    return { effect, verified: true, skipped: true, moved: false, region: places[places.length - 1]!, diffPixels: 0 };
  if (!image) {
    for (const [i, region] of places.entries()) {
      if (changedAt(before, after, region))
        return { effect, verified: true, moved: i > 0, region: clampRegion(region, after.width, after.height), diffPixels: 0 };
    }
    return { effect, verified: false, moved: false, region: effect.region, diffPixels: 0, detail: 'the region did not change' };
  }
  let best = Number.POSITIVE_INFINITY;
  for (const [i, region] of places.entries()) {
    const result = matches(after, region, image);
    if (result.ok) return { effect, verified: true, moved: i > 0, region, diffPixels: 0 };
    best = Math.min(best, result.diffPixels);
  }
  const failed: EffectCheck = { effect, verified: false, moved: false, region: effect.region, diffPixels: best };
  if (isFlat(image)) return checkBlank(effect, image, before, after, failed);
  for (const region of kindOf(effect) === 'text' ? [] : places) {
    // Repainted (a theme): the same edges where the action changed the window.
    if (inside(after, region) && changedAt(before, after, region) && structureSimilarity(image, crop(after, region)) >= structureMin) {
      return { effect, verified: true, moved: true, region, diffPixels: 0 };
    }
  }
  // A mark that went away (a radio button's dot) left the area it changed blank: another theme
  // repaints the blank and the frame around it, so where it changed, blank is what is checked.
  const core = kindOf(effect) === 'text' ? undefined : blankCore(image);
  for (const region of core === undefined ? [] : places) {
    const changed = offsetRegion(core!, region.x, region.y);
    if (inside(after, region) && changedAt(before, after, changed) && blankCore(crop(after, region))) {
      return { effect, verified: true, moved: true, region, diffPixels: 0 };
    }
  }
  // A masked entry says how many characters it holds: a larger font draws other dots. Its dots
  // are a look; a text's glyphs are read, never counted.
  const masked = kindOf(effect) === 'text' ? undefined : maskedGlyphs(image);
  for (const region of masked === undefined ? [] : places) {
    if (inside(after, region) && changedAt(before, after, region) && maskedGlyphs(crop(after, region)) === masked) {
      return { effect, verified: true, moved: true, region, diffPixels: 0 };
    }
  }
  // A text's own pixels found elsewhere are the text, however OCR reads it: a text misread when
  // it was learned ("12+* 7 7 =") is never read the same again. Its other looks need OCR.
  const found = findTemplate(after, image, { minScore: relocateMinScore });
  if (found.found) {
    const region = { ...effect.region, x: found.point.x, y: found.point.y };
    // What already looked like this before the action (the first of a row of equal items) is
    // not its effect: only a place the action changed counts.
    if (allowed(region) && changedAt(before, after, region) && matches(after, region, image).ok)
      return { effect, verified: true, moved: true, region, diffPixels: 0 };
  }
  return failed;
}

export interface ChangedWords {
  /** The regions this action changed. */
  readonly changed: readonly Region[];
  /** The words OCR reads in them, in reading order, carets not read. */
  readonly words: readonly TextBox[];
  /** Every word of the window after the action, in reading order. */
  readonly all: readonly TextBox[];
}

async function changedWords(input: VerifyInput): Promise<ChangedWords> {
  const changed = changedRegions(input.before, input.after, { ignore: input.ignore }).filter((c) => !isCaretLike(c));
  if (changed.length === 0) return { changed, words: [], all: [] };
  const all = readingOrder((await readAll(input.reader, withoutCaretsIn(input.after, changed))).words);
  return { changed, words: all.filter((w) => changed.some((c) => regionsIntersect(c, w.box))), all };
}

/**
 * A text whose pixels differ (another theme, another font size, another place): read where it
 * was recorded (and where the target moved it) and compared exactly; else looked for among the
 * words of what this action changed, in order — or, when the target moved and the text has
 * several lines, each line as a row of its own in any order. Always in the same colour role.
 */
async function checkText(input: VerifyInput, effect: Effect, failed: EffectCheck, changes: Promise<ChangedWords>): Promise<EffectCheck> {
  const { reader, before, after } = input;
  const recorded = effect.text ?? '';
  const role = effect.role ?? 'plain';
  let read: string | undefined;
  for (const region of placesOf(effect, input.offset)) {
    if (!inside(after, region) || !changedAt(before, after, region)) continue;
    const text = await readRegion(reader, after, region);
    read ??= text;
    if (!sameText(recorded, text)) continue;
    const now = colourRole(crop(after, region));
    if (now === role) return { effect, verified: true, moved: true, region, diffPixels: 0 };
    return { ...failed, region, detail: `"${oneLine(recorded)}" restyled from ${role} to ${now}` };
  }
  // Items of one effect (a menu's) that a moved layout put in another order are found one by
  // one; only when the target moved too: in place, another order is another text. An item the
  // new layout happens to keep where the old screen had it (a Back button) did not change.
  const moved = input.offset.x !== 0 || input.offset.y !== 0;
  const { changed, words: inChanged, all } = await changes;
  const allowed = elsewhere(input, effect);
  const words = inChanged.filter((w) => allowed(w.box));
  const pad = Math.round(EFFECT_THRESHOLDS.padding * (input.scale ?? 1));
  const found = findSaid(recorded, words) ?? (await readAsLearned(input, recorded, changed, pad, allowed));
  const boxes = found ? [found] : moved ? findLines(recorded, all, (w) => changed.some((c) => regionsIntersect(c, w))) : undefined;
  if (boxes) {
    const regions = boxes.map((box) => clampRegion(inflateRegion(box, pad), after.width, after.height));
    const region = regions.slice(1).reduce(unionRegions, regions[0]!);
    const restyled = regions.map((r) => colourRole(crop(after, r))).find((now) => now !== role);
    if (restyled === undefined) return { effect, verified: true, moved: true, region, diffPixels: 0 };
    return { ...failed, region, detail: `"${oneLine(recorded)}" restyled from ${role} to ${restyled}` };
  }
  return {
    ...failed,
    detail: read === undefined ? `"${oneLine(recorded)}" is not shown` : `reads "${oneLine(read)}", recorded "${oneLine(recorded)}"`,
  };
}

/**
 * The change that reads `recorded` when read as learning read it: on its own, padded, the words
 * mostly inside it. A window read whole reads a text beside marks otherwise than the change alone
 * ("« Express M Gift wrap" where the change alone, as learned, reads "+ Express Gift wrap"): a
 * radio's dot or a check box is no word, and OCR guesses one from what is next to it.
 */
async function readAsLearned(
  input: VerifyInput,
  recorded: string,
  changed: readonly Region[],
  pad: number,
  allowed: (r: Region) => boolean,
): Promise<Region | undefined> {
  for (const c of changed) {
    const region = clampRegion(inflateRegion(c, pad), input.after.width, input.after.height);
    if (allowed(region) && sameText(recorded, await readRegion(input.reader, input.after, region, c))) return c;
  }
  return undefined;
}

/**
 * A look holding a text (a picked item with its label) whose pixels and structure differ — the
 * text drawn in another size — is the same look when, at a place this action changed, its text
 * reads as recorded and, around the text, the structure is the recorded one and not the one
 * before the action (what was picked shows picked the same way), in the same colour role. A look
 * that is only its text restyled has nothing around the text to tell: it stays failed.
 */
async function checkLookText(input: VerifyInput, effect: Effect, image: Frame, failed: EffectCheck): Promise<EffectCheck> {
  const { reader, before, after } = input;
  let recorded: readonly Region[] | undefined;
  for (const region of placesOf(effect, input.offset)) {
    if (!inside(after, region) || !changedAt(before, after, region)) continue;
    const now = await readAll(reader, withoutCaretsIn(after, [region]), { region });
    if (!sameText(effect.text ?? '', now.text)) continue;
    recorded ??= (await readAll(reader, withoutCarets(image))).words.map((w) => w.box);
    const text = [...recorded, ...now.words.map((w) => offsetRegion(w.box, -region.x, -region.y))].map((b) =>
      inflateRegion(b, EFFECT_THRESHOLDS.padding),
    );
    const shown = crop(after, region);
    if (
      structureSimilarity(image, shown, text) >= structureMin &&
      structureSimilarity(image, crop(before, region), text) < structureMin &&
      colourRole(image) === colourRole(shown)
    ) {
      return { effect, verified: true, moved: true, region, diffPixels: 0 };
    }
  }
  return failed;
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' / ');

/**
 * An effect that blanked a region (a field cleared after saving) cannot be searched for: blank
 * areas are everywhere. It verifies when some region this action changed, at least as large, is
 * now flat but for a caret — the content went away, wherever the layout put it, whatever the
 * theme's colour.
 */
function checkBlank(effect: Effect, image: Frame, before: Frame, after: Frame, failed: EffectCheck): EffectCheck {
  for (const changed of changedRegions(before, after, {})) {
    if (changed.width < image.width - blankSlackPx || changed.height < image.height - blankSlackPx) continue;
    // Also padded as recorded effects are: a caret left in the field spans the change's height.
    for (const by of [0, EFFECT_THRESHOLDS.padding]) {
      const region = clampRegion(inflateRegion(changed, by), after.width, after.height);
      if (isFlat(crop(after, region))) return { effect, verified: true, moved: true, region, diffPixels: 0 };
    }
  }
  return { ...failed, detail: 'the region was not cleared' };
}
