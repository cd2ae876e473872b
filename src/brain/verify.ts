/**
 * Verification of a replayed action: every region the recorded action changed must show its
 * recorded image again. The image is looked for where it was recorded, then shifted with the
 * target (when the target moved), then anywhere in the window; only the first is a clean pass.
 */
import type { Effect, Frame, Point, RecordedAction, Region } from '../domain.ts';
import { crop, clampRegion, offsetRegion, regionsIntersect, unionRegions } from '../vision/frame.ts';
import { readAll, matchKey } from '../vision/ocr/find-text.ts';
import type { TextReader } from '../vision/types.ts';
import { compareFrames } from '../vision/compare.ts';
import { changedRegions } from '../vision/changes.ts';
import { findTemplate } from '../vision/template.ts';
import { isCaretLike } from '../vision/settle.ts';
import { EFFECT_THRESHOLDS } from './thresholds.ts';

export interface EffectCheck {
  readonly effect: Effect;
  readonly verified: boolean;
  /** True when the effect was found only away from its recorded place. */
  readonly moved: boolean;
  /** Where the effect was found or looked for, window-relative. */
  readonly region: Region;
  readonly diffPixels: number;
}

const { pixelThreshold, channelTolerance, relocateMinScore, blankSlackPx } = EFFECT_THRESHOLDS;

/**
 * Checks every recorded effect of an action on the screen after its replay: by image first,
 * then by its words where the layout moved.
 * @param image decodes an image of the path.
 * @param offset how far the target moved since recording.
 */
export async function verifyEffects(
  reader: TextReader,
  recorded: RecordedAction,
  image: (name: string) => Frame,
  before: Frame,
  after: Frame,
  offset: Point,
): Promise<EffectCheck[]> {
  const checks: EffectCheck[] = [];
  for (const effect of recorded.effects) {
    const check = checkEffect(effect, effect.image ? image(effect.image) : undefined, before, after, offset);
    checks.push(check.verified ? check : await checkEffectText(reader, check, before, after, recorded.dynamic));
  }
  return checks;
}

function matches(after: Frame, region: Region, expected: Frame): { ok: boolean; diffPixels: number } {
  if (region.x < 0 || region.y < 0 || region.x + region.width > after.width || region.y + region.height > after.height) {
    return { ok: false, diffPixels: region.width * region.height };
  }
  const actual = crop(after, region);
  const result = compareFrames(expected, actual, null, { threshold: pixelThreshold });
  if (result.ok) return { ok: true, diffPixels: 0 };
  const real = changedRegions(expected, actual, { tolerance: channelTolerance }).filter((r) => !isCaretLike(r));
  return { ok: real.length === 0, diffPixels: result.diffPixels };
}

/**
 * @param image the recorded post image of `effect`, or undefined for a secret action, where
 *   only "the region changed" can be checked.
 * @param offset how far the target moved since recording.
 */
export function checkEffect(
  effect: Effect,
  image: Frame | undefined,
  before: Frame,
  after: Frame,
  offset: Point,
): EffectCheck {
  const places = offset.x === 0 && offset.y === 0 ? [effect.region] : [effect.region, offsetRegion(effect.region, offset.x, offset.y)];
  if (!image) {
    for (const [i, region] of places.entries()) {
      const clamped = clampRegion(region, after.width, after.height);
      if (changedRegions(crop(before, clamped), crop(after, clamped), {}).length > 0) {
        return { effect, verified: true, moved: i > 0, region: clamped, diffPixels: 0 };
      }
    }
    return { effect, verified: false, moved: false, region: effect.region, diffPixels: 0 };
  }
  let best = Number.POSITIVE_INFINITY;
  for (const [i, region] of places.entries()) {
    const result = matches(after, region, image);
    if (result.ok) return { effect, verified: true, moved: i > 0, region, diffPixels: 0 };
    best = Math.min(best, result.diffPixels);
  }
  if (uniformColour(image) !== undefined) return checkBlankEffect(effect, image, before, after, best);
  const found = findTemplate(after, image, { minScore: relocateMinScore });
  if (found.found) {
    const region = { ...effect.region, x: found.point.x, y: found.point.y };
    // What already looked like this before the action (the first of a row of equal items) is
    // not its effect: only a place the action changed counts.
    const changedThere = changedRegions(crop(before, region), crop(after, region), {}).length > 0;
    if (changedThere && matches(after, region, image).ok) return { effect, verified: true, moved: true, region, diffPixels: 0 };
  }
  return { effect, verified: false, moved: false, region: effect.region, diffPixels: best };
}

/**
 * The last chance of an effect whose image was not found where it was recorded: every word of
 * its recorded text, read exactly (no fuzzy tolerance: "mil" must not pass for "milk"), inside a
 * region this action changed. Words may have moved apart (a menu laid out in another order); a
 * word that was already on screen, outside what the action changed, proves nothing.
 */
export async function checkEffectText(
  reader: TextReader,
  failed: EffectCheck,
  before: Frame,
  after: Frame,
  dynamic: readonly Region[],
): Promise<EffectCheck> {
  const words = (failed.effect.text ?? '').split(/\s+/).map(matchKey).filter((w) => w.length > 0);
  if (words.length === 0) return failed;
  const changed = changedRegions(before, after, { ignore: dynamic });
  const read = (await readAll(reader, after)).words.filter((w) => changed.some((c) => regionsIntersect(c, w.box)));
  let found: Region | undefined;
  for (const word of words) {
    const hit = read.find((w) => matchKey(w.text) === word);
    if (!hit) return failed;
    found = found ? unionRegions(found, hit.box) : hit.box;
  }
  return found ? { ...failed, verified: true, moved: true, region: found } : failed;
}

/** The colour of a frame that is one flat colour (within the channel tolerance), else undefined. */
function uniformColour(frame: Frame): readonly [number, number, number] | undefined {
  const d = frame.data;
  const [r, g, b] = [d[0] ?? 0, d[1] ?? 0, d[2] ?? 0];
  for (let i = 4; i < d.length; i += 4) {
    if (Math.abs((d[i] ?? 0) - r) > channelTolerance || Math.abs((d[i + 1] ?? 0) - g) > channelTolerance || Math.abs((d[i + 2] ?? 0) - b) > channelTolerance) {
      return undefined;
    }
  }
  return [r, g, b];
}

/**
 * An effect that blanked a region (a field cleared after saving) cannot be searched for: blank
 * areas are everywhere. It verifies when some region this action changed, at least as large,
 * is now that same flat colour — the content went away, wherever the layout put it.
 */
function checkBlankEffect(effect: Effect, image: Frame, before: Frame, after: Frame, diffPixels: number): EffectCheck {
  const colour = uniformColour(image);
  for (const changed of changedRegions(before, after, {})) {
    if (changed.width < image.width - blankSlackPx || changed.height < image.height - blankSlackPx) continue;
    const now = uniformColour(crop(after, clampRegion(changed, after.width, after.height)));
    if (now && colour && now.every((c, i) => Math.abs(c - (colour[i] ?? 0)) <= channelTolerance)) {
      return { effect, verified: true, moved: true, region: changed, diffPixels: 0 };
    }
  }
  return { effect, verified: false, moved: false, region: effect.region, diffPixels };
}
