/**
 * `reports/summary.json`: the verdict of every goal of a run, and totals. A contract of
 * PRODUCT.md (CI scripts read it), so it is validated on the way in and written atomically.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GoalPhases, RunStartup, Status, Verdict } from '../domain.ts';
import { InvalidInputError } from '../errors.ts';
import { writeFileAtomic } from '../paths/atomic.ts';
import {
  ACTION_KINDS,
  CATEGORIES,
  MODES,
  RESOLVED_BY,
  STATUSES,
  STOP_REASONS,
  checkBoolean,
  checkNumber,
  checkOneOf,
  checkString,
  firstProblem,
  isObject,
  shown,
} from './json-check.ts';

export interface SummaryTotals {
  readonly passed: number;
  readonly failed: number;
  readonly broken: number;
  readonly skipped: number;
  readonly modelCalls: number;
  /** Wall clock of the run (summed over shards when merged). */
  readonly durationMs: number;
}

export interface Summary {
  readonly totals: SummaryTotals;
  /** Where the run's time went before its first goal; absent when no goal ran, and in a merged summary. */
  readonly startup?: RunStartup;
  readonly goals: readonly Verdict[];
}

/** The keys of the time splits, in the order they happen (the compiler holds them to the types). */
const PHASE_KEYS = ['startMs', 'launchMs', 'readyMs', 'actionsMs', 'holdMs', 'checkMs', 'reportMs'] as const satisfies readonly (keyof GoalPhases)[];
const STARTUP_KEYS = ['cliMs', 'engineMs', 'displayMs'] as const satisfies readonly (keyof RunStartup)[];

export const SUMMARY_FILE = 'summary.json';

export const summaryFile = (reportsDir: string): string => join(reportsDir, SUMMARY_FILE);

/** Totals of a list of verdicts; `durationMs` is the run's wall clock, which the goals cannot tell. */
export function totalsOf(goals: readonly Verdict[], durationMs: number): SummaryTotals {
  const count = (status: Status): number => goals.filter((g) => g.status === status).length;
  return {
    passed: count('passed'),
    failed: count('failed'),
    broken: count('broken'),
    skipped: count('skipped'),
    modelCalls: goals.reduce((sum, g) => sum + g.modelCalls, 0),
    durationMs,
  };
}

/** Reads and validates `<reportsDir>/summary.json`. A missing or malformed file is invalid input. */
export async function readSummary(reportsDir: string): Promise<Summary> {
  const file = summaryFile(reportsDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new InvalidInputError({ file }, 'no summary.json here: is this a reports directory of a run that ran?');
    }
    throw error;
  }
  return parseSummary(text, file);
}

/** Writes `<reportsDir>/summary.json` atomically (a reader never sees half a file). */
export async function writeSummary(reportsDir: string, summary: Summary): Promise<void> {
  writeFileAtomic(summaryFile(reportsDir), `${JSON.stringify(summary, null, 2)}\n`);
}

const lineOf = (text: string, offset: number): number => text.slice(0, offset).split('\n').length;

export function parseSummary(text: string, file: string): Summary {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    // V8 reports either "line L column C" (newer) or "position P" (older).
    const lineCol = /line (\d+) column/.exec(message);
    const position = /position (\d+)/.exec(message);
    const line = lineCol ? Number(lineCol[1]) : position ? lineOf(text, Number(position[1])) : undefined;
    throw new InvalidInputError({ file, line }, `summary.json is not valid JSON (${message}); was the run interrupted?`);
  }
  const problem = summaryProblem(data);
  if (problem !== undefined) throw new InvalidInputError({ file }, `not a retrace summary: ${problem}`);
  return data as Summary;
}

/** The first reason `data` is not a Summary, as "<json path> must be …", or undefined. */
export function summaryProblem(data: unknown): string | undefined {
  if (!isObject(data)) return `expected a JSON object, got ${shown(data)}`;
  const { totals, goals } = data;
  if (!isObject(totals)) return `totals must be an object, got ${shown(totals)}`;
  const totalsProblem = firstProblem(
    ...(['passed', 'failed', 'broken', 'skipped', 'modelCalls', 'durationMs'] as const).map((key) =>
      checkNumber(totals, key, 'totals.'),
    ),
  );
  if (totalsProblem !== undefined) return totalsProblem;
  const startupProblem = splitProblem(data, 'startup', STARTUP_KEYS, '');
  if (startupProblem !== undefined) return startupProblem;
  if (!Array.isArray(goals)) return `goals must be an array, got ${shown(goals)}`;
  for (const [i, goal] of goals.entries()) {
    const problem = verdictProblem(goal, `goals[${i}].`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function verdictProblem(goal: unknown, at: string): string | undefined {
  if (!isObject(goal)) return `${at.slice(0, -1)} must be an object, got ${shown(goal)}`;
  const problem = firstProblem(
    checkString(goal, 'spec', at),
    checkString(goal, 'goal', at),
    checkOneOf(goal, 'status', STATUSES, at),
    checkOneOf(goal, 'mode', MODES, at),
    checkNumber(goal, 'modelCalls', at),
    checkNumber(goal, 'durationMs', at),
    checkOneOf(goal, 'category', CATEGORIES, at, true),
    checkString(goal, 'message', at, true),
    checkNumber(goal, 'failedAction', at, true),
    checkOneOf(goal, 'stopReason', STOP_REASONS, at, true),
  );
  if (problem !== undefined) return problem;
  const phasesProblem = splitProblem(goal, 'phases', PHASE_KEYS, at);
  if (phasesProblem !== undefined) return phasesProblem;
  if (!Array.isArray(goal.actions)) return `${at}actions must be an array, got ${shown(goal.actions)}`;
  for (const [j, action] of goal.actions.entries()) {
    const aAt = `${at}actions[${j}].`;
    if (!isObject(action)) return `${aAt.slice(0, -1)} must be an object, got ${shown(action)}`;
    const actionProblem = firstProblem(
      checkOneOf(action, 'kind', ACTION_KINDS, aAt),
      checkNumber(action, 'ms', aAt),
      checkNumber(action, 'settleMs', aAt),
      checkNumber(action, 'verifyMs', aAt),
      checkBoolean(action, 'verified', aAt),
      checkOneOf(action, 'resolvedBy', RESOLVED_BY, aAt),
      checkString(action, 'description', aAt, true),
    );
    if (actionProblem !== undefined) return actionProblem;
  }
  return undefined;
}

/** The problem of an optional time split `obj[key]`: an object of the given numbers (ms), or absent. */
function splitProblem(obj: Record<string, unknown>, key: string, keys: readonly string[], at: string): string | undefined {
  const split = obj[key];
  if (split === undefined) return undefined;
  if (!isObject(split)) return `${at}${key} must be an object, got ${shown(split)}`;
  return firstProblem(...keys.map((k) => checkNumber(split, k, `${at}${key}.`)));
}
