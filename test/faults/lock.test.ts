/**
 * The path store's lock under contention: several processes incrementing one counter file under
 * `withLock` lose no increment, also when every trial starts from a stale lock they all race to
 * recover. A lock that is still being written (empty) is not taken for a dead one.
 */
import { describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from '../support/project.ts';
import { pollFor } from '../support/faults-cli.ts';
import { withLock, UNREADABLE_STALE_MS } from '../../src/paths/lock.ts';

const PROCESSES = 4;
const INCREMENTS = 300;
const TRIALS = 4;

/** A child that waits for the start signal, then does `count` read-increment-write rounds under the lock. */
const INCREMENTER = `
import { withLock } from ${JSON.stringify(join(REPO, 'src/paths/lock.ts'))};
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
const [dir, who, count] = process.argv.slice(-3);
const counter = dir + '/counter';
writeFileSync(dir + '/ready-' + who, '');
while (!existsSync(dir + '/go')) await new Promise((r) => setTimeout(r, 2));
for (let i = 0; i < Number(count); i++) {
  await withLock(counter, async () => {
    const n = Number(readFileSync(counter, 'utf8'));
    // Yield inside the critical section, so that a second holder would interleave.
    await new Promise((r) => setImmediate(r));
    writeFileSync(counter, String(n + 1));
  });
}
`;

/** A pid of this host that belonged to a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn('true');
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

async function trial(script: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-lock-'));
  writeFileSync(join(dir, 'counter'), '0');
  // Every trial starts from the lock of a dead owner: all four find it stale at once.
  writeFileSync(join(dir, 'counter.lock'), JSON.stringify({ pid: await deadPid(), host: hostname() }));
  const workers = Array.from({ length: PROCESSES }, (_, i) =>
    spawn(process.execPath, ['--import', 'tsx', script, dir, `w${i}`, String(INCREMENTS)], {
      cwd: REPO,
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  );
  const stderr = workers.map(() => '');
  workers.forEach((w, i) => w.stderr!.on('data', (d: Buffer) => (stderr[i] += d.toString())));
  const exits = workers.map((w) => new Promise<number | null>((resolve) => w.on('close', resolve)));
  await pollFor('the workers to be ready', () => (workers.every((_, i) => existsSync(join(dir, `ready-w${i}`))) ? true : undefined));
  writeFileSync(join(dir, 'go'), '');
  expect(await Promise.all(exits), stderr.join('\n')).toEqual(workers.map(() => 0));
  expect(
    readdirSync(dir).filter((f) => f.includes('.lock')),
    'no lock or reap marker left',
  ).toEqual([]);
  return Number(readFileSync(join(dir, 'counter'), 'utf8'));
}

describe('withLock under contention', () => {
  test(`${PROCESSES} processes × ${INCREMENTS} locked increments = ${PROCESSES * INCREMENTS}, in each of ${TRIALS} trials`, {
    timeout: 300_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'retrace-lock-script-'));
    const script = join(dir, 'increment.mjs');
    writeFileSync(script, INCREMENTER);
    const totals: number[] = [];
    for (let i = 0; i < TRIALS; i++) totals.push(await trial(script));
    expect(totals).toEqual(totals.map(() => PROCESSES * INCREMENTS));
  });

  test('an empty lock that is still being written is not taken for a dead one', async () => {
    const target = join(mkdtempSync(join(tmpdir(), 'retrace-lock-')), 'path.json');
    writeFileSync(`${target}.lock`, '');
    await expect(withLock(target, () => 'taken', { timeoutMs: 300 })).rejects.toThrow(/Timed out waiting/);
    expect(readFileSync(`${target}.lock`, 'utf8')).toBe('');
  });

  test('an empty lock left long ago (its creator died before writing) is recovered', async () => {
    const target = join(mkdtempSync(join(tmpdir(), 'retrace-lock-')), 'path.json');
    writeFileSync(`${target}.lock`, '');
    const past = (Date.now() - UNREADABLE_STALE_MS - 60_000) / 1000;
    utimesSync(`${target}.lock`, past, past);
    await expect(withLock(target, () => 'taken', { timeoutMs: 300 })).resolves.toBe('taken');
    expect(existsSync(`${target}.lock`)).toBe(false);
  });
});
