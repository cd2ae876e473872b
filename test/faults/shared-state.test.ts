/**
 * State that several processes share: the run history, appended by every `retrace run` at once,
 * and the path store's lock files. No update is lost: the history holds exactly one line per
 * goal run, and `retrace paths --json` adds them up. What a killed process leaves behind (a lock
 * owned by a dead pid, a torn last history line, temp files of an atomic write) never blocks or
 * corrupts the next run.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Project, REPO } from '../support/project.ts';
import { isAlive, pollFor, startCli } from '../support/faults-cli.ts';
import { readHistory, TORN_MARK, type HistoryRecord } from '../../src/report/history.ts';
import { computePathStats } from '../../src/report/stats.ts';

const specOf = (name: string, ids: readonly string[]): string => `name: ${name}
app:
  launch: \${env.FIXTURES}/open calculator
  window: Retrace Calculator
goals:
${ids
  .map(
    (id, i) => `  - id: ${id}
    steps:
      - wait: ${10 * (i + 1)}
    expect:
      - window: Retrace Calculator
`,
  )
  .join('')}`;

/** A pid that belonged to a process of this host that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn('true');
  await new Promise((resolve) => child.on('exit', resolve));
  const pid = child.pid!;
  expect(isAlive(pid)).toBe(false);
  return pid;
}

describe('two runs at once on one project', () => {
  const project = new Project().write('specs/a.yaml', specOf('A', ['one', 'two'])).write('specs/b.yaml', specOf('B', ['three', 'four']));
  const reports = join(project.root, 'reports');
  const lockFile = join(project.root, 'paths/specs/a/one.path.json.lock');
  const leftovers = ['paths/specs/a/.one.path.json.4194000.0.tmp', 'paths/specs/a/one.assets/.0123456789abcdef.png.4194000.1.tmp'];

  beforeAll(async () => {
    // What a writer killed at the wrong moment leaves: the lock of the path "one" is about to
    // save, owned by a dead pid of this host; a torn history line; the temp files of an atomic write.
    project.write('paths/specs/a/one.path.json.lock', JSON.stringify({ pid: await deadPid(), host: hostname() }));
    project.write('reports/history/runs.jsonl', '{"v":1,"runId":"killed","ts":"2026-01-01T00:00:00.000Z","spec":"specs/a.ya');
    for (const file of leftovers) project.write(file, '{"half": ');

    const round = async (argsList: string[][]): Promise<void> => {
      const clis = argsList.map((args) => ({ args: args.join(' '), cli: startCli(project, args) }));
      for (const { args, cli } of clis) {
        const end = await cli.ended;
        expect(end.code, `retrace ${args}\n${cli.output}`).toBe(0);
      }
    };
    // Round 1 records the four goals, in two processes at once.
    await round([
      ['run', 'specs/a.yaml'],
      ['run', 'specs/b.yaml'],
    ]);
    // Round 2 replays: two workers in one process, and a second process beside it.
    await round([
      ['run', 'specs/a.yaml', 'specs/b.yaml', '--workers', '2'],
      ['run', 'specs/a.yaml'],
    ]);
  }, 180_000);

  test('a lock left by a dead process does not block the run that needs it', () => {
    // Not reaped, it would have ended the run with exit 3 after the 30 s wait for a live owner
    // (the run's exit code is checked in beforeAll); its file is gone and the path was saved.
    expect(existsSync(lockFile)).toBe(false);
    expect(project.exists('paths/specs/a/one.path.json')).toBe(true);
  });

  test('the history has exactly one line per goal run: none lost, none torn mid-file', async () => {
    const expected = 2 + 2 + 4 + 2;
    const lines = project
      .read('reports/history/runs.jsonl')
      .split('\n')
      .filter((l) => l !== '');
    // Every line is a record, except the torn one the first appender sealed (and a spare seal).
    const records = lines.filter((l) => !l.endsWith(TORN_MARK));
    expect(records).toHaveLength(expected);
    for (const line of records) expect(() => JSON.parse(line) as HistoryRecord).not.toThrow();
    const warnings: string[] = [];
    const history = await readHistory(reports, { warn: (m) => warnings.push(m) });
    expect(history).toHaveLength(expected);
    expect(warnings.length, 'the torn line is reported, once').toBe(1);
    expect(new Set(history.map((r) => r.runId)).size, 'four runs').toBe(4);
    expect(history.every((r) => r.status === 'passed')).toBe(true);
  });

  test('`retrace paths --json` statistics add up to the history', async () => {
    const cli = startCli(project, ['paths', '--json']);
    const end = await cli.ended;
    expect(end.code, cli.output).toBe(0);
    const rows = JSON.parse(end.stdout) as { path: string; runs: number; successRate: number }[];
    const byPath = Object.fromEntries(rows.map((r) => [r.path, r]));
    expect(Object.keys(byPath).sort()).toEqual(['specs/a.yaml#one', 'specs/a.yaml#two', 'specs/b.yaml#four', 'specs/b.yaml#three']);
    expect(byPath['specs/a.yaml#one']).toMatchObject({ runs: 3, successRate: 1 });
    expect(byPath['specs/a.yaml#two']).toMatchObject({ runs: 3, successRate: 1 });
    expect(byPath['specs/b.yaml#three']).toMatchObject({ runs: 2, successRate: 1 });
    expect(byPath['specs/b.yaml#four']).toMatchObject({ runs: 2, successRate: 1 });
    expect(rows.reduce((n, r) => n + r.runs, 0)).toBe(10);
  });

  test('temp files of a killed atomic write are cleaned up by the next save', () => {
    const left = leftovers.filter((f) => project.exists(f));
    expect(left, 'temp files left behind under paths/').toEqual([]);
  });
});

/** A child process that appends `count` records (one appendHistory call each, every fifth a batch of 3). */
const APPENDER = `
import { appendHistory } from ${JSON.stringify(join(REPO, 'src/report/history.ts'))};
import { existsSync, writeFileSync } from 'node:fs';
const [dir, who, count] = process.argv.slice(-3);
writeFileSync(dir + '/ready-' + who, '');
while (!existsSync(dir + '/go')) await new Promise((r) => setTimeout(r, 2));
const record = (i) => ({ v: 1, runId: who, ts: new Date().toISOString(), spec: 'specs/s.yaml', goal: 'g', status: i % 7 ? 'passed' : 'failed',
  mode: 'replayed', modelCalls: 0, durationMs: i, retries: 0, healed: false, ...(i % 7 ? {} : { reason: 'x'.repeat(250) }) });
for (let i = 0; i < Number(count); i++) {
  await appendHistory(dir, i % 5 === 4 ? [record(i), record(i), record(i)] : [record(i)]);
}
`;

