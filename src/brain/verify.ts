/**
 * Verification of a replayed action: every region the recorded action changed must show its
 * recorded image again. The image is looked for where it was recorded, then shifted with the
 * target (when the target moved), then anywhere in the window; only the first is a clean pass.
 */
import type { Effect, Frame, Point, Region } from '../domain.ts';
import { crop, clampRegion, offsetRegion } from '../vision/frame.ts';
import { compareFrames } from '../vision/compare.ts';
import { changedRegions } from '../vision/changes.ts';
import { findTemplate } from '../vision/template.ts';
import { isCaretLike } from '../vision/settle.ts';

export interface EffectCheck {
  readonly effect: Effect;
  readonly verified: boolean;
  /** True when the effect was found only away from its recorded place. */
  readonly moved: boolean;
  /** Where the effect was found or looked for, window-relative. */
  readonly region: Region;
  readonly diffPixels: number;
}

/** Per-pixel colour tolerance of effect images (pixelmatch threshold). */
const THRESHOLD = 0.1;
/**
 * Per-channel difference forgiven once the caret is set aside: sub-pixel text rendering, not a
 * repainted background (pale green to pale pink differs by 19–30 per channel).
 */
const CHANNEL_TOLERANCE = 12;
/** How sure a search must be before an effect counts as found elsewhere. */
const RELOCATE_MIN_SCORE = 0.97;


function matches(after: Frame, region: Region, expected: Frame): { ok: boolean; diffPixels: number } {
  if (region.x < 0 || region.y < 0 || region.x + region.width > after.width || region.y + region.height > after.height) {
    return { ok: false, diffPixels: region.width * region.height };
  }
  const actual = crop(after, region);
  const result = compareFrames(expected, actual, null, { threshold: THRESHOLD });
  if (result.ok) return { ok: true, diffPixels: 0 };
  const real = changedRegions(expected, actual, { tolerance: CHANNEL_TOLERANCE }).filter((r) => !isCaretLike(r));
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
  const found = findTemplate(after, image, { minScore: RELOCATE_MIN_SCORE });
  if (found.found) {
    const region = { ...effect.region, x: found.point.x, y: found.point.y };
    const result = matches(after, region, image);
    if (result.ok) return { effect, verified: true, moved: true, region, diffPixels: 0 };
  }
  return { effect, verified: false, moved: false, region: effect.region, diffPixels: best };
}
