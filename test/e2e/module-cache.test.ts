/**
 * A run keeps the modules vitest transformed for its worker in the user's cache folder, private,
 * and reads them back on the next run; a spec's own module (made by the plugin from more than the
 * YAML's text) is never cached.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { Project } from '../support/project.ts';
import { calculatorSpec } from '../support/specs.ts';

const RUN_MS = 180_000;

test(
  'two runs: the first fills a private module cache, the second replays from it, spec modules never in it',
  async () => {
    const cacheHome = mkdtempSync(join(tmpdir(), 'retrace-cache-home-'));
    const modules = join(cacheHome, 'retrace', 'vitest-modules');
    const project = new Project().write('specs/calc.yaml', calculatorSpec());
    const env = { XDG_CACHE_HOME: cacheHome };

    const learned = await project.cli(['run'], env, RUN_MS);
    expect(learned.code, learned.stdout + learned.stderr).toBe(0);
    const folders = readdirSync(modules);
    expect(folders).toHaveLength(1);
    const cache = join(modules, folders[0]!);
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    const cached = readdirSync(cache).map((name) => readFileSync(join(cache, name), 'utf8'));
    // The worker's own modules (the suite) are there; the spec's module is not.
    expect(cached.some((code) => code.includes('defineSpecSuite') && code.includes('runGoal'))).toBe(true);
    expect(cached.filter((code) => code.includes(join(project.root, 'specs', 'calc.yaml')))).toEqual([]);

    const replayed = await project.cli(['run', '--learn', 'off'], env, RUN_MS);
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    expect(project.summary().goals[0]).toMatchObject({ goal: 'add', status: 'passed', mode: 'replayed' });
  },
  2 * RUN_MS,
);
