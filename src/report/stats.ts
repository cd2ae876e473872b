/**
 * Path statistics, computed from the run history (`reports/history/runs.jsonl`). Pure: records
 * in, one PathStats per spec#goal out, ranked for the flaky-path report.
 *
 * Which runs count
 * - Every attempt is a run. A goal retried by `--retry` leaves one record per attempt, so its
 *   failed attempts count as the failures they were. An older record (one line per goal, no
 *   `attempt`) that says `retries: k` stands for k failed attempts before it.
 * - Success rates and flips use the runs with a verdict about the path: passed and failed.
 *   A broken run (an infrastructure fault: no display, the app did not start) and a skipped
 *   one say nothing about the path; they are counted in `broken`/`runs` but not in the rates.
 * - A healed run passed, so it counts as a pass in the success rate (and in `heals`); but the
 *   path did not replay as recorded, so for flakiness it is a flake, not a clean pass.
 *
 * Flakiness, over the recent window of n verdict runs, of which a fraction c passed cleanly (not
 * healed), with f flips (adjacent runs with different outcomes: clean pass, healed pass, failure;
 * at most n - 1):
 *
 *     flakiness = 0.5 * (1 - c) + 0.5 * f / (n - 1)      when the path is flaky
 *     flakiness = 0                                       otherwise
 *
 * Both halves lie in [0, 1]: a low clean rate and frequent flipping each add up to 0.5.
 * A path alternating pass/fail scores 0.75; one failure among 19 passes about 0.08; ten
 * failures followed by ten passes (a regression, then the fix) 0.28; a path that always heals 0.5.
 *
 * Only runs of the same path count against each other. A run whose goal had no path (under
 * `--learn off`, or learning failed) says nothing about a path; where the spec's goal or the path
 * file differs from the run before (an edit, a relearn, an accepted proposal), a change of outcome
 * is that change's doing. Both are listed apart, in `changes`, with their reason; the recent window
 * holds only the runs since the last such change. Lines of the history written before retrace
 * recorded what a run ran against cannot tell, and count as before.
 *
 * A path is flaky when its recent runs are not all clean passes and not all failures. A path
 * whose recent runs all fail is `failing`, not flaky: its outcome is predictable and the test
 * report already shows it. It scores 0 and ranks after every flaky path (a flaky path always
 * scores > 0) but before the stable ones, which need no attention.
 */

import type { FailureCategory, Status } from '../domain.ts';
import type { HistoryRecord } from './history.ts';

/** How a path behaves over its recent window. */
export type PathState =
  /** every recent verdict run passed cleanly (not healed) */
  | 'stable'
  /** recent runs both passed and failed, or needed healing */
  | 'flaky'
  /** every recent verdict run failed: broken, not flaky */
  | 'failing'
  /** no passed or failed run yet (only broken or skipped ones) */
  | 'unknown';

export interface LastFailure {
  readonly ts: string;
  readonly status: Extract<Status, 'failed' | 'broken'>;
  readonly reason?: string;
  readonly failedAction?: number;
  readonly category?: FailureCategory;
}

/** A run whose outcome says nothing about the path as it is, and why. */
export interface PathChange {
  readonly ts: string;
  readonly reason: 'spec edited' | 'path changed' | 'no path';
}

export interface PathStats {
  /** `<spec>#<goal>`: the identity of a path. */
  readonly key: string;
  readonly spec: string;
  readonly goal: string;
  /** Every run (attempt) in the history, whatever its status. */
  readonly runs: number;
  readonly passes: number;
  readonly failures: number;
  /** Runs that ended broken (infrastructure faults). */
  readonly broken: number;
  readonly skipped: number;
  /** Passing runs that needed healing. */
  readonly heals: number;
  /** Passing runs that came after failed attempts of the same goal in the same run (`--retry`). */
  readonly retriedPasses: number;
  /** passes / (passes + failures) over all runs; 0 when there is none. */
  readonly successRate: number;
  /** The same over the last `recentWindow` verdict runs. */
  readonly recentSuccessRate: number;
  /** How many verdict runs the recent window holds (≤ recentWindow). */
  readonly recentRuns: number;
  /** Outcome changes (clean pass, healed pass, failure) between consecutive runs of the recent window. */
  readonly flips: number;
  /** Mean and 95th percentile (nearest rank) of the duration of non-skipped runs. */
  readonly meanMs: number;
  readonly p95Ms: number;
  /** Failed or broken runs per failing action index. */
  readonly failureHistogram: Readonly<Record<number, number>>;
  /** The action index that failed most often (the lowest index on a tie). */
  readonly worstAction?: number;
  readonly lastFailure?: LastFailure;
  /** ISO time of the latest run. */
  readonly lastRun: string;
  readonly state: PathState;
  /** 0..1, see the formula at the top of this file. */
  readonly flakiness: number;
  /** Runs left out of the flakiness, with their reason (oldest first). */
  readonly changes: readonly PathChange[];
}

