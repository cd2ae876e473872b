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
  loc.line === undefined ? loc.file : `${loc.file}:${loc.line}${loc.column === undefined ? '' : `:${loc.column}`}`;

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
  /** The X server refused one request (an X error); the display itself answers. */
  | 'X_ERROR'
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

/** What an errno code means for a file that could not be written, in words a user acts on. */
const IO_CAUSES: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exhausted',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder',
  ENOENT: 'no such file or folder',
  EIO: 'an I/O error of the device',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
  EFBIG: 'the file is too large for the file system',
};

/** "no space left on the device (ENOSPC)" for an errno-style error of node:fs that is a write fault. */
export function ioCause(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && code in IO_CAUSES ? `${IO_CAUSES[code]} (${code})` : undefined;
}

/**
 * A file-system fault while writing `path` as an infrastructure error (exit 3) with a one-line
 * cause that names the path; any other error is returned as it is.
 */
export function ioFault(error: unknown, path: string, verb = 'write'): unknown {
  if (error instanceof RetraceError) return error;
  const cause = ioCause(error);
  if (!cause) return error;
  return new InfrastructureError('IO', `cannot ${verb} ${path}: ${cause}`, { cause: error });
}

/** Faults of the environment, not of retrace, when node:fs reports them at any write. */
const ENVIRONMENT_FAULTS = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO', 'EFBIG', 'EMFILE', 'ENFILE']);

/**
 * The error, or the first of its causes, as a RetraceError: itself when it is one, and a
 * file-system fault of the environment (full disk, permissions) as InfrastructureError('IO')
 * naming its path (or `where`, when node gives no path: a write to an open file). Undefined for
 * anything else, which is a bug.
 */
export function knownFault(error: unknown, where: string): RetraceError | undefined {
  let current = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof RetraceError) return current;
    const errno = current as NodeJS.ErrnoException;
    if (typeof errno.code === 'string' && ENVIRONMENT_FAULTS.has(errno.code)) {
      const verb = errno.syscall === 'read' || errno.syscall === 'scandir' || errno.syscall === 'stat' ? 'read' : 'write';
      return ioFault(current, errno.path ?? where, verb) as RetraceError;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
