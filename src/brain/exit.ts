/**
 * The application ending as a result, not a crash. Closing a dialog, quitting an editor: the
 * app exiting is then the effect the user wanted. An action during which the app ended records
 * an `exit` effect (its code) instead of waiting for a window that will never settle; its replay
 * verifies that the app ended again, with the same code; an `exited:` expectation checks it at
 * the end of the goal. An exit nothing accounts for (no recorded effect, no expectation) stays
 * an infrastructure fault: the goal is broken, with the exit code and the tail of stderr.
 */
import { describeExit, type Action, type Effect, type ExitStatus, type RecordedAction, type Region } from '../domain.ts';
import type { AppExit } from '../desktop/types.ts';
import { InfrastructureError } from '../errors.ts';
import { fingerprint } from '../vision/fingerprint.ts';
import type { Settled } from './settle.ts';
import type { Stage } from './stage.ts';
import { setTimeout as delay } from 'node:timers/promises';
import { APP_END_LIMITS } from './thresholds.ts';

/** The app ended while the work ran: how. */
export interface Ended {
  readonly ended: AppExit;
}

/** The fault of an exit nothing accounts for: the goal is broken, with the app's last words. */
export function appExitedError(exit: AppExit): InfrastructureError {
  const tail = exit.stderrTail.trim();
  return new InfrastructureError(
    'APP_EXITED',
    `The application ${describeExit(exit)} during the goal.${tail ? `\nLast lines of its stderr:\n${tail}` : ''}`,
  );
}

/**
 * Runs `work` (a wait, a capture) that the app ending would fail: resolves with the exit
 * instead. A failure that is not the app ending stays a failure.
 */
export async function unlessEnded<T>(stage: Stage, work: Promise<T>): Promise<T | Ended> {
  try {
    return await work;
  } catch (error) {
    const exit =
      stage.app.exitInfo() ?? (await Promise.race([stage.app.exited, delay(APP_END_LIMITS.endingGraceMs).then(() => undefined)]));
    if (exit === undefined || stage.signal.aborted) throw error;
    return { ended: exit };
  }
}

export const hasEnded = (value: object): value is Ended => 'ended' in value;

/** Waits up to `ms` for the app to end; undefined when it lives on. */
export async function awaitExit(stage: Stage, ms: number): Promise<AppExit | undefined> {
  const now = stage.app.exitInfo();
  if (now) return now;
  const timer = new AbortController();
  const waited = delay(ms, undefined, { signal: AbortSignal.any([timer.signal, stage.signal]) }).then(
    () => undefined,
    (error: unknown) => {
      // The goal's deadline: its reason is what the goal reports.
      throw stage.signal.aborted && stage.signal.reason instanceof Error ? stage.signal.reason : error;
    },
  );
  try {
    return await Promise.race([stage.app.exited, waited]);
  } finally {
    timer.abort();
    waited.catch(() => undefined);
  }
}

/** The state after an action that ended the app: no fingerprint matches it, no walk leads through it. */
const ENDED_STATE = 'exited';

/** An action during which the app ended, as a path keeps it: its window gone, one `exit` effect. */
export function endedAction(
  action: Action,
  before: Settled,
  dynamic: readonly Region[],
  exit: ExitStatus,
  settleMs: number,
  anchor?: RecordedAction['anchor'],
): RecordedAction {
  const window: Region = { x: 0, y: 0, width: before.frame.width, height: before.frame.height };
  const recorded = {
    action,
    ...(anchor ? { anchor } : {}),
    before: fingerprint(before.frame, dynamic),
    after: ENDED_STATE,
    effects: [],
    dynamic,
    settleMs: Math.round(settleMs),
  };
  return withExit(recorded, exit, window);
}

/** An action with the app's end added to its effects; `window` is the whole window, window-relative. */
export function withExit(recorded: RecordedAction, exit: ExitStatus, window: Region): RecordedAction {
  return {
    ...recorded,
    after: ENDED_STATE,
    effects: [...recorded.effects, { region: window, kind: 'exit', exit: { code: exit.code, signal: exit.signal } }],
  };
}

/** Whether an exit is the one expected: a code, or `any` code (a kill by a signal is a crash). */
export const exitMatches = (expected: number | 'any', exit: ExitStatus): boolean =>
  exit.signal === null && (expected === 'any' || exit.code === expected);

/** Why a replayed action did not end the app as recorded; undefined when it did. */
export function exitMiss(recorded: Effect, exit: ExitStatus | undefined, waitedMs: number): string | undefined {
  const was = recorded.exit ? `it ${describeExit(recorded.exit)}` : 'it ended';
  if (exit === undefined) return `the application was to end (recorded: ${was}), but it still runs ${waitedMs} ms later`;
  if (recorded.exit && (exit.code !== recorded.exit.code || exit.signal !== recorded.exit.signal))
    return `the application ${describeExit(exit)} (recorded: ${was})`;
  return undefined;
}
