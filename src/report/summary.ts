/**
 * `reports/summary.json`: the verdict of every goal of a run, and totals. A contract of
 * PRODUCT.md (CI scripts read it), so it is validated on the way in and written atomically.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GoalPhases, RunStartup, Status, Verdict } from '../domain.ts';
import { InvalidInputError } from '../errors.ts';
import { writeFileAtomic } from '../paths/atomic.ts';
import { ACTION_KINDS, CATEGORIES, MODES, RESOLVED_BY, STATUSES, STOP_REASONS } from './json-check.ts';
import { valueProblem } from '../spec-file/check-value.ts';
import { bool, list, num, obj, oneOf, str, type Field } from '../spec-file/shape.ts';

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
export const PHASE_KEYS = [
  'startMs',
  'launchMs',
  'readyMs',
  'actionsMs',
  'holdMs',
  'checkMs',
  'reportMs',
] as const satisfies readonly (keyof GoalPhases)[];
export const STARTUP_KEYS = ['cliMs', 'engineMs', 'displayMs', 'loadMs'] as const satisfies readonly (keyof RunStartup)[];

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

const count = num({ minimum: 0 });
const required = (doc: string, shape: Field['shape']): Field => ({ doc, shape, required: true });
/** Numbers (ms, counts) under the given keys, each required; other keys allowed. */
const numbers = (keys: readonly string[]): Field['shape'] =>
  obj(Object.fromEntries(keys.map((key) => [key, required(key, count)])), { open: true });

/** summary.json in the shape language: what CI scripts may rely on (PRODUCT.md). */
const SUMMARY_SHAPE = obj(
  {
    totals: required(
      'goals by verdict, model requests and time',
      numbers(['passed', 'failed', 'broken', 'skipped', 'modelCalls', 'durationMs']),
    ),
    startup: {
      doc: "the run's start-up split",
      // loadMs came later: a summary written before it is still read.
      shape: obj(
        Object.fromEntries(STARTUP_KEYS.map((key) => [key, key === 'loadMs' ? { doc: key, shape: count } : required(key, count)])),
        {
          open: true,
        },
      ),
    },
    goals: required(
      'the verdict of each goal',
      list(
        obj(
          {
            spec: required('spec path', str()),
            goal: required('goal id', str()),
            status: required('verdict', oneOf(STATUSES)),
            mode: required('how the goal ran', oneOf(MODES)),
            modelCalls: required('model requests', count),
            durationMs: required('time taken', count),
            category: { doc: 'failure category', shape: oneOf(CATEGORIES) },
            message: { doc: 'why it did not pass', shape: str() },
            failedAction: { doc: 'index of the failed action', shape: count },
            stopReason: { doc: 'why learning stopped', shape: oneOf(STOP_REASONS) },
            phases: { doc: "the goal's time split", shape: numbers(PHASE_KEYS) },
            actions: required(
              'what each action did',
              list(
                obj(
                  {
                    kind: required('action kind', oneOf(ACTION_KINDS)),
                    ms: required('time taken', count),
                    settleMs: required('time to settle', count),
                    verifyMs: required('time to verify', count),
                    verified: required('its effects verified', bool()),
                    resolvedBy: required('the rung that found its target', oneOf(RESOLVED_BY)),
                    description: { doc: 'what it was', shape: str() },
                  },
                  { open: true },
                ),
              ),
            ),
          },
          { open: true },
        ),
      ),
    ),
  },
  { open: true },
);

/** The first reason `data` is not a Summary, as "<json path> must be …", or undefined. */
export const summaryProblem = (data: unknown): string | undefined => valueProblem(data, SUMMARY_SHAPE);
