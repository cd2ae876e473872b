/**
 * Small structural checks for JSON read back from `reports/` (history lines, summaries).
 * Each check returns a problem as "<json path> must be …, got …" or undefined, so the caller
 * can wrap it in an InvalidInputError that names the file and line.
 */
import type { ActionKind, FailureCategory, Mode, ResolvedBy, Status, StopReason } from '../domain.ts';

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A short rendering of a bad value for an error message (never the whole blob). */
export const shown = (value: unknown): string => {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

export const checkString = (obj: JsonObject, key: string, at: string, optional = false): string | undefined => {
  const value = obj[key];
  if (optional && value === undefined) return undefined;
  return typeof value === 'string' ? undefined : `${at}${key} must be a string, got ${shown(value)}`;
};

export const checkNumber = (obj: JsonObject, key: string, at: string, optional = false): string | undefined => {
  const value = obj[key];
  if (optional && value === undefined) return undefined;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? undefined
    : `${at}${key} must be a number >= 0, got ${shown(value)}`;
};

export const checkBoolean = (obj: JsonObject, key: string, at: string, optional = false): string | undefined => {
  const value = obj[key];
  if (optional && value === undefined) return undefined;
  return typeof value === 'boolean' ? undefined : `${at}${key} must be true or false, got ${shown(value)}`;
};

export const checkOneOf = (
  obj: JsonObject,
  key: string,
  allowed: readonly string[],
  at: string,
  optional = false,
): string | undefined => {
  const value = obj[key];
  if (optional && value === undefined) return undefined;
  return typeof value === 'string' && allowed.includes(value)
    ? undefined
    : `${at}${key} must be one of ${allowed.join('|')}, got ${shown(value)}`;
};

/** The first problem of a list of checks, in order. */
export const firstProblem = (...problems: (string | undefined)[]): string | undefined =>
  problems.find((p) => p !== undefined);

/**
 * The allowed values of the domain unions, as lists a reader can check against. `AllOf` makes
 * the compiler reject a list that misses a member when domain.ts grows one.
 */
type AllOf<T extends string, L extends readonly T[]> = Exclude<T, L[number]> extends never ? L : never;
const allOf =
  <T extends string>() =>
  <L extends readonly T[]>(list: AllOf<T, L>): L =>
    list;

export const STATUSES = allOf<Status>()(['passed', 'failed', 'broken', 'skipped'] as const);
export const MODES = allOf<Mode>()(['learned', 'replayed', 'healed', 'relearned', 'scripted'] as const);
export const CATEGORIES = allOf<FailureCategory>()([
  'no-path',
  'target-not-found',
  'effect-not-verified',
  'unexpected-change',
  'expectation-failed',
  'infrastructure',
] as const);
export const RESOLVED_BY = allOf<ResolvedBy>()(['element', 'recorded', 'template', 'ocr', 'model'] as const);
export const STOP_REASONS = allOf<StopReason>()([
  'goal_achieved', 'max_steps', 'budget', 'no_progress', 'error',
] as const);
export const ACTION_KINDS = allOf<ActionKind>()([
  'click', 'double-click', 'right-click', 'type', 'key', 'scroll', 'drag', 'wait', 'wait-for', 'check', 'select',
] as const);
