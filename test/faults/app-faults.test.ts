/**
 * Faults of the application under test, through the real CLI: it crashes in the middle of a
 * path, it never opens its window, it exits at once. Each ends the goal as broken (exit 3) with
 * a message that says what happened, and a crash is noticed at once, not after a timeout.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from '../support/project.ts';
import { groupMembers, isAlive, pollFor, startCli } from '../support/faults-cli.ts';

/**
 * The calculator behind a small shell that the test can crash: on SIGUSR1 it kills the browser
 * (kill -9, as a crash would leave it), prints its last words on stderr and exits with code 42.
 * It writes its pid to the file named by its first argument once the trap is in place.
 */
const CRASHY = `#!/bin/sh
"$FIXTURES/open" calculator &
browser=$!
trap 'kill -9 $browser 2>/dev/null; echo "crashy: fatal: segmentation fault in module widgets" >&2; exit 42' USR1
echo $$ > "$1"
wait $browser
`;

const CRASH_SPEC = `name: Crash
app:
  launch: sh ./crashy.sh app.pid
  window: Retrace Calculator
goals:
  - id: mid-path
    steps:
      - wait: 30000
    expect:
      - text: "0"
`;

/** The most the crash may take to end the goal. */
const DETECTION_MS = 2000;

describe('the application crashes in the middle of a path', () => {
  test('the goal ends as broken within 2 s, with the exit code and the stderr tail', { timeout: 150_000 }, async () => {
    const project = new Project().write('crashy.sh', CRASHY).write('specs/crash.yaml', CRASH_SPEC);
    const cli = startCli(project, ['run']);
    // The goal is inside its 30 s wait step: the app is up, its window found, the path running.
    await cli.line(/crash\.yaml › mid-path: action 1\/1/, 90_000);
    const pid = Number(readFileSync(join(project.root, 'app.pid'), 'utf8').trim());
    expect(isAlive(pid), 'the crashy app runs').toBe(true);

    const crashedAt = Date.now();
    process.kill(pid, 'SIGUSR1');
    await pollFor('the app to exit', () => (isAlive(pid) ? undefined : true), 5000);
    const verdictLine = await cli.line(/✗ specs\/crash\.yaml › mid-path broken/, 30_000);
    const end = await cli.ended;

    expect(end.code, cli.output).toBe(3);
    const verdict = project.summary().goals[0]!;
    expect(verdict).toMatchObject({ goal: 'mid-path', status: 'broken', category: 'infrastructure' });
    expect(verdict.message).toMatch(/exited with code 42/);
    expect(verdict.message).toContain('crashy: fatal: segmentation fault in module widgets');
    // Latency from the crash to the verdict, as seen by the worker's own progress line.
    expect(verdictLine.at - crashedAt, 'crash detection latency (ms)').toBeLessThan(DETECTION_MS);
    // And the goal did not sit out its wait step.
    expect(verdict.durationMs).toBeLessThan(30_000);
    // Nothing of the crashed app outlives the run (its session: the shell, chromium's helpers).
    await pollFor('the app session to be empty', () => (groupMembers(pid).length === 0 ? true : undefined), 5000);
  });
});

const NEVER_SPEC = `name: Never
app:
  launch: sleep 60
  window: /^Retrace Never\\b/
  windowTimeoutMs: 1500
goals:
  - id: no-window
    steps:
      - wait: 10
`;

const EXITS_SPEC = `name: Exits
app:
  launch: sh -c 'echo boom >&2; exit 7'
  window: Retrace Calculator
  windowTimeoutMs: 20000
goals:
  - id: exits-at-once
    steps:
      - wait: 10
`;

describe('the application never opens its window', () => {
  test('a window that never appears is broken after windowTimeoutMs, naming the title pattern', async () => {
    const project = new Project().write('specs/never.yaml', NEVER_SPEC);
    const cli = startCli(project, ['run']);
    const launched = await cli.line(/never\.yaml › no-window: launching/, 60_000);
    const verdictLine = await cli.line(/✗ specs\/never\.yaml › no-window broken/, 30_000);
    const end = await cli.ended;

    expect(end.code, cli.output).toBe(3);
    const verdict = project.summary().goals[0]!;
    expect(verdict).toMatchObject({ status: 'broken', category: 'infrastructure' });
    expect(verdict.message).toContain('/^Retrace Never\\b/');
    expect(verdict.message).toMatch(/within 1500 ms/);
    expect(verdict.message).toContain('sleep 60');
    // It waited for the window as long as asked, and not much longer.
    const waited = verdictLine.at - launched.at;
    expect(waited).toBeGreaterThanOrEqual(1500);
    expect(waited).toBeLessThan(1500 + 3000);
  });

  test('an app that exits at once is reported at once, with its exit code and stderr', async () => {
    const project = new Project().write('specs/exits.yaml', EXITS_SPEC);
    const cli = startCli(project, ['run']);
    const launched = await cli.line(/exits\.yaml › exits-at-once: launching/, 60_000);
    const verdictLine = await cli.line(/✗ specs\/exits\.yaml › exits-at-once broken/, 30_000);
    const end = await cli.ended;

    expect(end.code, cli.output).toBe(3);
    const verdict = project.summary().goals[0]!;
    expect(verdict).toMatchObject({ status: 'broken', category: 'infrastructure' });
    expect(verdict.message).toMatch(/exit code 7/);
    expect(verdict.message).toContain('boom');
    expect(verdict.message).toContain('Retrace Calculator');
    // Not after the 20 s window timeout: within a second or two of the launch.
    expect(verdictLine.at - launched.at).toBeLessThan(2000);
  });
});
