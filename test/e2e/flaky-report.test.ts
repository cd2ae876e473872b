/**
 * Flaky paths, found from the history: a goal is replayed against the flaky calculator with
 * several seeds (each seed fails or passes deterministically), next to a stable goal. The
 * flaky-path report ranks the flaky path first, with the success rate actually observed.
 */
import { describe, expect, test } from 'vitest';
import { createRequire } from 'node:module';
import { FIXTURES, Project } from '../support/project.ts';
import type { PathStats } from '../../src/paths/stats.ts';
import { calculatorSpec, notesSpec } from '../support/specs.ts';

const CALC_SPEC = calculatorSpec({ variant: true });
const NOTES_SPEC = notesSpec('steady');

const { flakyFails } = createRequire(import.meta.url)(`${FIXTURES}/common.js`) as { flakyFails: (rate: number, seed: number) => boolean };

const SEEDS = [0, 1, 2, 3, 4, 5];

describe('the flaky-path report', () => {
  test('ranks the flaky path first, with its observed success rate', { timeout: 300_000 }, async () => {
    const project = new Project().write('specs/calc.yaml', CALC_SPEC).write('specs/notes.yaml', NOTES_SPEC);
    const learned = await project.cli(['run'], { VARIANT: '' });
    expect(learned.code, learned.stderr).toBe(0);

    let passes = 0;
    for (const seed of SEEDS) {
      const result = await project.cli(['run', '--learn', 'off'], { VARIANT: `flaky=0.5&seed=${seed}` });
      const add = project.summary().goals.find((g) => g.goal === 'add');
      expect(add?.status, `seed ${seed}: ${add?.message}`).toBe(flakyFails(0.5, seed) ? 'failed' : 'passed');
      expect(result.code, result.stdout + result.stderr).toBe(flakyFails(0.5, seed) ? 1 : 0);
      if (add?.status === 'passed') passes += 1;
    }
    expect(passes).toBeGreaterThan(0);
    expect(passes).toBeLessThan(SEEDS.length);

    const report = await project.cli(['report']);
    expect(report.code, report.stderr).toBe(0);
    const paths = (JSON.parse(project.read('reports/flaky-paths.json')) as { paths: PathStats[] }).paths;
    expect(paths[0]?.key).toBe('specs/calc.yaml#add');
    expect(paths[0]?.state).toBe('flaky');
    // Seven runs of add: the learning run passed, then one per seed.
    expect(paths[0]?.runs).toBe(SEEDS.length + 1);
    expect(paths[0]?.successRate).toBeCloseTo((passes + 1) / (SEEDS.length + 1), 3);
    expect(paths[0]?.lastFailure?.failedAction).toBe(3);
    expect(paths.find((p) => p.key === 'specs/notes.yaml#save')?.state).toBe('stable');
    expect(project.read('reports/flaky-paths.md')).toContain('specs/calc.yaml#add');
  });
});
