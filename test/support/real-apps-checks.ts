/**
 * What the e2e tests of the real-app corpus require of its runs (test/support/real-apps.ts):
 * every goal learned offline, and every replay green, with no model call.
 */
import { expect } from 'vitest';
import { type CorpusRun, type CorpusRuns, REAL_SPEC_FILES } from './real-apps.ts';

/** Every goal of the corpus learned offline (rules or its steps), no model call. */
export function expectLearned({ result, summary }: CorpusRun, specs: readonly string[] = REAL_SPEC_FILES): void {
  expect(result.code, result.stdout + result.stderr).toBe(0);
  expect([...new Set(summary.goals.map((g) => g.spec))].sort()).toEqual([...specs].sort());
  for (const goal of summary.goals)
    expect(goal, `${goal.spec}#${goal.goal}: ${goal.message}`).toMatchObject({
      status: 'passed',
      mode: expect.stringMatching(/^(learned|scripted)$/),
      modelCalls: 0,
    });
}

/** Every replay passed every goal the learning run learned, from its path, with no model call. */
export function expectReplayed(runs: CorpusRuns, times: number): void {
  expect(runs.replays).toHaveLength(times);
  runs.replays.forEach(({ result, summary, specs }, i) => {
    const label = `replay ${i + 1} of ${times}`;
    const goals = runs.learned.summary.goals
      .filter((g) => specs === undefined || specs.includes(g.spec))
      .map((g) => `${g.spec}#${g.goal}`)
      .sort();
    expect(goals.length, label).toBeGreaterThan(0);
    expect(summary.goals.map((g) => `${g.spec}#${g.goal}`).sort(), label).toEqual(goals);
    for (const goal of summary.goals)
      expect(goal, `${label}, ${goal.spec}#${goal.goal}: ${goal.message}`).toMatchObject({
        status: 'passed',
        mode: expect.stringMatching(/^(replayed|healed)$/),
      });
    expect(summary.totals.modelCalls, label).toBe(0);
    expect(result.code, `${label}\n${result.stdout}${result.stderr}`).toBe(0);
  });
}
