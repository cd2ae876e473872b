/**
 * Specs as a vitest user runs them: `npx vitest` with `plugins: [retrace()]` in their own config,
 * ordinary unit tests beside the specs, their own `--reporter` on the command line, watch mode.
 *
 * - Only YAML goals land in summary.json, runs.jsonl and Allure; the unit tests' workers start no
 *   virtual display (18.3, 18.7).
 * - `--reporter=junit` gets the user their JUnit file and keeps retrace's own reporting (18.4).
 * - vitest mode writes Allure results, as docs/reports.md says (18.5).
 * - An invalid spec's code frame points at its YAML line, in watch mode after an edit too (18.7).
 */
import { describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, Project, REPO } from '../support/project.ts';
import type { HistoryRecord } from '../../src/report/history.ts';
import { calculatorSpec } from '../support/specs.ts';

/** A project of the user's: its vitest config takes the plugin, for specs and unit tests alike. */
function userProject(): Project {
  const project = new Project().write(
    'vitest.config.mjs',
    `import { retrace } from ${JSON.stringify(join(REPO, 'src/runner/plugin.ts'))};\n` +
      `export default { plugins: [retrace({ include: ['specs/**/*.yaml', 'specs/**/*.test.ts'] })] };\n`,
  );
  symlinkSync(join(REPO, 'node_modules'), join(project.root, 'node_modules'));
  return project;
}

interface Vitest {
  readonly output: () => string;
  /** Resolves when the output (colours stripped) matches, counting from `from` characters in. */
  readonly seen: (pattern: RegExp, from?: number) => Promise<void>;
  readonly ended: Promise<number | null>;
  readonly kill: () => void;
}

/** `npx vitest <args>` in the project, no `$DISPLAY` (each spec worker starts its own). */
function vitest(project: Project, args: readonly string[]): Vitest {
  const env: NodeJS.ProcessEnv = { ...process.env, FIXTURES, CI: 'true', NO_COLOR: '1' };
  delete env.DISPLAY;
  const child = spawn(process.execPath, [join(REPO, 'node_modules/vitest/vitest.mjs'), ...args], {
    cwd: project.root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const waiting: { pattern: RegExp; from: number; resolve: () => void }[] = [];
  const check = (): void => {
    for (const w of [...waiting]) {
      if (w.pattern.test(text.slice(w.from))) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  const add = (d: Buffer): void => {
    text += d.toString().replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
    check();
  };
  child.stdout.on('data', add);
  child.stderr.on('data', add);
  return {
    output: () => text,
    seen: (pattern, from = 0) =>
      new Promise((resolve) => {
        waiting.push({ pattern, from, resolve });
        check();
      }),
    ended: new Promise((resolve) => child.on('close', resolve)),
    kill: () => child.kill('SIGTERM'),
  };
}

const UNIT_TESTS = `import { expect, test } from 'vitest';
test('adds', () => expect(1 + 1).toBe(2));
test('fails on purpose', () => expect(1 + 1).toBe(3));
// The plugin's worker setup starts a display only for spec files.
test('runs without a virtual display', () => expect(process.env.DISPLAY).toBeUndefined());
`;

describe('npx vitest with the retrace plugin', () => {
  test('unit tests beside specs stay out of retrace reports; --reporter=junit keeps them; Allure results are written', {
    timeout: 240_000,
  }, async () => {
    const project = userProject().write('specs/calc.yaml', calculatorSpec()).write('specs/math.test.ts', UNIT_TESTS);
    const run = vitest(project, ['run', '--reporter=junit', '--outputFile=junit.xml']);
    // The unit test that fails on purpose fails the run.
    expect(await run.ended, run.output()).toBe(1);

    const junit = project.read('junit.xml');
    expect(junit).toContain('name="adds"');
    expect(junit).toContain('name="Calculator &gt; add"');
    expect(junit).toMatch(
      /<testcase[^>]*name="runs without a virtual display"[^>]*>\s*<\/testcase>|<testcase[^>]*name="runs without a virtual display"[^>]*\/>/,
    );

    const summary = project.summary();
    expect(summary.goals.map((g) => `${g.spec}#${g.goal}:${g.status}`)).toEqual(['specs/calc.yaml#add:passed']);
    expect(summary.totals).toMatchObject({ passed: 1, failed: 0, broken: 0 });
    const history = project
      .read('reports/history/runs.jsonl')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as HistoryRecord);
    expect(history.map((r) => `${r.spec}#${r.goal}:${r.status}`)).toEqual(['specs/calc.yaml#add:passed']);

    const resultsDir = join(project.root, 'reports', 'allure-results');
    const results = readdirSync(resultsDir)
      .filter((n) => n.endsWith('-result.json'))
      .map((n) => JSON.parse(readFileSync(join(resultsDir, n), 'utf8')) as { name: string; status: string; steps: unknown[] });
    expect(results.map((r) => [r.name, r.status])).toEqual([['add', 'passed']]);
    expect(results[0]?.steps.length).toBe(5); // four actions and one expectation
    expect(readdirSync(resultsDir)).toEqual(expect.arrayContaining(['categories.json', 'environment.properties']));
  });

  test('an invalid spec shows a code frame of its YAML line, and in watch mode again after an edit', { timeout: 120_000 }, async () => {
    const spec = (expectation: string): string =>
      `name: Bad\napp:\n  launch: xcalc\n  window: xcalc\ngoals:\n  - id: add\n    goal: click "7"\n    expect:\n      - ${expectation}\n`;
    const project = userProject().write('specs/bad.yaml', spec('txt: "15"'));
    const watch = vitest(project, ['--watch', 'specs/bad.yaml']);
    try {
      await watch.seen(/Watching for file changes/);
      const first = watch.output();
      expect(first).toMatch(/❯ specs\/bad\.yaml:9:9\n\s+7\| {5}goal: click "7"\n\s+8\| {5}expect:\n\s+9\| {7}- txt: "15"\n\s+\|\s+\^/);
      expect(first).not.toMatch(/src\/spec-file|src\/runner/);

      // The edit moves the mistake to another line; the next run's frame follows it.
      writeFileSync(join(project.root, 'specs/bad.yaml'), spec('text: "15"\n      - absent: 12'));
      await watch.seen(/Watching for file changes/, first.length);
      const second = watch.output().slice(first.length);
      expect(second).toMatch(/❯ specs\/bad\.yaml:10:17\n(.*\n)*\s+10\| {7}- absent: 12\n\s+\|\s+\^/);
      expect(second).not.toMatch(/src\/spec-file|src\/runner/);
    } finally {
      watch.kill();
      await watch.ended;
    }
  });
});
