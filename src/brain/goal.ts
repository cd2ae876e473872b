/**
 * What a goal run takes and gives back. A goal ends in an outcome, a value: passed, or a product
 * mismatch with its category and the action where it happened. Exceptions are left for
 * infrastructure faults (the app died, the display died, the goal was aborted) and invalid input.
 */
import type { ActionReport, FailureCategory, Mode, RecordedAction, Region, StopReason } from '../domain.ts';
import type { GoalSpec, Spec } from '../spec-file/types.ts';
import type { ResolvedOptions } from '../spec-file/defaults.ts';
import { checkExpectations, type CheckContext } from './assert/check.ts';
import { heldBefore, holdMsOf, judgeQuietScreen, provedNothing } from './assert/judge.ts';
import type { AssertionResult } from './assert/types.ts';
import type { Stage } from './stage.ts';
import type { CycleOptions, Evidence } from './cycle.ts';
import type { DetailSink, ProblemSink } from './outcome.ts';
import type { Planner } from './planners/types.ts';
import type { ModelLocator } from './ladder.ts';

/** What the goal is doing now, for progress lines. */
export type Phase = 'launching' | 'learning' | 'recording' | 'replaying' | 'navigating' | 'checking' | 'saving';

export interface GoalHooks {
  phase?(phase: Phase, detail?: string): void;
  action?(index: number, total: number | undefined, description: string): void;
  warn?(message: string): void;
  /** The final check judged the expectations once, in `ms` (the rest of the check is holding still). */
  judged?(ms: number): void;
}

export interface GoalRunInput {
  readonly spec: Spec;
  readonly goal: GoalSpec;
  readonly options: ResolvedOptions;
  readonly baselinesDir: string;
  readonly check: Omit<CheckContext, 'specId' | 'baselinesDir' | 'update' | 'stableTimeoutMs' | 'expectMs'>;
  readonly resolveText: (template: string) => string;
  /** A stage with the app ready at the goal's start. Called again, fresh, for a relearn. */
  readonly stage: (fresh: boolean) => Promise<Stage>;
  /** Makes a Claude planner; absent when no API key is set. */
  readonly claude?: (goalText: string) => Planner;
  readonly modelLocator?: () => { locate: ModelLocator; calls: () => number };
  readonly hooks?: GoalHooks;
  readonly onEvidence?: Evidence;
  /** Receives the images that show an action's failure or unexpected change. */
  readonly onProblem?: ProblemSink;
  /** Receives each action's report as it ends. */
  readonly onReport?: (report: ActionReport) => void;
  /** Receives how each replayed action found its target and effects. */
  readonly onDetail?: DetailSink;
}

/** A product mismatch: the application did not do what the goal expects. */
export interface Mismatch {
  readonly category: Exclude<FailureCategory, 'infrastructure'>;
  readonly message: string;
  /** 0-based index of the action where the goal failed, when an action failed. */
  readonly failedAction?: number;
}

export interface GoalOutcome {
  readonly mode: Mode;
  readonly actions: readonly ActionReport[];
  readonly assertions: readonly AssertionResult[];
  readonly modelCalls: number;
  readonly stopReason?: StopReason;
  readonly planner?: string;
  /** Absent when the goal passed. */
  readonly mismatch?: Mismatch;
  /** What a goal that passed should still tell (an expectation that proves nothing). */
  readonly warnings?: readonly string[];
}

/**
 * The options of the action cycles a goal runs.
 * @param reported false for actions that are not part of the goal's report (a walk to its start).
 */
export const cycleOptions = (input: GoalRunInput, reported = true): CycleOptions => ({
  settleTimeoutMs: input.options.timeouts.settleMs,
  actionTimeoutMs: input.options.timeouts.actionMs,
  resolveText: input.resolveText,
  strict: input.options.strict,
  unexpectedChanges: input.options.unexpectedChanges,
  ...(reported && input.onProblem ? { onProblem: input.onProblem } : {}),
  ...(reported && input.onEvidence ? { onEvidence: input.onEvidence } : {}),
  ...(reported && input.onReport ? { onReport: input.onReport } : {}),
  ...(reported && input.onDetail ? { onDetail: input.onDetail } : {}),
});

