/**
 * Allure end to end: a real vitest child run with the allure-vitest reporter and a test that calls
 * reportGoalToAllure (fixtures/allure-project), then post-processing and the Allure 3 HTML build.
 * Set RETRACE_KEEP_ALLURE=1 to keep the temp dir (its path is printed) and look at the report.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestResult } from 'allure-js-commons';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Verdict } from '../../src/domain.ts';
import { computePathStats } from '../../src/paths/stats.ts';
import { allureIdOf } from '../../src/report/allure-contract.ts';
import { buildAllureReport } from '../../src/report/allure-html.ts';
import { outcomesFromVerdicts, postProcessAllureResults, retraceEnvironment } from '../../src/report/allure-post.ts';
import { writeFlakyReport } from '../../src/report/flaky-report.ts';
import { fromPattern } from './records.ts';

const repo = resolve(import.meta.dirname, '../..');
const project = join(import.meta.dirname, 'fixtures', 'allure-project');

let root: string;
let reportsDir: string;
let resultsDir: string;

type Result = TestResult & { statusDetails: { flaky?: boolean; message?: string } };

function readResults(): Result[] {
  return readdirSync(resultsDir)
    .filter((name) => name.endsWith('-result.json'))
    .map((name) => JSON.parse(readFileSync(join(resultsDir, name), 'utf8')) as Result);
}

const goalOf = (r: TestResult): string | undefined => r.labels.find((l) => l.name === 'story')?.value;
const byGoal = (results: Result[], goal: string): Result[] => results.filter((r) => goalOf(r) === goal);
const one = (results: Result[], goal: string): Result => {
  const [main, ...rest] = byGoal(results, goal).filter((r) => !r.labels.some((l) => l.name === '_retraceRetry'));
  expect(rest).toHaveLength(0);
  return main as Result;
};

const verdict = (goal: string, status: Verdict['status'], over: Partial<Verdict> = {}): Verdict => ({
  spec: 'specs/calc.yaml',
  goal,
  status,
  mode: 'replayed',
  modelCalls: 0,
  durationMs: 700,
  actions: [],
  ...over,
});

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'retrace-allure-'));
  reportsDir = join(root, 'reports');
  resultsDir = join(reportsDir, 'allure-results');
  // The way retrace wires allure-vitest: its reporter plus its setup file. Only that reporter:
  // vitest's default one would print the intentional failures. The config lives in the temp dir
  // (plain object, no imports) and caches go there too, so the run writes nothing in the repo.
  const config = join(root, 'vitest.config.mjs');
  writeFileSync(
    config,
    `export default ${JSON.stringify({
      root: project,
      cacheDir: join(root, 'vite-cache'),
      test: {
        include: ['*.fixture.ts'],
        setupFiles: ['allure-vitest/setup'],
        reporters: [['allure-vitest/reporter', { resultsDir }]],
        pool: 'forks',
      },
    })};\n`,
  );
  const exitCode = await new Promise<number | null>((done) => {
    const child = execFile(
      process.execPath,
      [join(repo, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', config],
      { cwd: root, timeout: 60_000 },
      () => done(child.exitCode),
    );
  });
  // Three goals fail on purpose.
  expect(exitCode).toBe(1);
}, 90_000);

afterAll(() => {
  if (process.env.RETRACE_KEEP_ALLURE) console.log(`kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
});

describe('allure-vitest results', () => {
  test('one result per goal, with labels, steps and images from reportGoalToAllure', () => {
    const results = readResults();
    expect(results.map(goalOf).sort()).toEqual(['add', 'launch', 'multiply', 'note', 'retry']);
    const multiply = one(results, 'multiply');
    expect(multiply.labels).toEqual(
      expect.arrayContaining([
        { name: 'epic', value: 'Calculator' },
        { name: 'feature', value: 'galculator' },
        { name: 'story', value: 'multiply' },
      ]),
    );
    expect(multiply.parameters).toContainEqual({ name: 'mode', value: 'healed', excluded: true });
    const actionSteps = multiply.steps.filter((s) => s.name?.startsWith('click'));
    expect(actionSteps.map((s) => s.name)).toEqual(['click "1"', 'click "2" — found by ocr', 'click "×"']);
    expect(actionSteps[1]?.parameters).toContainEqual({ name: 'resolvedBy', value: 'ocr' });
    expect(actionSteps[0]?.steps.flatMap((s) => s.attachments.map((a) => a.type))).toEqual(['image/png', 'image/png']);

    const add = one(results, 'add');
    const diffStep = add.steps.find((s) => s.name === 'expect screenshot add');
    expect(diffStep?.status).toBe('failed');
    const diff = diffStep?.steps[0]?.attachments[0];
    expect(diff?.type).toBe('application/vnd.allure.image.diff');
    const diffJson = JSON.parse(readFileSync(join(resultsDir, diff?.source ?? ''), 'utf8')) as Record<string, string>;
    for (const key of ['expected', 'actual', 'diff']) expect(diffJson[key]).toMatch(/^data:image\/png;base64,iVBOR/);
  });

  test('as shipped, allure-vitest calls a thrown GoalFailure broken (post-processing fixes it)', () => {
    const results = readResults();
    expect(one(results, 'add').status).toBe('broken');
    expect(one(results, 'note').status).toBe('broken');
    expect(one(results, 'retry').statusDetails.flaky).toBeUndefined();
  });
});

describe('postProcessAllureResults + buildAllureReport', () => {
  beforeAll(async () => {
    const verdicts = [
      verdict('multiply', 'passed', { mode: 'healed' }),
      verdict('add', 'failed', { category: 'expectation-failed' }),
      verdict('note', 'failed', { category: 'target-not-found', failedAction: 1 }),
      verdict('launch', 'broken', { category: 'infrastructure' }),
      verdict('retry', 'passed'),
    ];
    // As the runner's reporter lists them: goals that passed on a retry.
    const passedOnRetry = [{ spec: 'specs/calc.yaml', goal: 'retry' }];
    await postProcessAllureResults({
      resultsDir,
      goals: outcomesFromVerdicts(verdicts, passedOnRetry),
      environment: retraceEnvironment({ display: { width: 1280, height: 800 }, appCommand: 'galculator' }),
    });
  });

  test('statuses follow the verdicts; flaky on healed and retried goals; ids from spec#goal', () => {
    const results = readResults();
    expect(one(results, 'add').status).toBe('failed');
    expect(one(results, 'note').status).toBe('failed');
    expect(one(results, 'launch').status).toBe('broken');
    expect(one(results, 'multiply')).toMatchObject({ status: 'passed', statusDetails: { flaky: true } });
    expect(one(results, 'add').statusDetails.flaky).toBeUndefined();
    for (const goal of ['add', 'launch', 'multiply', 'note', 'retry']) {
      const id = allureIdOf('specs/calc.yaml', goal);
      for (const r of byGoal(results, goal)) expect(r).toMatchObject({ historyId: id, testCaseId: id });
    }
    // No attempt markers left.
    expect(JSON.stringify(results)).not.toContain('retrace:attempt');
  });

  test('a goal that passed on retry: flaky, and its failed attempt kept as a retry', () => {
    const attempts = byGoal(readResults(), 'retry');
    expect(attempts).toHaveLength(2);
    const main = one(attempts, 'retry');
    const retry = attempts.find((r) => r !== main) as Result;
    expect(main).toMatchObject({ status: 'passed', statusDetails: { flaky: true } });
    expect(retry).toMatchObject({ status: 'failed', statusDetails: { message: '[effect-not-verified] display did not clear' } });
    expect(retry.start ?? 0).toBeLessThan(main.start ?? 0);
    // Each attempt has its own steps, labels once.
    expect(main.steps.map((s) => [s.name, s.status])).toEqual([['click "C"', 'passed']]);
    expect(retry.steps.map((s) => [s.name, s.status])).toEqual([['click "C"', 'failed']]);
    expect(main.labels.filter((l) => l.name === 'story')).toHaveLength(1);
    expect(main.parameters.filter((p) => p.name === 'mode')).toHaveLength(1);
  });

  test('categories.json and environment.properties are written', () => {
    const categories = JSON.parse(readFileSync(join(resultsDir, 'categories.json'), 'utf8')) as { name: string }[];
    expect(categories.map((c) => c.name)).toEqual(
      expect.arrayContaining(['Target not found', 'Effect not verified', 'Expectation failed', 'Infrastructure']),
    );
    const env = readFileSync(join(resultsDir, 'environment.properties'), 'utf8');
    expect(env).toMatch(/^display\.size=1280x800$/m);
    expect(env).toMatch(/^app\.command=galculator$/m);
    expect(env).toMatch(/^retrace\.version=\d+\.\d+\.\d+/m);
  });

  test('post-processing twice changes nothing', async () => {
    const snapshot = () =>
      Object.fromEntries(readdirSync(resultsDir).sort().map((n) => [n, readFileSync(join(resultsDir, n), 'utf8')]));
    const before = snapshot();
    const report = await postProcessAllureResults({ resultsDir, goals: outcomesFromVerdicts([verdict('retry', 'passed')]) });
    expect(report.updated).toBe(0);
    expect(snapshot()).toEqual(before);
  });

  test('the Allure 3 HTML report builds, links the flaky report and keeps history across builds', async () => {
    await writeFlakyReport(reportsDir, computePathStats([...fromPattern('retry', 'PFPFPP'), ...fromPattern('add', 'PPPPF')]));
    const index = await buildAllureReport({ reportsDir });
    expect(index).toBe(join(reportsDir, 'allure-report', 'index.html'));
    const html = readFileSync(index, 'utf8');
    expect(html).toContain('<html');
    expect(existsSync(join(reportsDir, 'allure-report', 'flaky-paths.html'))).toBe(true);
    const historyFile = join(reportsDir, 'history', 'allure-history.jsonl');
    expect(readFileSync(historyFile, 'utf8').trim().split('\n')).toHaveLength(1);
    await buildAllureReport({ reportsDir });
    expect(readFileSync(historyFile, 'utf8').trim().split('\n')).toHaveLength(2);
  }, 120_000);
});
