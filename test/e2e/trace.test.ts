/**
 * Traces, end to end on a real third-party app (zenity's entry dialog) through the real CLI: a
 * goal that passes keeps no trace by default and one with --trace on; the same goal replayed on a
 * dialog that hides what is typed fails, and its trace page — served by `retrace trace show`,
 * opened in headless Chromium and stepped through with the keyboard — shows the failing action
 * with the effect expected and what was found, boxed on the full window. A failed expectation
 * carries the window it was judged on, in the trace and in Allure.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project, until, type RunningCli } from '../support/project.ts';
import { BrowserPage } from '../support/browser-page.ts';
import { countPixels } from '../support/page-shot.ts';
import type { Trace } from '../../src/report/trace.ts';
import type { HistoryRecord } from '../../src/report/history.ts';
import { decodePng } from '../../src/vision/frame.ts';

const RUN_MS = 120_000;
const spec = (extra: string, expectText = 'Alice'): string =>
  [
    'name: entry',
    'app:',
    `  launch: zenity --entry --title "Retrace entry" --text "Your name:"${extra}`,
    '  window: Retrace entry',
    'goals:',
    '  - id: types',
    '    goal: type "Alice"',
    '    expect:',
    `      - text: ${expectText}`,
    '',
  ].join('\n');

const TRACE = 'reports/traces/specs/entry/types';

describe('retrace trace', () => {
  const project = new Project().write('specs/entry.yaml', spec(''));
  let server: RunningCli | undefined;
  let page: BrowserPage | undefined;
  afterAll(async () => {
    // The server first: a browser that fails to close must not leave it running.
    server?.child.kill('SIGTERM');
    await page?.close();
  });

  test(
    'a passing goal keeps no trace by default, and a full one with --trace on',
    async () => {
      const learn = await project.cli(['run', 'specs'], {}, RUN_MS);
      expect(learn.code, learn.stdout + learn.stderr).toBe(0);
      expect(project.exists('reports/traces')).toBe(false);

      const replay = await project.cli(['run', 'specs', '--learn', 'off', '--trace', 'on'], {}, RUN_MS);
      expect(replay.code, replay.stdout + replay.stderr).toBe(0);
      const trace = JSON.parse(project.read(`${TRACE}/trace.json`)) as Trace;
      expect(trace).toMatchObject({ spec: 'specs/entry.yaml', goal: 'types', status: 'passed' });
      const [action] = trace.actions;
      expect(action?.before?.file).toBe('action-1-before.png');
      expect(action?.report?.resolvedBy).toBeDefined();
      expect(action?.detail?.effects.some((e) => e.verified && e.text === 'Alice')).toBe(true);
      expect(trace.expectations).toEqual([
        expect.objectContaining({
          description: 'text "Alice"',
          passed: true,
          frame: expect.objectContaining({ file: 'expect-1-judged.png' }),
        }),
      ]);
      expect(trace.console.some((l) => l.includes('types passed'))).toBe(true);
      // A run that keeps no trace leaves none of an earlier run behind.
      const again = await project.cli(['run', 'specs', '--learn', 'off'], {}, RUN_MS);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(project.exists('reports/traces')).toBe(false);
      // Each history line says what it ran against: the same spec and the same path, every time.
      const lines = project
        .read('reports/history/runs.jsonl')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as HistoryRecord);
      expect(lines).toHaveLength(3);
      expect(lines[0]?.pathHash).toMatch(/^[0-9a-f]{16}$/);
      for (const line of lines.slice(1)) expect(line).toMatchObject({ specHash: lines[0]?.specHash, pathHash: lines[0]?.pathHash });
    },
    2 * RUN_MS,
  );

  test(
    'a failing goal is diagnosed from its trace page alone',
    async () => {
      project.write('specs/entry.yaml', spec(' --hide-text'));
      const run = await project.cli(['run', 'specs', '--learn', 'off'], {}, RUN_MS);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      // The window at full size, as the app drew it: no thumbnail.
      const trace = JSON.parse(project.read(`${TRACE}/trace.json`)) as Trace;
      expect(trace.failedAction).toBe(0);
      expect(trace.actions[0]?.after?.width).toBeGreaterThan(150);

      server = project.start(['trace', 'show', TRACE], {}, RUN_MS, false);
      const url = await until('the trace URL', () => /open (http:\/\/127\.0\.0\.1:\d+\/[\w-]+\/)/.exec(server!.output.stdout)?.[1], 30_000);
      // Without the token, nothing.
      expect((await fetch(new URL('/', url))).status).toBe(403);

      page = await BrowserPage.open(url);
      const visible = (): Promise<{ title: string; text: string; failed: boolean; boxes: Record<string, number> }> =>
        page!.evaluate(`(() => { const s = document.querySelector('section.step:not([hidden])');
        const boxes = {}; for (const b of s.querySelectorAll('.box')) boxes[b.className] = (boxes[b.className] ?? 0) + 1;
        return { title: s.dataset.title, text: s.innerText, failed: s.classList.contains('failed'), boxes }; })()`);
      // Step with the keyboard to the failing action (End, then back), as a person would.
      await page.press('End');
      for (let i = 0; i < 5 && !(await visible()).failed; i++) await page.press('ArrowLeft');
      const step = await visible();
      expect(step.failed, step.text).toBe(true);
      expect(step.title).toBe('action 1: type "Alice"');
      // The effect expected, and what was found instead, in words and boxed on the window.
      // The app publishes the entry: its element effect decides, and the pixels there are evidence.
      expect(step.text).toContain('expected: entry "Your name:" → "Alice"');
      expect(step.text).toMatch(/found: the entry "Your name:" has text "●+", recorded "Alice"/);
      expect(step.text).toContain('its effect did not verify');
      expect(step.boxes).toMatchObject({ 'box expected': 1, 'box missing': 1 });
      // The boxes are drawn where a person looks: red on the after image.
      const shot = await page.screenshot();
      expect(countPixels(shot, (r, g, b) => r > 200 && g < 40 && b < 70)).toBeGreaterThan(100);
    },
    2 * RUN_MS,
  );

  test(
    'a failed expectation carries the window it was judged on, in the trace and in Allure',
    async () => {
      project.write('specs/entry.yaml', spec('', 'Bob'));
      const run = await project.cli(['run', 'specs', '--learn', 'force'], {}, RUN_MS);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const trace = JSON.parse(project.read(`${TRACE}/trace.json`)) as Trace;
      const failed = trace.expectations.find((e) => !e.passed);
      expect(failed?.frame?.file).toMatch(/^expect-1-judged\.png$/);
      expect(failed?.words?.length).toBeGreaterThan(0);
      // Allure: the judged window attached to the expectation, the trace attached and linked.
      const results = join(project.root, 'reports/allure-results');
      const latest = readdirSync(results)
        .filter((f) => f.endsWith('-result.json'))
        .map(
          (f) =>
            JSON.parse(readFileSync(join(results, f), 'utf8')) as {
              start: number;
              links: { name: string; url: string }[];
              attachments: { name: string }[];
              steps: { name: string; attachments: { name: string; source: string }[] }[];
            },
        )
        .sort((a, b) => b.start - a.start)[0]!;
      expect(latest.links).toContainEqual(
        expect.objectContaining({ name: 'trace', url: expect.stringMatching(/traces\/specs\/entry\/types\/index\.html$/) }),
      );
      expect(latest.attachments.map((a) => a.name)).toEqual(expect.arrayContaining(['trace: how to open it', 'trace.json']));
      const step = latest.steps.find((s) => s.name === 'expect text "Bob"');
      expect(step?.attachments.map((a) => a.name)).toContain('judged on (blue: where it read, red: the words read)');
      // The window before and after each action at full size, as the trace has it: no thumbnail.
      const before = latest.steps[0]?.attachments.find((a) => a.name === 'before');
      expect(decodePng(readFileSync(join(results, before!.source))).width).toBe(trace.actions[0]?.before?.width);
    },
    RUN_MS,
  );
});