const checkContext = (input: GoalRunInput): CheckContext => ({
  ...input.check,
  specId: input.spec.id,
  baselinesDir: input.baselinesDir,
  update: input.options.updateBaselines,
  stableTimeoutMs: input.options.timeouts.settleMs,
  expectMs: input.options.timeouts.expectMs,
});

/** Which expectations held before the goal's first action, once known (see expectationsBefore). */
export type HeldBefore = () => Promise<ReadonlySet<number>>;

/**
 * Which expectations already hold before the goal's first action (assert/judge.ts). The
 * elements are read and the window captured now; reading the capture's text (OCR, a second or
 * more with a cold reader) goes on while the actions run: the first action need not wait for it.
 */
export async function expectationsBefore(input: GoalRunInput, stage: Stage): Promise<HeldBefore> {
  const { expect } = input.goal;
  if (!expect.some((e) => e.kind === 'text' || e.kind === 'element')) return async () => new Set();
  const context = checkContext(input);
  const still = expect.some((e) => e.kind === 'text') ? await stage.still() : undefined;
  const elements = await heldBefore(stage, expect, context, ['element']);
  const texts = still ? heldBefore(still, expect, context, ['text']) : Promise.resolve(new Set<number>());
  // Awaited only by the final check: a goal that fails before it must not leave it unobserved.
  texts.catch(() => undefined);
  return async () => new Set([...elements, ...(await texts)]);
}

export interface Judged {
  readonly assertions: AssertionResult[];
  /** Failed expectations, or, under --strict, one that proves nothing. */
  readonly mismatch?: Mismatch;
  readonly warnings: string[];
}

/**
 * Runs the goal's `expect:` list on its final screen, once quiet for as long as the app took to
 * react while `actions` were learned; `before` are the expectations that held before it began.
 */
export async function checkGoal(
  input: GoalRunInput,
  stage: Stage,
  actions: readonly RecordedAction[],
  before: HeldBefore,
): Promise<Judged> {
  input.hooks?.phase?.('checking');
  const last = actions.at(-1);
  const judge = async (): Promise<AssertionResult[]> => {
    const from = performance.now();
    try {
      return await checkExpectations(stage, input.goal.expect, checkContext(input));
    } finally {
      input.hooks?.judged?.(performance.now() - from);
    }
  };
  // A goal that ends the app has no final screen to hold: its window is gone, or going.
  const ends = stage.app.exitInfo() !== undefined || input.goal.expect.some((e) => e.kind === 'exited');
  const assertions = ends
    ? await judge()
    : await judgeQuietScreen(stage, judge, {
        holdMs: holdMsOf(actions.map((a) => a.settleMs)),
        ignore: last?.dynamic ?? [],
        timeoutMs: input.options.timeouts.settleMs,
      });
  const failed = expectationMismatch(assertions);
  if (failed) return { assertions, mismatch: failed, warnings: [] };
  const changed: Region[] =
    [...actions]
      .reverse()
      .find((a) => a.effects.length > 0)
      ?.effects.map((e) => e.region) ?? [];
  const warnings = provedNothing(input.goal.expect, assertions, await before(), changed);
  if (warnings.length > 0 && input.options.strict)
    return { assertions, mismatch: { category: 'expectation-failed', message: `${warnings.join('\n')} (--strict)` }, warnings: [] };
  return { assertions, warnings };
}

/** The mismatch of failed expectations, or undefined when all held. */
export function expectationMismatch(assertions: readonly AssertionResult[]): Mismatch | undefined {
  const failed = assertions.filter((a) => !a.ok);
  if (failed.length === 0) return undefined;
  return { category: 'expectation-failed', message: failed.map((a) => `${a.description}: ${a.message}`).join('\n') };
}
