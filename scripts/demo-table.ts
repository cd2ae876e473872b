/** Prints the demo's learn run next to its replay run, goal by goal. */
import { readFileSync } from 'node:fs';
import { parseSummary } from '../src/report/summary.ts';
import type { Verdict } from '../src/domain.ts';

const [learnFile, replayFile] = process.argv.slice(2);
if (!learnFile || !replayFile) throw new Error('usage: demo-table <learn summary> <replay summary>');
const learn = parseSummary(readFileSync(learnFile, 'utf8'), learnFile);
const replay = parseSummary(readFileSync(replayFile, 'utf8'), replayFile);

const cell = (v: Verdict | undefined): string[] => {
  if (!v) return ['—', '—', '—', '—'];
  const verified = v.actions.filter((a) => a.verified).length;
  return [`${(v.durationMs / 1000).toFixed(1)} s`, String(v.modelCalls), `${v.mode} (${v.status})`, `${verified}/${v.actions.length}`];
};
const rows = [['goal', 'learn: time', 'calls', 'mode', 'verified', 'replay: time', 'calls', 'mode', 'verified']];
for (const g of learn.goals) {
  const r = replay.goals.find((x) => x.spec === g.spec && x.goal === g.goal);
  rows.push([`${g.spec}#${g.goal}`, ...cell(g), ...cell(r)]);
}
const total = (s: typeof learn): string[] => [`${(s.totals.durationMs / 1000).toFixed(1)} s`, String(s.totals.modelCalls), `${s.totals.passed}/${s.goals.length} passed`, ''];
rows.push(['total (wall clock)', ...total(learn), ...total(replay)]);
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
for (const [n, row] of rows.entries()) {
  console.log(row.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  '));
  if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
const speedup = learn.totals.durationMs / Math.max(1, replay.totals.durationMs);
console.log(`\nreplay: ${replay.totals.modelCalls} model calls, ${speedup.toFixed(1)}× the speed of learning`);
console.log('reports: reports/summary.json, reports/allure-report/index.html, reports/flaky-paths.html');
