/**
 * The allowed values of the domain unions, for the shapes (spec-file/shape.ts) that check JSON
 * read back from `reports/` (history lines, summaries) with spec-file/check-value.ts.
 */
import type { ActionKind, FailureCategory, Mode, ResolvedBy, Status, StopReason } from '../domain.ts';

/** `AllOf` makes the compiler reject a list that misses a member when domain.ts grows one. */
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
export const STOP_REASONS = allOf<StopReason>()(['goal_achieved', 'max_steps', 'budget', 'no_progress', 'error'] as const);
export const ACTION_KINDS = allOf<ActionKind>()([
  'click',
  'double-click',
  'right-click',
  'type',
  'key',
  'scroll',
  'drag',
  'wait',
  'wait-for',
  'check',
  'select',
] as const);
