/** Builders of synthetic history records and verdicts for the report tests. */
import type { Verdict } from '../../src/domain.ts';
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

/** A replayed goal of one verified click, as summary.json holds it. */
export const verdictOf = (goal: string, status: Verdict['status'] = 'passed', over: Partial<Verdict> = {}): Verdict => ({
  spec: 'specs/calc.yaml',
  goal,
  status,
  mode: 'replayed',
  modelCalls: 0,
  durationMs: 790,
  actions: [
    {
      kind: 'click',
      ms: 61,
      waitMs: 5,
      resolveMs: 2,
      actMs: 8,
      settleMs: 40,
      verifyMs: 6,
      retries: 0,
      verified: true,
      resolvedBy: 'recorded',
    },
  ],
  ...over,
});
