/**
 * `--learn off` only reads its paths: a committed, read-only `paths/` folder (a CI checkout
 * mounted read-only) replays through the real CLI, where `run` used to refuse it up front.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from '../support/project.ts';
import { canMount } from '../support/tmpfs.ts';

const SPEC = `name: Calc
app:
  launch: \${env.FIXTURES}/open calculator
  window: Retrace Calculator
goals:
  - id: seven
    goal: click "7"
    expect:
      - text: "7"
`;

// A read-only mount: permissions alone would not stop root, whom CI machines often run as.
describe.skipIf(!canMount())('a read-only --paths folder', () => {
  const project = new Project().write('specs/calc.yaml', SPEC);
  const paths = join(project.root, 'paths');
  let mounted = false;
  afterAll(() => {
    if (mounted) execFileSync('umount', [paths]);
  });

  test('replays with --learn off', { timeout: 240_000 }, async () => {
    const learned = await project.cli(['run']);
    expect(learned.code, learned.stdout + learned.stderr).toBe(0);
    execFileSync('mount', ['--bind', paths, paths]);
    mounted = true;
    execFileSync('mount', ['-o', 'remount,ro,bind', paths]);
    expect(() => writeFileSync(join(paths, 'probe'), 'x')).toThrow(/EROFS/);
    const before = project.snapshot();
    const replayed = await project.cli(['run', '--learn', 'off']);
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    expect(project.summary().goals[0]).toMatchObject({ status: 'passed', mode: 'replayed' });
    const after = project.snapshot();
    expect(Object.keys(after).filter((f) => f.startsWith('paths/') && after[f] !== before[f])).toEqual([]);
  });
});
