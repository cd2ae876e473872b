/**
 * Allure results as the workers write them (writeGoalResult, one per goal attempt), the run's
 * metadata, and the Allure 3 HTML build. Times are given, as the runner observes them, so the
 * test can check the results carry those times and not the moment they were written.
 * Set RETRACE_KEEP_ALLURE=1 to keep the temp dir (its path is printed) and look at the report.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestResult } from 'allure-js-commons';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ActionReport, Verdict } from '../../src/domain.ts';
import { computePathStats } from '../../src/report/stats.ts';
import { allureIdOf } from '../../src/report/allure-contract.ts';
import { writeGoalResult, type ActionEvidence, type GoalReportInput } from '../../src/report/allure-goal.ts';
import { buildAllureReport } from '../../src/report/allure-html.ts';
import { retraceEnvironment, writeRunMetadata } from '../../src/report/allure-writer.ts';
import { writeFlakyReport } from '../../src/report/flaky-report.ts';
import { calculator, screenshotMismatch } from './fixtures/images.ts';
import { fromPattern } from './records.ts';

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
const byGoal = (goal: string): Result[] => readResults().filter((r) => goalOf(r) === goal);
const one = (goal: string): Result => {
  const [only, ...rest] = byGoal(goal);
  expect(rest).toHaveLength(0);
  return only as Result;
};

const SPEC = 'specs/calc.yaml';
/** A fixed clock: goals started at T0 + n seconds. */
const T0 = Date.UTC(2026, 0, 1, 12);

const click = (label: string, over: Partial<ActionReport> = {}): ActionReport => ({
  kind: 'click',
  ms: 300,
  waitMs: 20,
  resolveMs: 4,
  actMs: 30,
  settleMs: 40,
  verifyMs: 6,
  retries: 0,
  verified: true,
  resolvedBy: 'recorded',
  description: `click "${label}"`,
  ...over,
});
const verdict = (goal: string, over: Partial<Verdict>): Verdict => ({
  spec: SPEC,
  goal,
  status: 'passed',
  mode: 'replayed',
  modelCalls: 0,
  durationMs: 2000,
  actions: [],
  ...over,
});
/** Action i started at `start + 500 + 400 i` and took 300 ms, with images unless told otherwise. */
const seen = (start: number, n: number, images = true): Map<number, ActionEvidence> =>
  new Map(
    Array.from({ length: n }, (_, i) => [
      i,
      {
        start: start + 500 + 400 * i,
        end: start + 800 + 400 * i,
        ...(images && { images: { before: calculator(i - 1, i), after: calculator(i, i + 1) } }),
      },
    ]),
  );
const common = { specName: 'Calculator', app: 'galculator', planner: 'rules' } as const;
const write = (input: Omit<GoalReportInput, keyof typeof common>): void => writeGoalResult(resultsDir, { ...common, ...input });

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'retrace-allure-'));
  reportsDir = join(root, 'reports');
  resultsDir = join(reportsDir, 'allure-results');

  // multiply: healed, passed; started at T0, took 2 s.
  write({
    goalText: 'click "1", click "2", click "*"',
    verdict: verdict('multiply', {
      mode: 'healed',
      // "1": an element target found in place (a clean replay); "*": an element found moved.
      actions: [
        click('1', { resolvedBy: 'element' }),
        click('2', { resolvedBy: 'ocr', healed: 'target found by ocr, moved by 12, 0 px' }),
        click('*', { resolvedBy: 'element', healed: 'target found by element, moved by 0, 30 px' }),
      ],
    }),
    actions: seen(T0, 3),
    assertions: [{ description: 'text "84"', passed: true, ms: 120 }],
    pathStats: { successRate: 0.75, recentSuccessRate: 0.5, recentRuns: 4, passes: 3, failures: 1 },
    stop: T0 + 2000,
  });
  // add: every action verified, the screenshot differs.
  const message = 'screenshot add: 412 pixels (ratio 0.02 of all image pixels) are different';
  write({
    verdict: verdict('add', { status: 'failed', category: 'expectation-failed', message, actions: [click('7'), click('+'), click('8')] }),
    actions: seen(T0 + 10_000, 3),
    assertions: [
      { description: 'text "15"', passed: true, ms: 90 },
      { description: 'screenshot add', passed: false, message, diff: screenshotMismatch(), ms: 210 },
    ],
    stop: T0 + 12_000,
  });
  // note: the second action's target was never found: it has no report, only its start.
  write({
    verdict: verdict('note', {
      status: 'failed',
      category: 'target-not-found',
      failedAction: 1,
      message: 'action 2 (click "New"): target not found — best template score 0.41',
      actions: [click('File')],
    }),
    actions: new Map([...seen(T0 + 20_000, 1), [1, { start: T0 + 20_900, description: 'click "New"' }]]),
    stop: T0 + 22_000,
  });
  // launch: the app never started.
  write({
    verdict: verdict('launch', { status: 'broken', category: 'infrastructure', message: 'galculator did not start: exit code 127' }),
    stop: T0 + 31_000,
  });
  // retry: failed, then passed on the retry; each attempt its own result.
  write({
    verdict: verdict('retry', {
      status: 'failed',
      category: 'effect-not-verified',
      failedAction: 0,
      message: 'display did not clear',
      actions: [click('C', { verified: false })],
    }),
    actions: seen(T0 + 40_000, 1),
    retries: 0,
    stop: T0 + 42_000,
  });
  write({
    verdict: verdict('retry', { durationMs: 1500, actions: [click('C')] }),
    actions: seen(T0 + 42_100, 1),
    retries: 1,
    stop: T0 + 43_600,
  });
  writeRunMetadata(resultsDir, retraceEnvironment({ display: { width: 1280, height: 800 }, appCommands: ['galculator'] }));
});

