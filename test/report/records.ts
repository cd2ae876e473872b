/** Builders of synthetic history records for the report tests. */
import type { HistoryRecord } from '../../src/report/history.ts';

const BASE = Date.UTC(2026, 0, 1);

/** One record; `i` orders records in time (one minute apart). */
export const rec = (i: number, over: Partial<HistoryRecord> = {}): HistoryRecord => ({
  v: 1,
  runId: `run-${i}`,
  ts: new Date(BASE + i * 60_000).toISOString(),
  spec: 'specs/calc.yaml',
  goal: 'add',
  status: 'passed',
  mode: 'replayed',
  modelCalls: 0,
  durationMs: 100,
  retries: 0,
  healed: false,
  ...over,
});

/** A run of records from a pass/fail pattern such as "PFPF" (P passed, F failed, B broken, S skipped). */
export const fromPattern = (goal: string, pattern: string, over: Partial<HistoryRecord> = {}): HistoryRecord[] =>
  [...pattern].map((c, i) =>
    rec(i, {
      goal,
      status: c === 'P' ? 'passed' : c === 'F' ? 'failed' : c === 'B' ? 'broken' : 'skipped',
      ...(c === 'F' && { failedAction: 2, category: 'target-not-found' as const, reason: `no "7" at run ${i}` }),
      ...over,
    }),
  );