export interface PathStatsOptions {
  /** How many of the latest verdict runs make the "recent" window. @default 20 */
  readonly recentWindow?: number;
}

export const DEFAULT_RECENT_WINDOW = 20;

export const pathKey = (spec: string, goal: string): string => `${spec}#${goal}`;

/** What one run says about the path. Broken and skipped runs say nothing (undefined). */
type Outcome = 'pass' | 'heal' | 'fail';

const isHealed = (r: HistoryRecord): boolean => r.healed || r.mode === 'healed';

function outcomeOf(r: HistoryRecord): Outcome | undefined {
  if (r.status === 'failed') return 'fail';
  if (r.status !== 'passed') return undefined;
  return isHealed(r) ? 'heal' : 'pass';
}

/** The attempts a record stands for, as outcomes; see "Which runs count" at the top of this file. */
function attemptsOf(r: HistoryRecord): (Outcome | undefined)[] {
  const own = outcomeOf(r);
  if (r.attempt !== undefined || r.retries <= 0 || own === undefined) return [own];
  return [...Array.from({ length: r.retries }, (): Outcome => 'fail'), own];
}

/** Nearest-rank percentile of a sorted list; 0 for an empty one. */
function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1] ?? 0;
}

const round = (value: number, digits = 4): number => Number(value.toFixed(digits));

function stateOf(recent: readonly Outcome[]): PathState {
  if (recent.length === 0) return 'unknown';
  if (recent.every((o) => o === 'pass')) return 'stable';
  if (recent.every((o) => o === 'fail')) return 'failing';
  return 'flaky';
}

/** The most frequent failing action, its counts, and the last failure, from the records themselves. */
function failuresOf(runs: readonly HistoryRecord[]): Pick<PathStats, 'failureHistogram' | 'worstAction' | 'lastFailure'> {
  const histogram: Record<number, number> = {};
  let lastFailure: LastFailure | undefined;
  for (const r of runs) {
    if (r.status !== 'failed' && r.status !== 'broken') continue;
    if (r.failedAction !== undefined) histogram[r.failedAction] = (histogram[r.failedAction] ?? 0) + 1;
    lastFailure = {
      ts: r.ts,
      status: r.status,
      ...(r.reason !== undefined && { reason: r.reason }),
      ...(r.failedAction !== undefined && { failedAction: r.failedAction }),
      ...(r.category !== undefined && { category: r.category }),
    };
  }
  let worstAction: number | undefined;
  for (const [index, count] of Object.entries(histogram)) {
    if (worstAction === undefined || count > (histogram[worstAction] ?? 0)) worstAction = Number(index);
  }
  return {
    failureHistogram: histogram,
    ...(worstAction !== undefined && { worstAction }),
    ...(lastFailure !== undefined && { lastFailure }),
  };
}

/**
 * The runs that had a path, the runs since the last change of spec or path among them, and the
 * runs left out, with their reason; see "Only runs of the same path" at the top of this file.
 */
function sameBasis(runs: readonly HistoryRecord[]): { withPath: HistoryRecord[]; current: HistoryRecord[]; changes: PathChange[] } {
  const withPath: HistoryRecord[] = [];
  const changes: PathChange[] = [];
  let since = 0;
  for (const r of runs) {
    if (r.pathHash === null) {
      changes.push({ ts: r.ts, reason: 'no path' });
      continue;
    }
    const before = withPath[withPath.length - 1];
    const reason =
      before?.specHash === undefined || r.specHash === undefined
        ? undefined
        : before.specHash !== r.specHash
          ? 'spec edited'
          : before.pathHash !== r.pathHash
            ? 'path changed'
            : undefined;
    if (reason) {
      changes.push({ ts: r.ts, reason });
      since = withPath.length;
    }
    withPath.push(r);
  }
  return { withPath, current: withPath.slice(since), changes };
}

