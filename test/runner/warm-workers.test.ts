/**
 * Workers forked before vitest loads (src/runner/warm-workers.ts), as real child processes: one
 * taken over is the process vitest asked for (its entry the one program on its command line, the
 * environment vitest asked for and nothing else of the one it was forked with); one forked for
 * another entry or other node arguments is not taken; what nobody took is stopped.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Spawn, WarmWorkers } from '../../src/runner/warm-workers.ts';

const ENTRY = fileURLToPath(new URL('./fixtures/worker-entry.mjs', import.meta.url));
const spawn = (env: NodeJS.ProcessEnv = { PATH: process.env.PATH, WARM: 'forked with' }): Spawn => ({
  entry: ENTRY,
  env,
  execArgv: ['--no-warnings'],
});

const seen = (child: ChildProcess): Promise<{ argv: string[]; env: NodeJS.ProcessEnv }> =>
  new Promise((resolve) => {
    child.once('message', (m) => resolve(m as { argv: string[]; env: NodeJS.ProcessEnv }));
    child.send('who are you');
  });

/** This process's children forked for ENTRY, from /proc. */
const forkedHere = (): number[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const parent = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(ENTRY) ? [Number(pid)] : [];
      } catch {
        return [];
      }
    });

const until = async (holds: () => boolean): Promise<void> => {
  while (!holds()) await new Promise((resolve) => setTimeout(resolve, 20));
};

const started: ChildProcess[] = [];
const pools: WarmWorkers[] = [];
afterEach(() => {
  for (const pool of pools.splice(0)) pool.stop();
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

describe('warm workers', () => {
  test('one taken over is the worker vitest asked for: its entry alone, the environment it asked for', async () => {
    const warm = new WarmWorkers(1, () => spawn());
    pools.push(warm);
    const child = await warm.take(spawn({ PATH: process.env.PATH, ASKED: 'by vitest', VITEST: 'true', UNSET: undefined }));
    expect(child).toBeDefined();
    started.push(child!);
    const { argv, env } = await seen(child!);
    expect(argv).toEqual([ENTRY]);
    expect(env).toMatchObject({ ASKED: 'by vitest', VITEST: 'true' });
    expect(env.WARM).toBeUndefined();
    expect('UNSET' in env).toBe(false);
    // One was forked: there is no second to take.
    expect(await warm.take(spawn())).toBeUndefined();
  });

  test('one forked with other node arguments or another entry is not taken, and stops unused', async () => {
    const warm = new WarmWorkers(1, () => spawn());
    pools.push(warm);
    expect(await warm.take({ ...spawn(), execArgv: ['--no-deprecation'] })).toBeUndefined();
    expect(await warm.take({ ...spawn(), entry: `${ENTRY}.other` })).toBeUndefined();
    expect(forkedHere()).toHaveLength(1);
    warm.stop();
    await until(() => forkedHere().length === 0);
    expect(await warm.take(spawn())).toBeUndefined();
  });
});
