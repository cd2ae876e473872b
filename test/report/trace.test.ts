/**
 * A trace folder and the server of `retrace trace show`, without a display: every value of the
 * trace is escaped on the page, a bad trace is invalid input, and the server answers only its
 * own page and images, only with the token of its address, only to its own Host and Origin.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTrace, traceDir, writeTrace, type Trace } from '../../src/report/trace.ts';
import { serveTrace, type TraceServer } from '../../src/cli/trace-server.ts';
import { createFrame, encodePng } from '../../src/vision/frame.ts';
import { InvalidInputError } from '../../src/errors.ts';
import { GoalTrace } from '../../src/runner/goal-trace.ts';
import { Project } from '../support/project.ts';

const EVIL = '<img src=x onerror="alert(1)">&\'';
const reports = mkdtempSync(join(tmpdir(), 'retrace-trace-'));
const dir = traceDir(reports, 'specs/x.yaml', 'g');
const trace: Omit<Trace, 'version'> = {
  spec: 'specs/x.yaml',
  goal: 'g',
  status: 'failed',
  mode: 'replayed',
  durationMs: 10,
  message: EVIL,
  failedAction: 0,
  actions: [
    {
      index: 0,
      description: `click ${EVIL}`,
      before: { file: 'action-1-before.png', width: 8, height: 8 },
      detail: { rungs: [{ rung: 'ocr', score: 0.4, runnerUp: 0, box: { x: 1, y: 1, width: 2, height: 2 }, accepted: false }], effects: [] },
      failure: EVIL,
    },
  ],
  expectations: [{ description: `text "${EVIL}"`, passed: false, message: EVIL }],
  console: [EVIL],
};
writeTrace(dir, trace, new Map([['action-1-before.png', encodePng(createFrame(8, 8, [0, 0, 0, 255]))]]));
writeFileSync(join(reports, 'secret.txt'), 'not for the page');

/** A raw GET with the headers given (fetch would set Host itself). */
function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += String(d)));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a trace', () => {
  test('its page escapes every value of the trace', () => {
    const { trace: read, dir: at } = readTrace(join(dir, 'trace.json'));
    expect(at).toBe(dir);
    expect(read.actions[0]?.description).toBe(`click ${EVIL}`);
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('onerror="alert');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;');
  });

  test('a folder without one, or a malformed one, is invalid input naming the file', () => {
    expect(() => readTrace(reports)).toThrow(InvalidInputError);
    const bad = join(reports, 'bad');
    writeTrace(bad, trace, new Map());
    writeFileSync(join(bad, 'trace.json'), '{"version": 1}');
    expect(() => readTrace(bad)).toThrow(/trace\.json.*not a retrace trace/s);
  });
});

describe('retrace trace show: the server', () => {
  let server: TraceServer;
  afterAll(async () => server?.close());

  test("answers only its own Host and Origin, only with its token, only the trace's files", async () => {
    server = await serveTrace(dir, readTrace(dir).trace);
    const url = new URL(server.url);
    const port = Number(url.port);
    const host = `127.0.0.1:${port}`;
    // The token is the address's first segment, as on the live page: relative images carry it.
    const base = url.pathname;
    expect(url.hostname).toBe('127.0.0.1');
    expect(base).toMatch(/^\/[\w-]{32}\/$/);

    const page = await get(port, base, { Host: host });
    expect(page.status).toBe(200);
    expect(page.body).toContain('trace: specs/x.yaml');
    expect((await get(port, '/', { Host: host })).status).toBe(403);
    expect((await get(port, '/0000/', { Host: host })).status).toBe(403);
    expect((await get(port, base, { Host: `evil.example:${port}` })).status).toBe(403);
    expect((await get(port, base, { Host: host, Origin: 'http://evil.example' })).status).toBe(403);
    // The images the trace names; nothing else of the disk.
    expect((await get(port, `${base}action-1-before.png`, { Host: host })).status).toBe(200);
    expect((await get(port, '/action-1-before.png', { Host: host })).status).toBe(403);
    expect((await get(port, `${base}trace.json`, { Host: host })).status).toBe(404);
    expect((await get(port, `${base}..%2f..%2fsecret.txt`, { Host: host })).status).toBe(404);
    expect((await get(port, `${base}../../secret.txt`, { Host: host })).status).not.toBe(200);
  });
});

describe('retrace trace on the command line', () => {
  const project = new Project();
  test('a missing trace or no verb is invalid input, exit 2, naming what is expected', async () => {
    const missing = await project.cli(['trace', 'show', 'reports/traces/specs/none/g']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no trace here: expected a trace folder');
    const bare = await project.cli(['trace']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('use: retrace trace show <trace folder or trace.json>');
    const help = await project.cli(['--help']);
    expect(help.stdout).toContain('retrace trace show <trace folder or its trace.json>');
    expect((await project.cli(['run', '--help'])).stdout).toMatch(/--trace\s+\[off\|on\|retain-on-failure\]/);
  });
});

describe('a goal trace as the runner writes it', () => {
  test('keeps it only as the mode says, and masks every text a secret may be in', () => {
    const reportsDir = mkdtempSync(join(tmpdir(), 'retrace-goal-trace-'));
    const mask = (text: string): string => text.replaceAll('hunter2', '••••');
    const goal = new GoalTrace(mask);
    goal.started(0, 'type "${secret.PW}"');
    goal.collect(0, createFrame(40, 30, [255, 255, 255, 255]), createFrame(40, 30, [0, 0, 0, 255]));
    goal.detail(0, {
      rungs: [],
      effects: [
        {
          kind: 'text',
          expected: { x: 1, y: 1, width: 5, height: 5 },
          found: { x: 1, y: 1, width: 5, height: 5 },
          verified: false,
          moved: false,
          text: 'pw hunter2',
          detail: 'reads "hunter2"',
        },
      ],
      elements: { expected: ['entry "Password": text "hunter2"'], checked: true, problem: 'entry "Password" reads "hunter2"' },
    });
    goal.line('typed hunter2');
    const verdict = {
      spec: 'specs/s.yaml',
      goal: 'g',
      status: 'passed' as const,
      mode: 'replayed' as const,
      modelCalls: 0,
      durationMs: 5,
      actions: [],
    };
    expect(goal.write(reportsDir, 'retain-on-failure', verdict, [])).toBeUndefined();
    expect(goal.write(reportsDir, 'off', { ...verdict, status: 'failed', message: 'no hunter2 here' }, [])).toBeUndefined();
    const dir = goal.write(
      reportsDir,
      'retain-on-failure',
      { ...verdict, status: 'failed', message: 'no hunter2 here', failedAction: 0 },
      [],
    );
    expect(dir).toBe(traceDir(reportsDir, 'specs/s.yaml', 'g'));
    const json = readFileSync(join(dir!, 'trace.json'), 'utf8');
    const page = readFileSync(join(dir!, 'index.html'), 'utf8');
    expect(json).toContain('••••');
    expect(json + page).not.toContain('hunter2');
    expect(readTrace(dir!).trace.actions[0]?.after).toEqual({ file: 'action-1-after.png', width: 40, height: 30 });
  });
});
