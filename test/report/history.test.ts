import { execFile } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { InvalidInputError } from '../../src/errors.ts';
import { MAX_REASON_CHARS, TORN_MARK, appendHistory, historyFile, readHistory, type HistoryRecord } from '../../src/report/history.ts';

const run = promisify(execFile);

const record = (over: Partial<HistoryRecord> = {}): HistoryRecord => ({
  v: 1,
  runId: 'r1',
  ts: '2026-01-01T00:00:00.000Z',
  spec: 'specs/calc.yaml',
  goal: 'add',
  status: 'passed',
  mode: 'replayed',
  modelCalls: 0,
  durationMs: 500,
  retries: 0,
  healed: false,
  ...over,
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'retrace-history-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('appendHistory', () => {
  test('two processes appending 200 lines each lose and tear nothing', async () => {
    const worker = join(import.meta.dirname, 'fixtures', 'append-worker.ts');
    await Promise.all(['a', 'b'].map((id) => run(process.execPath, ['--import', 'tsx', worker, dir, id, '200'], { timeout: 60_000 })));
    const text = readFileSync(historyFile(dir), 'utf8');
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    // A lone seal mark is harmless: an appender may glimpse another's write in progress
    // (see history.ts); readers skip it silently.
    const sealed = lines.filter((line) => line === TORN_MARK).length;
    expect(lines.filter((line) => line !== TORN_MARK)).toHaveLength(400);
    expect(lines.filter((line) => line.includes(TORN_MARK))).toHaveLength(sealed);
    const records = lines.filter((line) => line !== TORN_MARK).map((line) => JSON.parse(line) as HistoryRecord);
    for (const id of ['a', 'b']) {
      const mine = records.filter((r) => r.runId === `worker-${id}`);
      expect(mine).toHaveLength(200);
      // Each worker's lines keep their order.
      expect(mine.map((r) => r.durationMs)).toEqual(Array.from({ length: 200 }, (_, i) => 100 + i));
    }
    expect(await readHistory(dir)).toHaveLength(400);
  });

  test('a record is one line; a long reason is cut to keep lines small', async () => {
    await appendHistory(dir, [record({ reason: 'x'.repeat(10_000) }), record({ goal: 'multiply' })]);
    const lines = readFileSync(historyFile(dir), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const [first] = await readHistory(dir);
    expect(first?.reason?.length).toBe(MAX_REASON_CHARS);
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThan(4096);
  });

  test('round-trips every field', async () => {
    const full = record({
      status: 'failed',
      failedAction: 2,
      category: 'target-not-found',
      reason: 'no "7" button',
      retries: 1,
      healed: true,
    });
    await appendHistory(dir, [full]);
    expect(await readHistory(dir)).toEqual([full]);
  });
});

describe('readHistory', () => {
  test('a missing file is an empty history', async () => {
    expect(await readHistory(dir)).toEqual([]);
  });

  test('a malformed line is invalid input naming the file and line', async () => {
    mkdirSync(join(dir, 'history'));
    const good = JSON.stringify(record());
    writeFileSync(historyFile(dir), `${good}\n${good}\n{"v":1,"runId":"r"\n${good}\n`);
    const error = await readHistory(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).location).toEqual({ file: historyFile(dir), line: 3 });
    expect((error as Error).message).toMatch(/runs\.jsonl:3: expected one JSON object per line/);
  });

  test('a line of the wrong shape says which field', async () => {
    mkdirSync(join(dir, 'history'));
    writeFileSync(historyFile(dir), `${JSON.stringify(record())}\n${JSON.stringify({ ...record(), status: 'green' })}\n`);
    await expect(readHistory(dir)).rejects.toThrow(
      /runs\.jsonl:2: not a history record: status must be one of passed, failed, broken, skipped, got "green"/,
    );
  });

  test('an unterminated last line (a killed writer) is ignored with a warning', async () => {
    mkdirSync(join(dir, 'history'));
    writeFileSync(historyFile(dir), `${JSON.stringify(record())}\n{"v":1,"runId":"r2","ts":"2026`);
    const warnings: string[] = [];
    const records = await readHistory(dir, { warn: (m) => warnings.push(m) });
    expect(records).toHaveLength(1);
    expect(warnings).toEqual([expect.stringMatching(/runs\.jsonl:2: ignored an unterminated last line/)]);
  });

  test('appending after a torn line seals it, so the file stays readable', async () => {
    mkdirSync(join(dir, 'history'));
    writeFileSync(historyFile(dir), `${JSON.stringify(record())}\n{"v":1,"runId":"torn`);
    await appendHistory(dir, [record({ goal: 'after' })]);
    expect(readFileSync(historyFile(dir), 'utf8')).toContain(`torn${TORN_MARK}\n`);
    const warnings: string[] = [];
    const records = await readHistory(dir, { warn: (m) => warnings.push(m) });
    expect(records.map((r) => r.goal)).toEqual(['add', 'after']);
    expect(warnings).toEqual([expect.stringMatching(/runs\.jsonl:2: skipped a line torn/)]);
  });

  test('blank lines are allowed (concatenated shards may leave them)', async () => {
    mkdirSync(join(dir, 'history'));
    appendFileSync(historyFile(dir), `${JSON.stringify(record())}\n\n${JSON.stringify(record({ goal: 'b' }))}\n`);
    expect(await readHistory(dir)).toHaveLength(2);
  });
});
