/**
 * The command line on unusable outputs and plain questions. An output location that cannot be
 * written (`--reports /proc/x`, `--junit /proc/forbidden/x.xml`, `--paths` likewise) stops the
 * command at once with a line naming it, before anything runs or is deleted: no hang (each run
 * here is bounded well below the time a run needs to launch anything). `--help` of any command
 * is help, exit 0. `retrace paths` says what its rate is a rate of.
 * These runs stop before any display or app starts.
 */
import { describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';
import { COMMANDS } from '../../src/cli/flags.ts';

const APP = 'app:\n  launch: ${env.FIXTURES}/open calculator\n  window: Retrace Calculator\n';
const SPEC = `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n`;
/** Far below what launching the app takes: a run that gets this far has already gone wrong. */
const QUICK_MS = 20_000;

/** A project that has run before: its reports, the Allure results of the last run included. */
const ranBefore = (): Project =>
  new Project()
    .write('specs/a.yaml', SPEC)
    .write('reports/allure-results/0000-result.json', '{"name": "g"}\n')
    .write('reports/summary.json', '{"totals": {}, "goals": []}\n');

interface Case {
  readonly name: string;
  readonly args: readonly string[];
  readonly code: 2 | 3;
  readonly message: string;
}

const CASES: readonly Case[] = [
  {
    name: 'run --reports /proc/x',
    args: ['run', '--reports', '/proc/x'],
    code: 3,
    message: 'retrace: cannot write --reports /proc/x: creating a file in /proc fails: no such file or folder (ENOENT)',
  },
  {
    name: 'run --junit /proc/forbidden/x.xml',
    args: ['run', '--junit', '/proc/forbidden/x.xml'],
    code: 3,
    message: 'retrace: cannot write --junit /proc/forbidden/x.xml: creating a file in /proc fails',
  },
  {
    name: 'run --paths /proc/y',
    args: ['run', '--paths', '/proc/y'],
    code: 3,
    message: 'retrace: cannot write --paths /proc/y: creating a file in /proc fails',
  },
  {
    name: 'run --reports under /sys',
    args: ['run', '--reports', '/sys/retrace-reports'],
    code: 3,
    message: 'retrace: cannot write --reports /sys/retrace-reports: creating a file in /sys fails',
  },
  {
    name: 'run --reports naming a file',
    args: ['run', '--reports', 'specs/a.yaml'],
    code: 2,
    message: 'specs/a.yaml: is a file, not a folder',
  },
  { name: 'run --junit naming a folder', args: ['run', '--junit', 'specs'], code: 2, message: '--junit' },
  {
    name: 'report --reports /proc/x',
    args: ['report', '--reports', '/proc/x'],
    code: 3,
    message: 'retrace: cannot write --reports /proc/x',
  },
  {
    name: 'merge --reports /proc/x',
    args: ['merge', 'reports', '--reports', '/proc/x'],
    code: 3,
    message: 'retrace: cannot write --reports /proc/x',
  },
];

describe('an output location that cannot be written stops the command at once, having touched nothing', () => {
  test.each(CASES)('$name', { timeout: QUICK_MS + 10_000 }, async ({ args, code, message }) => {
    const project = ranBefore();
    const before = project.snapshot();
    const result = await project.cli(args, {}, QUICK_MS);
    expect(result.code, result.stdout + result.stderr).toBe(code);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n'), 'one line').toHaveLength(1);
    expect(result.stderr).not.toMatch(/a bug in retrace|\n\s+at /);
    expect(project.snapshot(), "the last run's reports are still there").toEqual(before);
  });
});

describe('--help', () => {
  test.each(Object.keys(COMMANDS))('retrace %s --help prints its help and exits 0', async (command) => {
    const result = await new Project().cli([command, '--help'], {}, QUICK_MS);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`retrace ${command}`);
    expect(result.stdout).toContain(COMMANDS[command]!.summary);
    for (const flag of Object.keys(COMMANDS[command]!.flags)) expect(result.stdout).toContain(`--${flag}`);
  });

  test('-h after other flags, and `retrace help run`, are help too; after -- it is an argument', async () => {
    const project = new Project().write('specs/a.yaml', SPEC);
    const short = await project.cli(['run', '--workers', '2', '-h'], {}, QUICK_MS);
    expect(short.code).toBe(0);
    expect(short.stdout).toContain('--update-baselines');
    const word = await project.cli(['help', 'run'], {}, QUICK_MS);
    expect(word.code).toBe(0);
    expect(word.stdout).toBe(short.stdout);
    const after = await project.cli(['validate', '--', '--help'], {}, QUICK_MS);
    expect(after.code).toBe(2);
    expect(after.stderr).toContain('--help');
  });
});

describe('retrace paths', () => {
  test('the rate is of passed and failed runs, and broken runs are counted beside it', async () => {
    const record = (status: string, i: number): string =>
      `${JSON.stringify({ v: 1, runId: `r${i}`, ts: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), spec: 'specs/a.yaml', goal: 'g', status, mode: 'replayed', modelCalls: 0, durationMs: 100, retries: 0, healed: false, ...(status === 'passed' ? {} : { reason: 'x' }) })}\n`;
    const statuses = ['passed', 'broken', 'passed', 'broken', 'failed', 'broken', 'passed', 'broken'];
    const project = new Project()
      .write('specs/a.yaml', SPEC)
      .write(
        'paths/specs/a/g.path.json',
        `${JSON.stringify({ version: 1, spec: 'specs/a.yaml', goal: 'g', source: { kind: 'goal', hash: 'h', text: 't' }, planner: 'rules', window: { width: 100, height: 100 }, actions: [] })}\n`,
      )
      .write('reports/history/runs.jsonl', statuses.map(record).join(''));
    const result = await project.cli(['paths'], {}, QUICK_MS);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('75% (3 of 4 passed; 4 broken;');
    expect(result.stdout).not.toContain('of 8');
  });
});
