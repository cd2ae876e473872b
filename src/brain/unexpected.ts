/**
 * Changes nobody recorded. After a replayed action verified, the whole window is compared with
 * what the path accounts for: the window before the action, changed where its effects were found,
 * on the target (its own look) and in regions that change on their own. What is left — an error
 * message beside a right result, a dialog, another screen — is an unexpected change.
 *
 * Cheap by construction: the comparison is `changedRegions`, which compares rows natively and
 * walks only the rows that differ, with the accounted-for regions left out, so an action whose
 * change is all accounted for costs one pass over a few rows. OCR runs only on what is left.
 *
 * A change in a region that keeps changing by itself (a clock nobody recorded, a rotating banner)
 * is not the action's: each candidate is watched for a moment, and one that changes again on its
 * own joins the regions ignored for the rest of the replay.
 */
import type { Frame, Region, UnexpectedChange } from '../domain.ts';
import { changedRegions } from '../vision/changes.ts';
import { clampRegion, crop, inflateRegion, regionsIntersect } from '../vision/frame.ts';
import { isCaretLike, SETTLE_DEFAULTS } from '../vision/settle.ts';
import type { Stage } from './stage.ts';
import { isFocusRing, readRegion } from './observe.ts';
import type { FocusMoves } from './element-effects.ts';
import { CYCLE_LIMITS, EFFECT_THRESHOLDS, UNEXPECTED_LIMITS } from './thresholds.ts';

/**
 * What changed from `before` to `after` outside the regions that account for it (each with a
 * little slack around it) and outside `ignore`. Caret blinks and specks are not changes. `scale`
 * is how much larger than recorded the action's target is drawn (`drawnScale`): the slack grows
 * with it, a speck's area with its square, and a caret's height with the line's. A caret's width
 * does not: drawn at twice the scale it is 2 px, and a wider bar is a glyph's stroke.
 */
export function unexplainedChanges(
  before: Frame,
  after: Frame,
  accounted: readonly Region[],
  ignore: readonly Region[],
  scale = 1,
): Region[] {
  const around = accounted.map((r) => inflateRegion(r, Math.round(UNEXPECTED_LIMITS.slackPx * scale)));
  const minPixels = Math.round(EFFECT_THRESHOLDS.minEffectPixels * scale * scale);
  const caret = { maxHeight: Math.round(SETTLE_DEFAULTS.caret.maxHeight * scale) };
  return changedRegions(before, after, { ignore: [...ignore, ...around], minPixels })
    .filter((c) => !isCaretLike(c, caret))
    .map(({ x, y, width, height }) => ({ x, y, width, height }));
}

/**
 * Whether a change is only the focus moving: it lies on an element whose focus alone changed and
 * leaves that element's inside as it was (its ring came or went), and on no element that changed
 * otherwise. A field whose text changed is news, whether or not its focus moved too.
 */
export function isFocusFeedback(change: Region, moves: FocusMoves, before: Frame, after: Frame): boolean {
  if (moves.changed.some((box) => regionsIntersect(box, change))) return false;
  return moves.focusOnly.some((box) => isFocusRing(before, after, change, box));
}

const changedSince = (from: Frame, now: Frame, region: Region): boolean => {
  const r = clampRegion(region, now.width, now.height);
  return changedRegions(crop(from, r), crop(now, r), {}).some((c) => !isCaretLike(c));
};

/**
 * Splits candidates into those that changed again on their own while watched (up to the dynamic
 * probe's length, ending as soon as every one did) and those that stayed as `after` shows them.
 */
export async function watchCandidates(
  stage: Stage,
  window: Region,
  after: Frame,
  candidates: readonly Region[],
): Promise<{ readonly dynamic: Region[]; readonly still: Region[] }> {
  const grab = stage.grabber(window);
  const moving = new Set<number>();
  const deadline = Date.now() + CYCLE_LIMITS.dynamicProbeMs;
  while (moving.size < candidates.length && Date.now() < deadline) {
    await stage.wait(UNEXPECTED_LIMITS.watchIntervalMs);
    const now = await grab();
    if (now.width !== after.width || now.height !== after.height) break;
    candidates.forEach((c, i) => {
      if (changedSince(after, now, c)) moving.add(i);
    });
  }
  return {
    dynamic: candidates.filter((_, i) => moving.has(i)),
    still: candidates.filter((_, i) => !moving.has(i)),
  };
}

/** The unexpected changes with the text OCR reads in each. */
export async function describeChanges(stage: Stage, after: Frame, regions: readonly Region[]): Promise<UnexpectedChange[]> {
  const out: UnexpectedChange[] = [];
  for (const region of regions) {
    const padded = clampRegion(inflateRegion(region, EFFECT_THRESHOLDS.padding), after.width, after.height);
    out.push({ region: padded, text: await stage.guard(readRegion(stage.reader, after, padded)) });
  }
  return out;
}

/** One line for a message: what changed in the app's elements, else where, and what it says. */
export const describeUnexpected = (changes: readonly UnexpectedChange[]): string =>
  changes
    .map(
      (c) =>
        c.element ??
        `[${c.region.x}, ${c.region.y}, ${c.region.width}, ${c.region.height}]${c.text ? ` "${c.text.replace(/\s*\n\s*/g, ' / ')}"` : ' (no text)'}`,
    )
    .join(', ');
