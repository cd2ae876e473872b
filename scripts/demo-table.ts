/**
 * Prints the demo's learn run next to its replay run: per goal, where its time went in each run
 * (summary.json `phases`), and per action its time learned and replayed. The closing line
 * compares what replay speeds up, the actions, apart from what both runs do alike (start the
 * run, launch the app, hold and check the final screen), so a goal that replays in about the
 * time it learned is not read as "replay is no faster".
 */
import { readFileSync } from 'node:fs';
import { parseSummary } from '../src/report/summary.ts';
import type { GoalPhases, Verdict } from '../src/domain.ts';
import { splitLine } from '../src/runner/goal-clock.ts';

const [learnFile, replayFile] = process.argv.slice(2);
if (!learnFile || !replayFile) throw new Error('usage: demo-table <learn summary> <replay summary>');
const learn = parseSummary(readFileSync(learnFile, 'utf8'), learnFile);
const replay = parseSummary(readFileSync(replayFile, 'utf8'), replayFile);

const SPLIT = ['launchMs', 'readyMs', 'actionsMs', 'holdMs', 'checkMs'] as const satisfies readonly (keyof GoalPhases)[];
const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

const cells = (run: string, v: Verdict | undefined): string[] => {
  if (!v) return [run, '—', ...SPLIT.map(() => '—'), '—', '—'];
  const verified = v.actions.filter((a) => a.verified).length;
  return [run, s(v.durationMs), ...SPLIT.map((p) => (v.phases ? s(v.phases[p]) : '—')), String(v.modelCalls), `${v.mode} (${v.status}), ${verified}/${v.actions.length} verified`];
};
const rows = [['goal', 'run', 'time', 'launch', 'ready', 'actions', 'hold', 'check', 'calls', 'mode']];
const actionLines: string[] = [];
for (const g of learn.goals) {
  const r = replay.goals.find((x) => x.spec === g.spec && x.goal === g.goal);
  rows.push([`${g.spec}#${g.goal}`, ...cells('learn', g)], ['', ...cells('replay', r)]);
  const pairs = g.actions.map((a, i) => `${a.description ?? a.kind} ${a.ms} → ${r?.actions[i]?.ms ?? '—'}`);
  if (pairs.length > 0) actionLines.push(`  ${g.spec}#${g.goal}: ${pairs.join(' · ')}`);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
for (const [n, row] of rows.entries()) {
  console.log(row.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd());
  if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
console.log('\nms per action, learned → replayed (the replay\'s waits before and after included):');
for (const line of actionLines) console.log(line);

const sum = (goals: readonly Verdict[], pick: (v: Verdict) => number): number => goals.reduce((n, v) => n + pick(v), 0);
const actions = (goals: readonly Verdict[]): number => sum(goals, (v) => v.actions.reduce((n, a) => n + a.ms, 0));
const other = (goals: readonly Verdict[]): number => sum(goals, (v) => v.durationMs) - actions(goals);
const [learnActions, replayActions] = [actions(learn.goals), actions(replay.goals)];
console.log('');
for (const [name, run] of [['learn', learn], ['replay', replay]] as const) {
  console.log(`${name}: ${run.totals.passed}/${run.goals.length} passed, ${run.totals.modelCalls} model calls, ${s(run.totals.durationMs)} wall clock${run.startup ? ` (start-up: ${splitLine(run.startup)})` : ''}`);
}
console.log(
  `\nreplay: the actions took ${s(replayActions)} against ${s(learnActions)} to learn` +
    (replayActions > 0 ? ` (${(learnActions / replayActions).toFixed(1)}× faster)` : '') +
    `; the rest of the goals' time (launching the apps, waiting for them to be ready, holding and checking the final screens): ${s(other(learn.goals))} learning, ${s(other(replay.goals))} replaying.`,
);
console.log('reports: reports/summary.json, reports/allure-report/index.html, reports/flaky-paths.html');