describe('appends from many processes at once', () => {
  test('4 processes × 100 appends: every record lands, whole, once', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'retrace-history-'));
    mkdirSync(join(dir, 'history'), { recursive: true });
    const script = join(dir, 'append.mjs');
    writeFileSync(script, APPENDER);
    const writers = ['w1', 'w2', 'w3', 'w4'].map((who) =>
      spawn(process.execPath, ['--import', 'tsx', script, dir, who, '100'], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] }),
    );
    const stderr = writers.map(() => '');
    writers.forEach((w, i) => w.stderr!.on('data', (d: Buffer) => (stderr[i] += d.toString())));
    const exits = writers.map((w) => new Promise<number | null>((resolve) => w.on('close', resolve)));
    // All four load, then wait for the start signal, so their appends overlap.
    await pollFor('the writers to be ready', () => (writers.every((_, i) => existsSync(join(dir, `ready-w${i + 1}`))) ? true : undefined));
    writeFileSync(join(dir, 'go'), '');
    const codes = await Promise.all(exits);
    expect(codes, stderr.join('\n')).toEqual([0, 0, 0, 0]);

    // 100 calls each: 80 single records and 20 batches of 3.
    const perWriter = 80 + 20 * 3;
    const text = readFileSync(join(dir, 'history', 'runs.jsonl'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(4 * perWriter);
    // The writers did overlap: their lines are interleaved, not four blocks one after another.
    const owners = lines.map((l) => (JSON.parse(l) as HistoryRecord).runId);
    expect(owners.filter((o, i) => i > 0 && o !== owners[i - 1]).length, 'writer switches in the file').toBeGreaterThan(3);
    const warnings: string[] = [];
    const records = await readHistory(dir, { warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([]);
    expect(records).toHaveLength(4 * perWriter);
    for (const who of ['w1', 'w2', 'w3', 'w4']) expect(records.filter((r) => r.runId === who)).toHaveLength(perWriter);
    expect(computePathStats(records)[0]).toMatchObject({ runs: 4 * perWriter });
    expect(readdirSync(join(dir, 'history'))).toEqual(['runs.jsonl']);
  });
});
