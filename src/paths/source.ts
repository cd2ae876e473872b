/** The source a path was made from; a path whose source hash differs is stale. */
import { createHash } from 'node:crypto';
import type { PathSource } from '../domain.ts';
import type { GoalSpec } from '../spec-file/types.ts';

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );

export function goalSource(goal: GoalSpec): PathSource {
  const kind = goal.steps ? 'steps' : 'goal';
  const text = goal.steps ? canonical(goal.steps) : (goal.goal ?? '').trim().replace(/\s+/g, ' ');
  return { kind, text, hash: createHash('sha256').update(`${kind}\n${text}`).digest('hex').slice(0, 16) };
}

/**
 * What a run of a goal ran against, as written: its app and the goal with its expectations. Two
 * runs with different hashes are runs of different specs: an outcome that changed between them
 * is the edit's doing, not a flake of the path.
 */
export const specHashOf = (app: unknown, goal: GoalSpec): string =>
  createHash('sha256').update(canonical({ app, goal })).digest('hex').slice(0, 16);

export const isStale = (recorded: PathSource, current: PathSource): boolean => recorded.hash !== current.hash;
