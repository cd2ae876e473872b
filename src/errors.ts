/**
 * Typed errors. Three families, one per exit code of the CLI contract:
 * - InvalidInputError (exit 2): a spec, config, path file or flag is wrong; nothing was written.
 * - GoalFailure (exit 1): the product did not do what the goal expects (test failed).
 * - InfrastructureError (exit 3): the test could not run (test broken).
 * Known errors print their message without a stack.
 */
import type { FailureCategory } from './domain.ts';

export abstract class RetraceError extends Error {
  abstract readonly code: string;
  abstract readonly exitCode: 1 | 2 | 3;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Where in a file an input error sits; line and column are 1-based. */
export interface SourceLocation {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
}

export const formatLocation = (loc: SourceLocation): string =>
  loc.line === undefined
    ? loc.file
    : `${loc.file}:${loc.line}${loc.column === undefined ? '' : `:${loc.column}`}`;

export class InvalidInputError extends RetraceError {
  readonly code = 'INVALID_INPUT';
  readonly exitCode = 2;
  constructor(
    readonly location: SourceLocation | undefined,
    readonly detail: string,
  ) {
    super(location ? `${formatLocation(location)}: ${detail}` : detail);
  }
}

/** Several invalid inputs found in one pass, reported together. */
export class InvalidInputErrors extends RetraceError {
  readonly code = 'INVALID_INPUT';
  readonly exitCode = 2;
  constructor(readonly errors: readonly InvalidInputError[]) {
    super(errors.map((e) => e.message).join('\n'));
  }
}

export class GoalFailure extends RetraceError {
  readonly code = 'GOAL_FAILED';
  readonly exitCode = 1;
  constructor(
    readonly category: Exclude<FailureCategory, 'infrastructure'>,
    message: string,
    readonly details: { readonly failedAction?: number } = {},
  ) {
    super(message);
  }
}

export type InfrastructureCode =
  | 'NO_DISPLAY'
  | 'DISPLAY_DIED'
  | 'APP_START'
  | 'APP_EXITED'
  | 'WINDOW_TIMEOUT'
  | 'OCR_DATA'
  | 'MODEL'
  | 'MISSING_TOOL'
  | 'GOAL_TIMEOUT'
  | 'IO';

export class InfrastructureError extends RetraceError {
  readonly exitCode = 3;
  constructor(
    readonly code: InfrastructureCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const isRetraceError = (e: unknown): e is RetraceError => e instanceof RetraceError;