afterAll(() => {
  if (process.env.RETRACE_KEEP_ALLURE) console.log(`kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
});

describe('the Allure result of a goal attempt', () => {
  test('one result per goal, with labels, parameters, steps and images', () => {
    expect(readResults().map(goalOf).sort()).toEqual(['add', 'launch', 'multiply', 'note', 'retry', 'retry']);
    const multiply = one('multiply');
    expect(multiply.labels).toEqual(
      expect.arrayContaining([
        { name: 'epic', value: 'Calculator' },
        { name: 'feature', value: 'galculator' },
        { name: 'story', value: 'multiply' },
      ]),
    );
    expect(multiply.parameters).toContainEqual({ name: 'mode', value: 'healed', excluded: true });
    // The overall rate counts verdict runs (3 of 4), not every run.
    expect(multiply.parameters).toContainEqual({ name: 'path success rate', value: '50% of last 4 (75% of 4 overall)', excluded: true });
    expect(multiply.steps.map((s) => s.name)).toEqual([
      'click "1"',
      'click "2" — found by ocr',
      'click "*" — found by element',
      'expect text "84"',
    ]);
    expect(multiply.steps[1]?.parameters).toContainEqual({ name: 'resolvedBy', value: 'ocr' });
    expect(multiply.steps[1]?.parameters).toContainEqual({ name: 'healed', value: 'target found by ocr, moved by 12, 0 px' });
    expect(multiply.description).toContain('**Healed action 2** (click "2"): target found by ocr, moved by 12, 0 px');
    expect(multiply.steps[0]?.attachments.map((a) => [a.name, a.type])).toEqual([
      ['before', 'image/png'],
      ['after', 'image/png'],
    ]);

    const diffStep = one('add').steps.find((s) => s.name === 'expect screenshot add');
    expect(diffStep?.status).toBe('failed');
    const diff = diffStep?.attachments[0];
    expect(diff?.type).toBe('application/vnd.allure.image.diff');
    const diffJson = JSON.parse(readFileSync(join(resultsDir, diff?.source ?? ''), 'utf8')) as Record<string, string>;
    for (const key of ['expected', 'actual', 'diff']) expect(diffJson[key]).toMatch(/^data:image\/png;base64,iVBOR/);
  });

  test('the test and each step carry the times the run observed, not the time of writing', () => {
    const multiply = one('multiply');
    expect([multiply.start, multiply.stop]).toEqual([T0, T0 + 2000]);
    expect(multiply.steps.slice(0, 3).map((s) => [(s.start ?? 0) - T0, (s.stop ?? 0) - T0])).toEqual([
      [500, 800],
      [900, 1200],
      [1300, 1600],
    ]);
    // The expectation was checked right after the last action, for as long as it took.
    expect(multiply.steps[3]).toMatchObject({ start: T0 + 1600, stop: T0 + 1720 });
    // The retried goal: two results, each with its own real span.
    const attempts = byGoal('retry').sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
    expect(attempts.map((r) => [(r.start ?? 0) - T0, (r.stop ?? 0) - T0])).toEqual([
      [40_000, 42_000],
      [42_100, 43_600],
    ]);
  });

  test('statuses come from the verdict, with the category marker; flaky on healed and retried passes', () => {
    expect(one('add')).toMatchObject({
      status: 'failed',
      statusDetails: { message: expect.stringMatching(/^\[expectation-failed\] screenshot add/) },
    });
    expect(one('launch')).toMatchObject({
      status: 'broken',
      statusDetails: { message: '[infrastructure] galculator did not start: exit code 127' },
    });
    expect(one('multiply')).toMatchObject({ status: 'passed', statusDetails: { flaky: true } });
    expect(one('add').statusDetails.flaky).toBeUndefined();
    const [failed, passed] = byGoal('retry').sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
    expect(failed).toMatchObject({ status: 'failed', statusDetails: { message: '[effect-not-verified] display did not clear' } });
    expect(failed?.statusDetails.flaky).toBeUndefined();
    expect(passed).toMatchObject({ status: 'passed', statusDetails: { flaky: true } });
    expect(passed?.parameters).toContainEqual({ name: 'retries', value: '1', excluded: true });
    for (const goal of ['add', 'launch', 'multiply', 'note', 'retry']) {
      const id = allureIdOf(SPEC, goal);
      for (const r of byGoal(goal)) expect(r).toMatchObject({ historyId: id, testCaseId: id });
    }
  });

  test('the action whose target was not found has a failed step of its own (docs/reports.md)', () => {
    const note = one('note');
    expect(note.steps.map((s) => [s.name, s.status])).toEqual([
      ['click "File"', 'passed'],
      ['click "New"', 'failed'],
    ]);
    expect(note.steps[1]?.statusDetails).toMatchObject({
      message: expect.stringMatching(/^\[target-not-found\] action 2/),
      expected: 'target found',
      actual: 'target not found',
    });
    // From when it started to the end of the goal.
    expect(note.steps[1]).toMatchObject({ start: T0 + 20_900, stop: T0 + 22_000 });
    // A failure no action shows gets one step that says so.
    expect(one('launch').steps.map((s) => [s.name, s.status])).toEqual([
      ['[infrastructure] galculator did not start: exit code 127', 'broken'],
    ]);
  });

  test('categories.json and environment.properties describe the run', () => {
    const categories = JSON.parse(readFileSync(join(resultsDir, 'categories.json'), 'utf8')) as { name: string }[];
    expect(categories.map((c) => c.name)).toEqual(
      expect.arrayContaining(['Target not found', 'Effect not verified', 'Expectation failed', 'Infrastructure']),
    );
    const env = readFileSync(join(resultsDir, 'environment.properties'), 'utf8');
    expect(env).toMatch(/^display\.size=1280x800$/m);
    expect(env).toMatch(/^app\.command=galculator$/m);
    expect(env).toMatch(/^retrace\.version=\d+\.\d+\.\d+/m);
  });

  test('every file is whole: no temp file is left beside the results', () => {
    expect(readdirSync(resultsDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('buildAllureReport', () => {
  test('the Allure 3 HTML report builds, links the flaky report and keeps history across builds', async () => {
    await writeFlakyReport(reportsDir, computePathStats([...fromPattern('retry', 'PFPFPP'), ...fromPattern('add', 'PPPPF')]));
    const index = await buildAllureReport({ reportsDir });
    expect(index).toBe(join(reportsDir, 'allure-report', 'index.html'));
    const html = readFileSync(index, 'utf8');
    expect(html).toContain('<html');
    // The embedded data is declared before the app's script, so the page never fetches it from disk.
    expect(html.indexOf('window.allureReportData = window.allureReportData || {};')).toBeLessThan(html.search(/<script\s+src=/));
    expect(html.indexOf('<script')).toBe(html.indexOf('<script>window.allureReportData = '));
    expect(existsSync(join(reportsDir, 'allure-report', 'flaky-paths.html'))).toBe(true);
    const historyFile = join(reportsDir, 'history', 'allure-history.jsonl');
    expect(readFileSync(historyFile, 'utf8').trim().split('\n')).toHaveLength(1);
    await buildAllureReport({ reportsDir });
    expect(readFileSync(historyFile, 'utf8').trim().split('\n')).toHaveLength(2);
  }, 120_000);
});
