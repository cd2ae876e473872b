/**
 * Flaky paths, found from the history, with `--retry 3` as a CI job would run it: the flaky
 * calculator fails or passes deterministically by its seed, and each launch takes the next seed
 * from a counter file, so every attempt of a retried goal sees a new page load. From seed 7 the
 * attempts go F F F P | P | F P (fixtures/apps/README.md lists the failing seeds).
 *
 * Every failed attempt counts in the path statistics (flaky-paths.json, `retrace paths`, the
 * Allure "path success rate"), and each attempt is an Allure result with its real duration.
 */
import { describe, expect, test } from 'vitest';
import { createRequire } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestResult } from 'allure-js-commons';
import { FIXTURES, Project } from '../support/project.ts';
import type { PathStats } from '../../src/report/stats.ts';
import type { HistoryRecord } from '../../src/report/history.ts';
import { calculatorSpec, notesSpec } from '../support/specs.ts';

const { flakyFails } = createRequire(import.meta.url)(`${FIXTURES}/common.js`) as { flakyFails: (rate: number, seed: number) => boolean };

/** The calculator on the next seed of `seed` (a counter file in the project). */
const CALC_SPEC = calculatorSpec({
  launch: 'n=$(cat seed); echo $((n+1)) > seed; exec ${env.FIXTURES}/open calculator "flaky=0.5&seed=$n"',
});

type Result = TestResult & { statusDetails: { flaky?: boolean } };

const allureResults = (project: Project): Result[] => {
  const dir = join(project.root, 'reports', 'allure-results');
  return readdirSync(dir)
    .filter((name) => name.endsWith('-result.json'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Result)
    .sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
};

const history = (project: Project): HistoryRecord[] =>
  project
    .read('reports/history/runs.jsonl')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as HistoryRecord);

describe('the flaky-path report under --retry', () => {
  test('counts every failed attempt of a retried goal, and Allure shows each attempt with its real duration', {
    timeout: 400_000,
  }, async () => {
    // The counter starts where the tests below expect it; the seeds' outcomes come from the fixture itself.
    expect([7, 8, 9, 10, 11, 12, 13].map((seed) => flakyFails(0.5, seed))).toEqual([true, true, true, false, false, true, false]);
    const project = new Project().write('specs/calc.yaml', CALC_SPEC).write('specs/notes.yaml', notesSpec('steady')).write('seed', '1\n');
    const learned = await project.cli(['run']);
    expect(learned.code, learned.stderr).toBe(0);

    project.write('seed', '7\n');
    const retried = await project.cli(['run', '--retry', '3', '--learn', 'off', 'specs/calc.yaml']);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stderr).toMatch(/✗ specs\/calc\.yaml › add failed \(replayed.*— retrying/);
    expect(retried.stderr).toMatch(/✗ specs\/calc\.yaml › add failed, retry 2\/3 /);
    expect(retried.stderr).toMatch(/✓ specs\/calc\.yaml › add passed, retry 3\/3 /);

    // One history line per attempt, as it happened.
    const attempts = history(project).filter((r) => r.goal === 'add' && r.runId !== history(project)[0]?.runId);
    expect(attempts.map((r) => [r.attempt, r.status])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'failed'],
      [4, 'passed'],
    ]);

    // Allure: four results of one goal, in time order, none overlapping, each as long as the attempt was.
    const results = allureResults(project).filter((r) => r.name === 'add');
    expect(results.map((r) => [r.status, r.statusDetails.flaky ?? false])).toEqual([
      ['failed', false],
      ['failed', false],
      ['failed', false],
      ['passed', true],
    ]);
    for (const [i, r] of results.entries()) {
      expect((r.stop ?? 0) - (r.start ?? 0), `attempt ${i + 1}`).toBe(attempts[i]?.durationMs);
      expect(attempts[i]?.durationMs).toBeGreaterThan(1000);
      if (i > 0) expect(r.start ?? 0).toBeGreaterThanOrEqual(results[i - 1]?.stop ?? 0);
      // Each action's step lasts at least as long as the action took (its `ms`, measured inside
      // the step), and the steps follow one another without overlapping.
      const steps = r.steps.filter((s) => s.parameters.some((p) => p.name === 'ms'));
      expect(steps.length, `attempt ${i + 1}`).toBe(4);
      for (const [j, step] of steps.entries()) {
        const ms = Number(step.parameters.find((p) => p.name === 'ms')?.value);
        // `ms` is rounded from a finer clock than the step's whole milliseconds: 1 ms apart at most.
        expect((step.stop ?? 0) - (step.start ?? 0), `${step.name} of attempt ${i + 1}`).toBeGreaterThanOrEqual(ms - 1);
        if (j > 0) expect(step.start ?? 0).toBeGreaterThanOrEqual(steps[j - 1]?.stop ?? 0);
      }
    }
    const wall = (results[3]?.stop ?? 0) - (results[0]?.start ?? 0);
    expect(wall).toBeGreaterThanOrEqual(attempts.reduce((sum, r) => sum + r.durationMs, 0));

    for (const args of [
      ['run', '--retry', '3', '--learn', 'off'],
      ['run', '--retry', '3', '--learn', 'off', 'specs/calc.yaml'],
    ]) {
      const run = await project.cli(args);
      expect(run.code, run.stderr).toBe(0);
    }
    // The last run's Allure result shows the path's rate with the failed attempts in it:
    // before its attempts, 3 failed of 6 (the learning run, F F F P, P).
    const last = allureResults(project).filter((r) => r.name === 'add');
    expect(last[0]?.parameters).toContainEqual({ name: 'path success rate', value: '50% of last 6 (50% of 6 overall)', excluded: true });

    const report = await project.cli(['report']);
    expect(report.code, report.stderr).toBe(0);
    const paths = (JSON.parse(project.read('reports/flaky-paths.json')) as { paths: PathStats[] }).paths;
    // learn P | F F F P | P | F P: 8 attempts, 4 failed.
    expect(paths[0]).toMatchObject({
      key: 'specs/calc.yaml#add',
      state: 'flaky',
      runs: 8,
      passes: 4,
      failures: 4,
      retriedPasses: 2,
      successRate: 0.5,
    });
    expect(paths[0]?.flakiness).toBeGreaterThan(0.3);
    expect(paths[0]?.lastFailure?.failedAction).toBe(3);
    expect(paths.find((p) => p.key === 'specs/notes.yaml#save')?.state).toBe('stable');
    expect(project.read('reports/flaky-paths.md')).toMatch(/\| 1 \| specs\/calc\.yaml#add \| flaky \| .* \| 50% of 8 \| 50% \|/);

    const listed = await project.cli(['paths', '--json']);
    const rows = JSON.parse(listed.stdout) as { path: string; successRate: number; state: string }[];
    expect(rows.find((r) => r.path === 'specs/calc.yaml#add')).toMatchObject({ successRate: 0.5, state: 'flaky' });
  });
});
