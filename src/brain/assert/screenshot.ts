/**
 * `screenshot:` assertions, after Playwright's toHaveScreenshot: a stable capture (retaken until
 * two consecutive frames match), then the comparator against the baseline. A baseline written
 * by this run is reported as new, never as a pass of a comparison that did not happen.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Frame, Region } from '../../domain.ts';
import { crop, clampRegion, createFrame, encodePng, decodePng } from '../../vision/frame.ts';
import { compareFrames } from '../../vision/compare.ts';
import { writeFileAtomic } from '../../paths/atomic.ts';
import type { Stage } from '../stage.ts';
import { settle } from '../settle.ts';
import type { AssertionResult, UpdateBaselines } from './types.ts';
import { baselineFile } from './baselines.ts';

export interface ScreenshotCheck {
  readonly name: string;
  readonly region?: Region;
  readonly mask: readonly Region[];
  readonly threshold?: number;
  readonly maxDiffPixels?: number;
  readonly maxDiffPixelRatio?: number;
}

export interface ScreenshotContext {
  readonly specId: string;
  readonly baselinesDir: string;
  readonly update: UpdateBaselines;
  /** How long the capture may take to become stable. */
  readonly stableTimeoutMs: number;
}

export async function assertScreenshot(stage: Stage, check: ScreenshotCheck, context: ScreenshotContext): Promise<AssertionResult> {
  const started = performance.now();
  const description = `screenshot "${check.name}"`;
  const shot = await settle(stage, { timeoutMs: context.stableTimeoutMs, ignore: check.mask });
  const actual: Frame = check.region ? crop(shot.frame, clampRegion(check.region, shot.frame.width, shot.frame.height)) : shot.frame;
  const file = baselineFile(context.baselinesDir, context.specId, check.name, actual);
  const ms = (): number => Math.round(performance.now() - started);
  const write = (): Uint8Array => {
    const png = encodePng(actual);
    writeFileAtomic(file, png);
    return png;
  };

  if (!shot.stable) {
    return {
      kind: 'screenshot',
      description,
      ok: false,
      message: `the window never became stable within ${context.stableTimeoutMs} ms; mask the regions that change on their own`,
      ms: ms(),
    };
  }
  if (!existsSync(file)) {
    if (context.update === 'none') {
      return {
        kind: 'screenshot',
        description,
        ok: false,
        message: `no baseline ${file} (baselines are not written with --update-baselines none; run locally to create it)`,
        ms: ms(),
      };
    }
    const written = write();
    // As Playwright: writing a missing baseline is a pass only when writing was asked for
    // (changed, all); under the default (missing) the goal fails, and the next run compares.
    const asked = context.update !== 'missing';
    const message = asked
      ? `wrote a new baseline ${file}`
      : `no baseline ${file}: this run's screenshot was written as the new baseline (nothing was compared); check it, and run again`;
    return { kind: 'screenshot', description, ok: asked, baseline: 'new', written, message, ms: ms() };
  }
  const rewritten = (message: string): AssertionResult => {
    write();
    return { kind: 'screenshot', description, ok: true, baseline: 'updated', message, ms: ms() };
  };
  if (context.update === 'all') return rewritten(`rewrote the baseline ${file} (--update-baselines all)`);
  const expected = decodePng(readFileSync(file));
  const diff = createFrame(Math.max(expected.width, actual.width), Math.max(expected.height, actual.height));
  const result = compareFrames(expected, actual, diff, {
    mask: check.mask,
    ...(check.threshold !== undefined ? { threshold: check.threshold } : {}),
    ...(check.maxDiffPixels !== undefined ? { maxDiffPixels: check.maxDiffPixels } : {}),
    ...(check.maxDiffPixelRatio !== undefined ? { maxDiffPixelRatio: check.maxDiffPixelRatio } : {}),
  });
  if (result.ok) return { kind: 'screenshot', description, ok: true, baseline: 'matched', message: `matches ${file}`, ms: ms() };
  if (context.update === 'changed') return rewritten(`rewrote the changed baseline ${file}: ${result.message}`);
  return {
    kind: 'screenshot',
    description,
    ok: false,
    message: `${file}: ${result.message}`,
    images: { expected: encodePng(expected), actual: encodePng(actual), diff: encodePng(diff) },
    ms: ms(),
  };
}

/**
 * Whether every failed result is a missing baseline this run wrote: the path that reached the
 * screen is right, so learning (or a recording) still saves it, and the goal still fails.
 */
export const onlyNewBaselines = (results: readonly AssertionResult[]): boolean => results.every((r) => r.ok || r.baseline === 'new');
