import { describe, expect, test } from 'vitest';
import { computePathStats } from '../../src/report/stats.ts';
import { fromPattern, rec } from './records.ts';

describe('computePathStats', () => {
  test('success rates, flips and state of an alternating path', () => {
    const [stats] = computePathStats(fromPattern('alt', 'PFPFPFPFPF'));
    expect(stats).toMatchObject({
      key: 'specs/calc.yaml#alt',
      runs: 10,
      passes: 5,
      failures: 5,
      successRate: 0.5,
      recentSuccessRate: 0.5,
      recentRuns: 10,
      flips: 9,
      state: 'flaky',
      // 0.5 * (1 - 0.5) + 0.5 * 9/9
      flakiness: 0.75,
    });
  });

  test('the recent window only looks at the last N verdict runs', () => {
    // 10 failures long ago, then 20 passes: overall 2/3, recently all green.
    const [stats] = computePathStats(fromPattern('fixed', `${'F'.repeat(10)}${'P'.repeat(20)}`));
    expect(stats?.successRate).toBeCloseTo(20 / 30, 4);
    expect(stats?.recentSuccessRate).toBe(1);
    expect(stats?.flips).toBe(0);
    expect(stats?.state).toBe('stable');
    expect(stats?.flakiness).toBe(0);

    const [small] = computePathStats(fromPattern('fixed', 'PPPPFFPP'), { recentWindow: 4 });
    expect(small).toMatchObject({ recentRuns: 4, recentSuccessRate: 0.5, flips: 1 });
    // 0.5 * 0.5 + 0.5 * 1/3
    expect(small?.flakiness).toBeCloseTo(0.25 + 1 / 6, 4);
  });

  test('a change of outcome after a spec edit, a new path or with no path is no flake, and is listed apart', () => {
    const on = (spec: string, path: string | null) => ({ specHash: spec, pathHash: path });
    // Fails with no path (--learn off), then learned and passing; fails after an edit of the spec,
    // passes after the path was learned again: not one flake among them.
    const runs = [
      ...fromPattern('edited', 'FF', on('s1', null)),
      ...fromPattern('edited', 'PP', on('s1', 'p1')),
      ...fromPattern('edited', 'FF', on('s2', 'p1')),
      ...fromPattern('edited', 'PPP', on('s2', 'p2')),
    ].map((r, i) => ({ ...r, ts: rec(i).ts }));
    const [stats] = computePathStats(runs);
    expect(stats).toMatchObject({ state: 'stable', flakiness: 0, flips: 0, recentRuns: 3, recentSuccessRate: 1, runs: 9, failures: 2 });
    expect(stats?.changes.map((c) => c.reason)).toEqual(['no path', 'no path', 'spec edited', 'path changed']);
    // The same outcomes on one spec and one path are the flakes they look like.
    const [same] = computePathStats(fromPattern('same', 'FFPPFFPPP', on('s1', 'p1')));
    expect(same).toMatchObject({ state: 'flaky', flips: 3, changes: [] });
  });

  test('broken and skipped runs count as runs but not in rates or flips', () => {
    const [stats] = computePathStats(fromPattern('infra', 'PBPSPBP'));
    expect(stats).toMatchObject({ runs: 7, passes: 4, failures: 0, broken: 2, skipped: 1, successRate: 1, flips: 0, state: 'stable' });
  });

  test('mean, p95 (nearest rank) and the failure histogram', () => {
    const records = Array.from({ length: 20 }, (_, i) =>
      rec(i, {
        durationMs: (i + 1) * 10,
        ...(i % 5 === 0 && { status: 'failed' as const, failedAction: i === 0 ? 1 : 3, reason: `r${i}` }),
      }),
    );
    const [stats] = computePathStats(records);
    expect(stats?.meanMs).toBe(105);
    expect(stats?.p95Ms).toBe(190); // ceil(0.95 * 20) = 19th of 10..200
    expect(stats?.failureHistogram).toEqual({ 1: 1, 3: 3 });
    expect(stats?.worstAction).toBe(3);
    expect(stats?.lastFailure).toEqual({ ts: records[15]?.ts, status: 'failed', reason: 'r15', failedAction: 3 });
    expect(stats?.lastRun).toBe(records[19]?.ts);
  });

  test('heals are passes that needed healing, and flakes: the path did not replay as recorded', () => {
    const [stats] = computePathStats([rec(0), rec(1, { mode: 'healed', healed: true }), rec(2, { healed: true })]);
    // pass, heal, heal: 1 clean of 3, one outcome change.
    expect(stats).toMatchObject({ passes: 3, heals: 2, successRate: 1, flips: 1, state: 'flaky' });
    expect(stats?.flakiness).toBeCloseTo(0.5 * (2 / 3) + 0.5 * (1 / 2), 4);
    const [always] = computePathStats([rec(0, { healed: true }), rec(1, { healed: true })]);
    expect(always).toMatchObject({ state: 'flaky', flakiness: 0.5 });
  });

  test('a goal retried by --retry: every failed attempt counts (one line per attempt)', () => {
    // Three runs with --retry 3: F F F P, then P, then F P.
    const attempts = [
      ...['failed', 'failed', 'failed', 'passed'].map((status, i) =>
        rec(i, { runId: 'a', status: status as 'failed' | 'passed', retries: i, attempt: i + 1 }),
      ),
      rec(4, { runId: 'b', attempt: 1 }),
      rec(5, { runId: 'c', status: 'failed', attempt: 1 }),
      rec(6, { runId: 'c', retries: 1, attempt: 2 }),
    ];
    const [stats] = computePathStats(attempts);
    expect(stats).toMatchObject({ runs: 7, passes: 3, failures: 4, retriedPasses: 2, successRate: 0.4286, state: 'flaky', flips: 3 });
    expect(stats?.flakiness).toBeGreaterThan(0);
  });

  test('an older one-line-per-goal record with retries: k stands for k failed attempts before it', () => {
    // What the issue saw: 9 runs, each passed after retries, 7 failed attempts in all.
    const retries = [3, 0, 1, 0, 2, 0, 1, 0, 0];
    const [stats] = computePathStats(retries.map((r, i) => rec(i, { retries: r })));
    expect(stats).toMatchObject({ runs: 16, passes: 9, failures: 7, retriedPasses: 4, successRate: 0.5625, state: 'flaky' });
    expect(stats?.flakiness).toBeGreaterThan(0.4);
    // Failed on every attempt: all of them are failures.
    expect(computePathStats([rec(0, { status: 'failed', retries: 2 })])[0]).toMatchObject({ runs: 3, failures: 3, state: 'failing' });
  });

  test('records out of order (merged shards) are put in time order', () => {
    const records = fromPattern('x', 'PPPF');
    const [stats] = computePathStats([...records].reverse());
    expect(stats?.lastFailure?.ts).toBe(records[3]?.ts);
    expect(stats?.flips).toBe(1);
    expect(stats?.lastRun).toBe(records[3]?.ts);
  });

  test('one entry per spec#goal, ranked: flaky by flakiness, then failing, then stable', () => {
    const stats = computePathStats([
      ...fromPattern('green', 'PPPPPPPPPP'),
      ...fromPattern('red', 'FFFFFFFFFF'),
      ...fromPattern('alternating', 'PFPFPFPFPF'),
      ...fromPattern('one-blip', 'PPPPFPPPPP'),
      ...fromPattern('green', 'PP', { spec: 'specs/other.yaml' }),
    ]);
    expect(stats.map((s) => s.key)).toEqual([
      'specs/calc.yaml#alternating',
      'specs/calc.yaml#one-blip',
      'specs/calc.yaml#red',
      'specs/calc.yaml#green',
      'specs/other.yaml#green',
    ]);
    expect(stats.find((s) => s.goal === 'red')).toMatchObject({ state: 'failing', flakiness: 0, recentSuccessRate: 0 });
  });
});
