/** The verdict of a goal: from its outcome when it ran to the end, from its error when it did not. */
import type { ActionReport, Mode, Status, Verdict } from '../domain.ts';
import { describeUnexpected } from '../brain/unexpected.ts';
import { GoalFailure, InfrastructureError, InvalidInputError } from '../errors.ts';
import type { GoalOutcome } from '../brain/run-goal.ts';

export interface VerdictInput {
  readonly spec: string;
  readonly goal: string;
  readonly durationMs: number;
  /** Masks secrets in messages. */
  readonly mask: (text: string) => string;
}

/**
 * What a goal that passed should still tell: an action that had to be done again (the app
 * ignored it once: the path is flaky), a change nobody recorded under `unexpectedChanges: warn`.
 */
export function warningsOf(actions: readonly ActionReport[]): string[] {
  return actions.flatMap((a, i) => {
    const what = `action ${i + 1} (${a.description ?? a.kind})`;
    return [
      ...(a.retries > 0
        ? [`${what}: its effect appeared only when it was done again (${a.retries} ${a.retries === 1 ? 'retry' : 'retries'})`]
        : []),
      ...(a.unexpected?.length ? [`${what}: it also changed what its path did not record: ${describeUnexpected(a.unexpected)}`] : []),
    ];
  });
}

/** A goal that ran to its outcome: passed, or failed with its mismatch. */
export function verdictOf(outcome: GoalOutcome, input: VerdictInput): Verdict {
  const { mismatch } = outcome;
  const warnings = mismatch ? [] : [...warningsOf(outcome.actions), ...(outcome.warnings ?? [])].map(input.mask);
  return {
    spec: input.spec,
    goal: input.goal,
    status: mismatch ? 'failed' : 'passed',
    mode: outcome.mode,
    modelCalls: outcome.modelCalls,
    durationMs: input.durationMs,
    actions: outcome.actions,
    ...(mismatch ? { category: mismatch.category, message: input.mask(mismatch.message) } : {}),
    ...(mismatch?.failedAction !== undefined ? { failedAction: mismatch.failedAction } : {}),
    ...(outcome.stopReason ? { stopReason: outcome.stopReason } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/**
 * A goal that ended in an error: an infrastructure fault (or invalid input found late) is broken;
 * anything else is a bug in retrace, reported with its stack.
 */
export function brokenVerdict(error: unknown, input: VerdictInput & { readonly mode: Mode; readonly modelCalls: number }): Verdict {
  const message = input.mask(error instanceof Error ? error.message : String(error));
  const known = error instanceof InvalidInputError || error instanceof InfrastructureError;
  const status: Status = 'broken';
  return {
    spec: input.spec,
    goal: input.goal,
    status,
    mode: input.mode,
    modelCalls: input.modelCalls,
    durationMs: input.durationMs,
    actions: [],
    category: 'infrastructure',
    message: known ? message : `${message}\n${error instanceof Error ? (error.stack ?? '') : ''}`,
  };
}

/** The error vitest reports for a verdict that did not pass; its stack is only noise. */
export function verdictError(verdict: Verdict, cause: unknown): Error {
  const message = verdict.message ?? verdict.status;
  const error =
    verdict.status === 'failed' && verdict.category && verdict.category !== 'infrastructure'
      ? new GoalFailure(verdict.category, message, verdict.failedAction !== undefined ? { failedAction: verdict.failedAction } : {})
      : cause instanceof InfrastructureError || cause instanceof InvalidInputError
        ? cause
        : new InfrastructureError('IO', message);
  error.stack = `${error.name}: ${message}`;
  return error;
}