/** Statistics for one path; `runs` must be in time order. */
function statsOf(spec: string, goal: string, all: readonly HistoryRecord[], window: number): PathStats {
  const { withPath: runs, current, changes } = sameBasis(all);
  const attempts = runs.flatMap(attemptsOf);
  const verdictRuns = attempts.filter((o): o is Outcome => o !== undefined);
  const recent = current
    .flatMap(attemptsOf)
    .filter((o): o is Outcome => o !== undefined)
    .slice(-window);
  const count = (list: readonly Outcome[], ...outcomes: Outcome[]): number => list.filter((o) => outcomes.includes(o)).length;
  const passes = count(verdictRuns, 'pass', 'heal');
  let flips = 0;
  for (let i = 1; i < recent.length; i++) {
    if (recent[i] !== recent[i - 1]) flips++;
  }
  const state = stateOf(recent);
  const cleanRate = recent.length === 0 ? 0 : count(recent, 'pass') / recent.length;
  const flakiness = state === 'flaky' ? 0.5 * (1 - cleanRate) + 0.5 * (recent.length > 1 ? flips / (recent.length - 1) : 0) : 0;
  const durations = runs
    .filter((r) => r.status !== 'skipped')
    .map((r) => r.durationMs)
    .sort((a, b) => a - b);

  return {
    key: pathKey(spec, goal),
    spec,
    goal,
    runs: attempts.length + changes.filter((c) => c.reason === 'no path').length,
    passes,
    failures: verdictRuns.length - passes,
    broken: all.filter((r) => r.status === 'broken').length,
    skipped: all.filter((r) => r.status === 'skipped').length,
    heals: count(verdictRuns, 'heal'),
    retriedPasses: runs.filter((r) => r.status === 'passed' && r.retries > 0).length,
    successRate: verdictRuns.length === 0 ? 0 : round(passes / verdictRuns.length),
    recentSuccessRate: recent.length === 0 ? 0 : round(count(recent, 'pass', 'heal') / recent.length),
    recentRuns: recent.length,
    flips,
    meanMs: durations.length === 0 ? 0 : Math.round(durations.reduce((a, b) => a + b, 0) / durations.length),
    p95Ms: percentile(durations, 0.95),
    ...failuresOf(all),
    lastRun: all[all.length - 1]?.ts ?? '',
    state,
    flakiness: round(flakiness),
    changes,
  };
}

/**
 * One PathStats per spec#goal, ranked: flakiness (highest first), then failing before stable
 * before unknown, then recent success rate (lowest first), then key. Records may come in any order
 * (merged shards interleave); they are put in time order first.
 */
export function computePathStats(records: readonly HistoryRecord[], options: PathStatsOptions = {}): PathStats[] {
  const window = Math.max(1, Math.floor(options.recentWindow ?? DEFAULT_RECENT_WINDOW));
  const byKey = new Map<string, HistoryRecord[]>();
  // A stable sort by time keeps file order for equal timestamps.
  const ordered = records
    .map((record, index) => ({ record, index, time: Date.parse(record.ts) }))
    .sort((a, b) => a.time - b.time || a.index - b.index)
    .map(({ record }) => record);
  for (const record of ordered) {
    const key = pathKey(record.spec, record.goal);
    const list = byKey.get(key);
    if (list) list.push(record);
    else byKey.set(key, [record]);
  }
  const stats = [...byKey.values()].map((runs) => {
    const first = runs[0] as HistoryRecord;
    return statsOf(first.spec, first.goal, runs, window);
  });
  return stats.sort(
    (a, b) =>
      b.flakiness - a.flakiness ||
      STATE_RANK[a.state] - STATE_RANK[b.state] ||
      a.recentSuccessRate - b.recentSuccessRate ||
      a.key.localeCompare(b.key),
  );
}

/** After the flaky paths (flakiness > 0): failing ones, then stable, then those with no verdict yet. */
const STATE_RANK: Readonly<Record<PathState, number>> = { flaky: 0, failing: 1, stable: 2, unknown: 3 };

const percent = (x: number): string => `${Math.round(x * 100)}%`;

/**
 * The success rate with the runs it is a rate of: passed and failed runs. Broken and skipped
 * runs say nothing about the path, so they are counted beside the rate, never under it.
 */
export function rateText(r: {
  passes: number;
  failures: number;
  broken: number;
  runs: number;
  successRate?: number;
  recentSuccessRate?: number;
  flips: number;
}): string {
  const verdicts = r.passes + r.failures;
  if (verdicts === 0) return `no verdict yet (${r.runs} run${r.runs === 1 ? '' : 's'}, ${r.broken} broken)`;
  const other = r.runs - verdicts;
  const aside = other === 0 ? '' : `; ${r.broken} broken${other > r.broken ? `, ${other - r.broken} skipped` : ''}`;
  return `${percent(r.successRate ?? 0)} (${r.passes} of ${verdicts} passed${aside}; recent ${percent(r.recentSuccessRate ?? 0)}, ${r.flips} flips)`;
}
