import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { Verdict } from '../../src/domain.ts';
import { readSummary, totalsOf, writeSummary } from '../../src/report/summary.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'retrace-summary-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const goal: Verdict = {
  spec: 'specs/calc.yaml',
  goal: 'multiply',
  status: 'passed',
  mode: 'replayed',
  modelCalls: 0,
  durationMs: 790,
  actions: [{ kind: 'click', ms: 61, waitMs: 5, resolveMs: 2, actMs: 8, settleMs: 40, verifyMs: 6, retries: 0, verified: true, resolvedBy: 'recorded' }],
};

test('writes the PRODUCT.md shape and reads it back', async () => {
  const summary = { totals: totalsOf([goal], 812), goals: [goal] };
  expect(summary.totals).toEqual({ passed: 1, failed: 0, broken: 0, skipped: 0, modelCalls: 0, durationMs: 812 });
  await writeSummary(dir, summary);
  expect(readdirSync(dir)).toEqual(['summary.json']);
  expect(await readSummary(dir)).toEqual(summary);
});

test('a bad field is named by its JSON path', async () => {
  const bad = { totals: totalsOf([goal], 1), goals: [{ ...goal, actions: [{ ...goal.actions[0], resolvedBy: 'magic' }] }] };
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(bad));
  await expect(readSummary(dir)).rejects.toThrow(
    /summary\.json: not a retrace summary: goals\[0\]\.actions\[0\]\.resolvedBy must be one of element, recorded, template, ocr, model, got "magic"/,
  );
  writeFileSync(join(dir, 'summary.json'), JSON.stringify({ totals: { passed: 1 }, goals: [] }));
  await expect(readSummary(dir)).rejects.toThrow(/totals\.failed must be a number ≥ 0, got nothing/);
});
