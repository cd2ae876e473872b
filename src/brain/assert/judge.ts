/**
 * When and on what a goal's expectations are judged (issue 17).
 *
 * - On the goal's final screen, once it stayed quiet for the hold: as long as the app took to
 *   react while the path was learned (3 × its longest recorded settle time, the allowance replay
 *   gives a reaction), at least 300 ms. A result that reverts within the hold is judged reverted.
 * - A change while the expectations are being read (OCR takes a while) means the screen judged
 *   was not the last one: it is judged again once quiet, up to three times. Polling that stopped
 *   at the first success cannot hide a revert that comes after it.
 * - A text or element expectation that already held on the screen before the goal's first action
 *   proves nothing: a warning, a failure under `--strict`, with a region to narrow it to.
 *   (`absent:` usually holds before, `window:` names the app's own window, and `screenshot:`
 *   compares a region chosen on purpose: they are not judged this way.)
 */
import type { Region } from '../../domain.ts';
import type { Expectation } from '../../spec-file/types.ts';
import type { Stage } from '../stage.ts';
import { settle } from '../settle.ts';
import { settleChanges } from '../../vision/settle.ts';
import { unionRegions } from '../../vision/frame.ts';
import type { AssertionResult } from './types.ts';
import { checkExpectations, type CheckContext } from './check.ts';
import { JUDGE_LIMITS } from '../thresholds.ts';

/** How long the final screen must stay quiet before it is judged, from the settle times learned. */
export function holdMsOf(settleMs: readonly number[]): number {
  return Math.max(JUDGE_LIMITS.holdFloorMs, JUDGE_LIMITS.holdFactor * Math.max(0, ...settleMs));
}

export interface Hold {
  /** From `holdMsOf`. */
  readonly holdMs: number;
  /** Regions known to change on their own (a clock): they neither break the quiet nor the judgement. */
  readonly ignore: readonly Region[];
  /** How long to wait for the quiet before judging what is there. */
  readonly timeoutMs: number;
}

/**
 * Waits until the window stayed quiet for the hold, runs `judge` on it, and judges again when the
 * window changed meanwhile (see the module comment). A failure is final: the assertions polled
 * for their own timeouts already. A window that never stops changing is judged as it is.
 */
export async function judgeQuietScreen(stage: Stage, judge: () => Promise<AssertionResult[]>, hold: Hold): Promise<AssertionResult[]> {
  let results: AssertionResult[] = [];
  let ignore = hold.ignore;
  for (let round = 0; round < JUDGE_LIMITS.rounds; round++) {
    let quiet = await settle(stage, {
      timeoutMs: Math.min(hold.timeoutMs, 2 * hold.holdMs + JUDGE_LIMITS.quietGraceMs),
      ignore,
      quietMs: hold.holdMs,
    });
    if (!quiet.stable) {
      // Content that keeps changing on its own (a clock the path never saw) must not keep the
      // hold from ever ending: what still changed at the end is left out, and the hold starts over.
      ignore = [...ignore, ...(quiet.changing ?? [])];
      quiet = await settle(stage, { timeoutMs: hold.timeoutMs, ignore, quietMs: hold.holdMs });
    }
    results = await judge();
    if (results.some((r) => !r.ok)) return results;
    const now = (await stage.shoot()).frame;
    const same =
      now.width === quiet.frame.width && now.height === quiet.frame.height && settleChanges(quiet.frame, now, { ignore }).length === 0;
    if (same) return results;
  }
  return results;
}

/** The expectations judged against the screen before the goal's first action. */
export const JUDGED_BEFORE = ['text', 'element'] as const satisfies readonly Expectation['kind'][];

/**
 * Which of `expectations` (by index) already hold on the screen now, before the goal's first
 * action: one look each, no polling. `kinds` picks some of the kinds judged before.
 */
export async function heldBefore(
  stage: Stage,
  expectations: readonly Expectation[],
  context: CheckContext,
  kinds: readonly (typeof JUDGED_BEFORE)[number][] = JUDGED_BEFORE,
): Promise<ReadonlySet<number>> {
  const indexes = expectations.flatMap((e, i) => ((kinds as readonly string[]).includes(e.kind) ? [i] : []));
  if (indexes.length === 0) return new Set();
  const once = indexes.map((i) => ({ ...(expectations[i] as Expectation), timeoutMs: 0 }) as Expectation);
  const results = await checkExpectations(stage, once, { ...context, expectMs: 0 });
  return new Set(indexes.filter((_, k) => results[k]?.ok === true));
}

/**
 * The warning for each expectation that held before the goal began and holds at its end.
 * `changed` are the regions the goal's last action changed: the place to narrow a text to.
 */
export function provedNothing(
  expectations: readonly Expectation[],
  results: readonly AssertionResult[],
  before: ReadonlySet<number>,
  changed: readonly Region[],
): string[] {
  const region = changed.length > 0 ? changed.slice(1).reduce(unionRegions, changed[0] as Region) : undefined;
  const narrow = region
    ? `narrow it to where the goal's last action changed the window (region: [${region.x}, ${region.y}, ${region.width}, ${region.height}])`
    : 'narrow it to the part of the window the goal changes (region: [x, y, width, height])';
  return [...before]
    .sort((a, b) => a - b)
    .filter((i) => results[i]?.ok === true)
    .map((i) => {
      const e = expectations[i] as Expectation;
      const exact = e.kind === 'text' && e.match !== 'exact' ? ', or match it exactly (match: exact)' : '';
      return `${results[i]?.description ?? e.kind} (line ${e.line}) already held before the goal's first action, so it proves nothing: ${narrow}${exact}`;
    });
}
