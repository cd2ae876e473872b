import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { readSummary, totalsOf, writeSummary } from '../../src/report/summary.ts';
import { verdictOf } from './records.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'retrace-summary-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const goal = verdictOf('multiply');

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

test('the time splits are read back, and a bad one is named by its JSON path', async () => {
  const phases = { startMs: 4310, launchMs: 1210, readyMs: 790, actionsMs: 450, holdMs: 310, checkMs: 540, reportMs: 120 };
  const startup = { cliMs: 640, engineMs: 1830, displayMs: 1450, loadMs: 90 };
  const summary = { totals: totalsOf([goal], 9000), startup, goals: [{ ...goal, phases }] };
  await writeSummary(dir, summary);
  expect(await readSummary(dir)).toEqual(summary);
  writeFileSync(join(dir, 'summary.json'), JSON.stringify({ ...summary, goals: [{ ...goal, phases: { ...phases, holdMs: -1 } }] }));
  await expect(readSummary(dir)).rejects.toThrow(/goals\[0\]\.phases\.holdMs must be a number ≥ 0, got -1/);
  writeFileSync(join(dir, 'summary.json'), JSON.stringify({ ...summary, startup: { cliMs: 1, engineMs: 2 } }));
  await expect(readSummary(dir)).rejects.toThrow(/startup\.displayMs must be a number ≥ 0, got nothing/);
  // Written before loadMs was measured: still read.
  writeFileSync(join(dir, 'summary.json'), JSON.stringify({ ...summary, startup: { cliMs: 1, engineMs: 2, displayMs: 3 } }));
  await expect(readSummary(dir)).resolves.toMatchObject({ startup: { displayMs: 3 } });
  writeFileSync(join(dir, 'summary.json'), JSON.stringify({ ...summary, startup: { ...startup, loadMs: -5 } }));
  await expect(readSummary(dir)).rejects.toThrow(/startup\.loadMs must be a number ≥ 0, got -5/);
  writeFileSync(join(dir, 'summary.json'), JSON.stringify({ ...summary, goals: [{ ...goal, phases: 12 }] }));
  await expect(readSummary(dir)).rejects.toThrow(/goals\[0\]\.phases must be a mapping, got 12/);
});
