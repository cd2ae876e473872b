import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { computePathStats } from '../../src/report/stats.ts';
import { writeFlakyReport, type FlakyReportJson } from '../../src/report/flaky-report.ts';
import { fromPattern, rec } from './records.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'retrace-flaky-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const history = [
  ...fromPattern('always-passes', 'PPPPPPPPPPPP'),
  ...fromPattern('always-fails', 'FFFFFFFFFFFF'),
  ...fromPattern('flips', 'PFPFPFPFPFPF', { reason: 'no <b>"7"</b> & no "8"' }),
  rec(-1, { goal: 'flips', status: 'broken' }),
];

test('ranks a 50%-flipping path above an always-failing one, and that above a 100% one', async () => {
  const files = await writeFlakyReport(dir, computePathStats(history), { now: new Date('2026-02-01T00:00:00Z') });
  const json = JSON.parse(readFileSync(files.json, 'utf8')) as FlakyReportJson;
  expect(json.paths.map((p) => `${p.goal}:${p.state}`)).toEqual(['flips:flaky', 'always-fails:failing', 'always-passes:stable']);
  expect(json).toMatchObject({ v: 1, generatedAt: '2026-02-01T00:00:00.000Z', recentWindow: 20 });

  const md = readFileSync(files.markdown, 'utf8');
  const rows = md.split('\n').filter((line) => line.startsWith('| ') && /^\| \d/.test(line));
  expect(rows.map((r) => r.split(' | ')[1])).toEqual([
    'specs/calc.yaml#flips',
    'specs/calc.yaml#always-fails',
    'specs/calc.yaml#always-passes',
  ]);
  expect(rows[0]).toContain('50% of 12');
  expect(rows[0]).toContain('action 3 (6×)');
  // The Markdown has the columns the page has: runs with the broken ones, mean and p95.
  expect(rows[0]).toMatch(/ \| 13 \(1 broken\) \| \d+ \/ \d+ ms \| /);

  const html = readFileSync(files.html, 'utf8');
  expect(html.indexOf('flips</b>')).toBeLessThan(html.indexOf('always-fails</b>'));
  expect(html.indexOf('always-fails</b>')).toBeLessThan(html.indexOf('always-passes</b>'));
  // The reason is escaped, and the page is self-contained.
  expect(html).toContain('no &lt;b&gt;&quot;7&quot;&lt;/b&gt; &amp; no &quot;8&quot;');
  expect(html).not.toContain('<b>"7"');
  expect(html).not.toMatch(/<script|<link|src="http/);
  // Written atomically: no temp files left behind.
  expect(readdirSync(dir).sort()).toEqual(['flaky-paths.html', 'flaky-paths.json', 'flaky-paths.md']);
});

test('an empty history gives a report that says so', async () => {
  const files = await writeFlakyReport(dir, []);
  expect(readFileSync(files.html, 'utf8')).toContain('history is empty');
  expect((JSON.parse(readFileSync(files.json, 'utf8')) as FlakyReportJson).paths).toEqual([]);
});
