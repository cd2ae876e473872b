/**
 * The X server dies in the middle of a run. The CLI starts its own Xvfb for its worker; the test
 * finds it among the CLI's children and kills it (SIGKILL), once while the path waits (nothing
 * talks to X at that moment) and once while the screen is being captured (a capture is in
 * flight). Either way the goal ends as broken (exit 3) at once, with a message that names the
 * display, and it is counted in the summary and the history: never dropped.
 */
import { describe, expect, test } from 'vitest';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from '../support/project.ts';
import {
  descendants,
  environOf,
  freezeDuringXRequest,
  isAlive,
  pollFor,
  startCli,
  waitUntilIdle,
  type CliProcess,
} from '../support/faults-cli.ts';

const SPEC = `name: Display
app:
  launch: \${env.FIXTURES}/open calculator
  window: Retrace Calculator
goals:
  - id: long-wait
    steps:
      - wait: 30000
    expect:
      - text: "0"
`;

/** The run's Xvfb (the CLI's), the worker that runs on it, and the display name (read from the app's environment). */
function runProcesses(cli: CliProcess): { xvfb: number; worker: number; display: string; browser: number } {
  const tree = descendants(cli.pid);
  const xvfbs = tree.filter((p) => p.comm === 'Xvfb');
  expect(xvfbs, 'the run owns exactly one Xvfb').toHaveLength(1);
  const xvfb = xvfbs[0]!;
  expect(xvfb.ppid, 'the CLI started it').toBe(cli.pid);
  // The browser the worker launched: a child of the worker, itself a child of the CLI.
  const browser = tree.find((p) => p.comm === 'chromium' && tree.some((q) => q.pid === p.ppid && q.ppid === cli.pid && q.comm === 'node'));
  expect(browser, 'the app runs under the CLI').toBeDefined();
  // The display number is not on Xvfb's command line (-displayfd): the environment of the
  // processes started for the display has it. Not chromium's own: its long command line
  // overwrites the memory /proc/PID/environ reads.
  const display = tree.map((p) => environOf(p.pid, 'DISPLAY')).find((d) => d !== undefined && d !== '');
  expect(display).toMatch(/^:\d+$/);
  return { xvfb: xvfb.pid, worker: browser!.ppid, display: display!, browser: browser!.pid };
}

/**
 * Kills the run's Xvfb and checks the verdict. `latency`: how the time to the verdict is measured:
 * by the worker's verdict line (at most 2 s after the kill), or, when the worker itself may not
 * survive the fault, by the end of the whole run (at most 10 s after the kill, far less than the
 * 30 s wait step).
 */
async function killDisplayAndCheck(
  project: Project,
  cli: CliProcess,
  run: ReturnType<typeof runProcesses>,
  latency: 'verdict-line' | 'run-end',
): Promise<void> {
  const killedAt = Date.now();
  process.kill(run.xvfb, 'SIGKILL');
  await pollFor('Xvfb to die', () => (isAlive(run.xvfb) ? undefined : true), 5000);
  const end = await cli.ended;

  expect(end.code, cli.output).toBe(3);
  const summary = project.summary();
  expect(summary.totals, cli.output).toMatchObject({ broken: 1, passed: 0, failed: 0 });
  const verdict = summary.goals[0]!;
  expect(verdict).toMatchObject({ goal: 'long-wait', status: 'broken', category: 'infrastructure' });
  // The cause is the display, named, even though the app loses its X connection too.
  expect(verdict.message).toContain(`X server ${run.display}`);
  expect(verdict.message).toMatch(/died/);
  if (latency === 'verdict-line') {
    const verdictLine = await cli.line(/✗ specs\/display\.yaml › long-wait broken/, 1000);
    expect(verdictLine.at - killedAt, 'display death detection latency (ms)').toBeLessThan(2000);
  } else {
    expect(end.endedAt - killedAt, 'from the display death to the end of the run (ms)').toBeLessThan(10_000);
  }
  // The goal run is in the history like any other.
  const history = project
    .read('reports/history/runs.jsonl')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { status: string });
  expect(history.map((r) => r.status)).toEqual(['broken']);
  // Nothing of the run survives it: no app, no watchdog, no worker.
  await pollFor(
    'the run to leave no process behind',
    () => (descendants(cli.pid).length === 0 && !isAlive(run.browser) ? true : undefined),
    5000,
  );
}

describe('the X server dies mid-run', () => {
  test('while the path waits: broken at once, naming the display', { timeout: 150_000 }, async () => {
    const project = new Project().write('specs/display.yaml', SPEC);
    const cli = startCli(project, ['run']);
    await cli.line(/display\.yaml › long-wait: action 1\/1/, 90_000);
    const run = runProcesses(cli);
    // The screen settled before the wait began: the worker now only sleeps, nothing talks to X.
    await waitUntilIdle(run.worker);
    await killDisplayAndCheck(project, cli, run, 'verdict-line');
  });

  test('while the screen is being captured: still a broken goal naming the display, not a lost one', { timeout: 150_000 }, async () => {
    const project = new Project().write('specs/display.yaml', SPEC);
    const cli = startCli(project, ['run']);
    // Learning first watches the window for 1.2 s for content that changes on its own,
    // capturing it frame after frame.
    await cli.line(/display\.yaml › long-wait: learning \(watching/, 90_000);
    const run = runProcesses(cli);
    // Frozen with a request of the worker's in flight (a capture, while it watches), then
    // killed: the reply never comes and the connection breaks under it.
    await freezeDuringXRequest(run.xvfb, run.worker);
    await killDisplayAndCheck(project, cli, run, 'run-end');
  });
});

describe('an X server that does not start', () => {
  test("every goal is broken with Xvfb's own words on the console, and each goal tries again", { timeout: 120_000 }, async () => {
    const project = new Project()
      .write(
        'specs/display.yaml',
        `${SPEC}  - id: second
    steps:
      - wait: 10
`,
      )
      .write(
        'bin/Xvfb',
        '#!/bin/sh\necho started >> "$(dirname "$0")/../starts"\necho "(EE) Fatal server error: no screens found" >&2\nexit 1\n',
      );
    chmodSync(join(project.root, 'bin', 'Xvfb'), 0o755);
    const result = await project.cli(['run', '--workers', '1'], { PATH: `${join(project.root, 'bin')}:${process.env.PATH ?? ''}` });

    expect(result.code, result.stdout + result.stderr).toBe(3);
    expect(project.summary().goals.map((g) => [g.goal, g.status, g.category])).toEqual([
      ['long-wait', 'broken', 'infrastructure'],
      ['second', 'broken', 'infrastructure'],
    ]);
    // No worker could say why: the run's own output does, for each goal.
    for (const goal of ['long-wait', 'second']) {
      expect(result.stdout, result.stderr).toMatch(
        new RegExp(`broken: specs/display\\.yaml#${goal}: .*Could not start Xvfb[^]*no screens found`),
      );
    }
    // A failed start is not kept for the worker's life: the run tried while it loaded, then the
    // worker, in the spec file's set-up, then each goal.
    expect(project.read('starts').trim().split('\n')).toHaveLength(4);
  });
});
