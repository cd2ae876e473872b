/**
 * Scaling past one desktop: shards (through `retrace run` and through plain `npx vitest` with the
 * plugin) run every goal exactly once; `retrace merge` adds their statistics up exactly; and
 * `retrace report` builds the Allure HTML and the flaky-path report from the merged history.
 */
import { describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, Project, REPO } from '../support/project.ts';
import type { Summary } from '../../src/report/summary.ts';
import { calculatorSpec, notesSpec } from '../support/specs.ts';

const CALC_SPEC = calculatorSpec();
const NOTES_SPEC = notesSpec('shard me');

const goalsOf = (project: Project, reports: string): string[] =>
  (JSON.parse(project.read(`${reports}/summary.json`)) as Summary).goals.map((g) => `${g.spec}#${g.goal}:${g.status}`);

function vitest(project: Project, shard: string): Promise<number | null> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, FIXTURES, CI: 'true' };
    delete env.DISPLAY;
    const child = spawn(
      process.execPath,
      [
        join(REPO, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--config',
        join(REPO, 'vitest.specs.config.ts'),
        '--root',
        project.root,
        `--shard=${shard}`,
      ],
      { cwd: project.root, env, stdio: 'ignore' },
    );
    child.on('close', resolve);
  });
}

describe('shards, merge and report', () => {
  const project = new Project().write('specs/calc.yaml', CALC_SPEC).write('specs/notes.yaml', NOTES_SPEC);

  test('retrace run --shard 1/2 and 2/2 run every goal once; merge adds them up; report builds', { timeout: 240_000 }, async () => {
    const one = await project.cli(['run', '--shard', '1/2', '--reports', 'reports-1', '--junit', 'junit-1.xml']);
    const two = await project.cli(['run', '--shard', '2/2', '--reports', 'reports-2']);
    expect(one.code, one.stderr).toBe(0);
    expect(two.code, two.stderr).toBe(0);
    const all = [...goalsOf(project, 'reports-1'), ...goalsOf(project, 'reports-2')].sort();
    expect(all).toEqual(['specs/calc.yaml#add:passed', 'specs/notes.yaml#save:passed']);
    expect(project.read('junit-1.xml')).toMatch(/<testsuites[^>]*tests="1"/);

    const merged = await project.cli(['merge', 'reports-1', 'reports-2']);
    expect(merged.code, merged.stderr).toBe(0);
    const summary = project.summary();
    expect(summary.totals).toMatchObject({ passed: 2, failed: 0, broken: 0 });
    const history = project.read('reports/history/runs.jsonl').trim().split('\n');
    expect(history).toHaveLength(2);

    const paths = await project.cli(['paths', '--json']);
    const rows = JSON.parse(paths.stdout) as { path: string; runs: number; successRate: number }[];
    expect(rows.map((r) => [r.path, r.runs, r.successRate])).toEqual([
      ['specs/calc.yaml#add', 1, 1],
      ['specs/notes.yaml#save', 1, 1],
    ]);

    const report = await project.cli(['report']);
    expect(report.code, report.stderr).toBe(0);
    expect(existsSync(join(project.root, 'reports/allure-report/index.html'))).toBe(true);
    expect(readFileSync(join(project.root, 'reports/flaky-paths.md'), 'utf8')).toContain('specs/calc.yaml');
  });

  test('npx vitest --shard=1/2 and --shard=2/2 through the plugin run every goal exactly once', { timeout: 240_000 }, async () => {
    const seen: string[] = [];
    for (const shard of ['1/2', '2/2']) {
      expect(await vitest(project, shard)).toBe(0);
      seen.push(...goalsOf(project, 'reports'));
    }
    expect(seen.sort()).toEqual(['specs/calc.yaml#add:passed', 'specs/notes.yaml#save:passed']);
  });
});
