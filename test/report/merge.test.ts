import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Verdict } from '../../src/domain.ts';
import { InvalidInputError } from '../../src/errors.ts';
import { appendHistory, readHistory } from '../../src/report/history.ts';
import { mergeReports } from '../../src/report/merge.ts';
import { readSummary, totalsOf, writeSummary, type Summary } from '../../src/report/summary.ts';
import { rec, verdictOf } from './records.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'retrace-merge-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const summaryOf = (goals: Verdict[], durationMs: number): Summary => ({ totals: totalsOf(goals, durationMs), goals });

/** A shard's reports dir: summary, history (cached lines + its own), allure results. */
async function shard(name: string, goals: Verdict[], durationMs: number, ownRuns: number[]): Promise<string> {
  const dir = join(root, name);
  await writeSummary(dir, summaryOf(goals, durationMs));
  // Both shards restored the same CI cache: runs 0 and 1.
  await appendHistory(dir, [rec(0), rec(1), ...ownRuns.map((i) => rec(i, { goal: name }))]);
  mkdirSync(join(dir, 'allure-results'), { recursive: true });
  writeFileSync(join(dir, 'allure-results', `${name}-uuid-result.json`), '{}');
  writeFileSync(join(dir, 'allure-results', `${name}-uuid-attachment.png`), name);
  writeFileSync(join(dir, 'allure-results', 'categories.json'), '[]');
  return dir;
}

describe('mergeReports', () => {
  test('sums totals exactly, concatenates goals, dedupes cached history, copies results', async () => {
    const a = await shard(
      'a',
      [verdictOf('add', 'passed'), verdictOf('mul', 'failed', { modelCalls: 2 }), verdictOf('sub', 'skipped')],
      1200,
      [10, 11],
    );
    const b = await shard('b', [verdictOf('div', 'broken'), verdictOf('neg', 'passed', { modelCalls: 3 })], 3400, [12]);
    const out = join(root, 'out');

    const report = await mergeReports(out, [a, b]);

    const merged = await readSummary(out);
    expect(merged.totals).toEqual({ passed: 2, failed: 1, broken: 1, skipped: 1, modelCalls: 5, durationMs: 4600 });
    expect(merged.goals.map((g) => g.goal)).toEqual(['add', 'mul', 'sub', 'div', 'neg']);
    const history = await readHistory(out);
    expect(history.map((r) => r.runId)).toEqual(['run-0', 'run-1', 'run-10', 'run-11', 'run-12']);
    expect(report).toEqual({ goals: 5, historyRecords: 5, duplicates: 2, allureFiles: 6 });
    expect(readdirSync(join(out, 'allure-results')).sort()).toEqual([
      'a-uuid-attachment.png',
      'a-uuid-result.json',
      'b-uuid-attachment.png',
      'b-uuid-result.json',
      'categories.json',
    ]);
  });

  test('merging again into the same target is idempotent for the history', async () => {
    const a = await shard('a', [verdictOf('add', 'passed')], 10, [10]);
    const out = join(root, 'out');
    await mergeReports(out, [a]);
    await mergeReports(out, [a]);
    expect(await readHistory(out)).toHaveLength(3);
  });

  test('an invalid summary is invalid input naming the file, and nothing is written', async () => {
    const a = await shard('a', [verdictOf('add', 'passed')], 10, [10]);
    const b = await shard('b', [verdictOf('div', 'passed')], 10, [11]);
    const bad = JSON.parse(readFileSync(join(b, 'summary.json'), 'utf8')) as { goals: { status: string }[] };
    bad.goals[0]!.status = 'green';
    writeFileSync(join(b, 'summary.json'), JSON.stringify(bad));
    const out = join(root, 'out');

    const error = await mergeReports(out, [a, b]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).location?.file).toBe(join(b, 'summary.json'));
    expect((error as Error).message).toContain('goals[0].status must be one of passed, failed, broken, skipped, got "green"');
    expect(existsSync(out)).toBe(false);
  });

  test('a missing summary and a broken JSON file are invalid input too', async () => {
    const a = await shard('a', [verdictOf('add', 'passed')], 10, [10]);
    const empty = join(root, 'empty');
    mkdirSync(empty);
    await expect(mergeReports(join(root, 'out'), [a, empty])).rejects.toThrow(/empty\/summary\.json: no summary\.json here/);
    writeFileSync(join(empty, 'summary.json'), '{\n  "totals": {\n    "passed": 1,,\n');
    const error = await mergeReports(join(root, 'out'), [a, empty]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).location?.line).toBe(3);
  });

  test('two different Allure files with one name are refused', async () => {
    const a = await shard('a', [verdictOf('add', 'passed')], 10, [10]);
    const b = await shard('b', [verdictOf('div', 'passed')], 10, [11]);
    writeFileSync(join(b, 'allure-results', 'a-uuid-result.json'), '{"other":true}');
    await expect(mergeReports(join(root, 'out'), [a, b])).rejects.toThrow(/clashes with/);
  });
});
