/**
 * `retrace run` on a terminal (a pty, through script(1)), as a person watching it sees it: a
 * numbered line per finished goal attempt stays, retried attempts are marked "retry 1/3", and
 * while goals run there is one status line per worker, gone when the run ends. Without a
 * terminal (every other e2e test) the workers print plain lines.
 */
import { describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, Project, REPO } from '../support/project.ts';
import { calculatorSpec, notesSpec } from '../support/specs.ts';
import { Screen } from '../support/terminal.ts';

/** Runs `retrace <args>` on a pty; every chunk of output as it arrived. */
function onTerminal(project: Project, args: readonly string[]): Promise<{ code: number | null; chunks: string[] }> {
  const env: NodeJS.ProcessEnv = { ...process.env, FIXTURES, NO_COLOR: '1', COLUMNS: '160' };
  delete env.CI;
  delete env.DISPLAY;
  const command = [process.execPath, join(REPO, 'bin', 'retrace.mjs'), ...args].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qfec', `stty cols 160; ${command}`, '/dev/null'], {
    cwd: project.root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout.on('data', (d: Buffer) => chunks.push(d.toString()));
  child.stderr.on('data', (d: Buffer) => chunks.push(d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, chunks })));
}

describe('the console on a terminal', () => {
  test('a line per finished goal, "goal i of n", retries marked, one status line per worker', { timeout: 300_000 }, async () => {
    const calc = calculatorSpec({
      launch: 'n=$(cat seed); echo $((n+1)) > seed; exec ${env.FIXTURES}/open calculator "flaky=0.5&seed=$n"',
    });
    const project = new Project().write('specs/calc.yaml', calc).write('specs/notes.yaml', notesSpec('on screen')).write('seed', '1\n');
    const learned = await project.cli(['run']);
    expect(learned.code, learned.stderr).toBe(0);

    // Seed 9 fails, 10 passes: the calculator passes on its retry.
    project.write('seed', '9\n');
    const { code, chunks } = await onTerminal(project, ['run', '--workers', '2', '--retry', '3', '--learn', 'off']);
    const screen = new Screen();
    let busiest = 0;
    for (const chunk of chunks) {
      screen.write(chunk);
      busiest = Math.max(busiest, screen.shown().filter((l) => /^ {2}worker \d+ {2}specs\//.test(l)).length);
    }
    const shown = screen.shown();
    if (process.env.RETRACE_KEEP_CONSOLE) writeFileSync(process.env.RETRACE_KEEP_CONSOLE, chunks.join(''));
    expect(code, shown.join('\n')).toBe(0);
    expect(busiest, 'two workers busy at once, each on its own line').toBe(2);
    const goals = shown.filter((l) => /^[✓✗] \[\d\/2\]/.test(l));
    expect(goals).toHaveLength(3);
    expect(goals).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^✗ \[(\d)\/2\] specs\/calc\.yaml › add failed \(replayed, 4 actions, 0 model calls, \d+ ms\) — retrying$/),
        expect.stringMatching(/^✓ \[\d\/2\] specs\/calc\.yaml › add passed, retry 1\/3 \(replayed, 4 actions, 0 model calls, \d+ ms\)$/),
        expect.stringMatching(/^✓ \[\d\/2\] specs\/notes\.yaml › save passed \(replayed, 3 actions, 0 model calls, \d+ ms\)$/),
      ]),
    );
    // Both attempts of the calculator share its number; the two goals have 1 and 2.
    const numberOf = (re: RegExp): string | undefined => /\[(\d)\/2\]/.exec(goals.find((l) => re.test(l)) ?? '')?.[1];
    expect(numberOf(/add failed/)).toBe(numberOf(/add passed/));
    expect([numberOf(/add passed/), numberOf(/save passed/)].sort()).toEqual(['1', '2']);
    // The live block is gone; the phases of the goals never stayed on screen.
    expect(shown.filter((l) => /worker \d|: launching|: replaying|: action \d/.test(l))).toEqual([]);
    expect(shown.join('\n')).toContain('2 passed, 0 failed, 0 broken');
  });
});
