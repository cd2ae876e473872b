/**
 * Renders the flaky-path report as Markdown (for CI job summaries and PR comments) and as a
 * self-contained HTML page (no scripts, no external assets: it opens from an artifact zip).
 * Everything that came from a spec or a failure message is escaped.
 */
import type { PathState, PathStats } from './stats.ts';
import { escapeHtml } from '../safe-text.ts';

export interface FlakyReportMeta {
  /** ISO time the report was made. */
  readonly generatedAt: string;
  readonly recentWindow: number;
}

const percent = (rate: number): string => `${Math.round(rate * 100)}%`;

const STATE_LABEL: Readonly<Record<PathState, string>> = {
  flaky: 'flaky',
  failing: 'always fails',
  stable: 'stable',
  unknown: 'no verdict yet',
};

/** "action 3 (5×)": the action where the path fails most, 1-based as in the Allure steps. */
export function failingActionText(stats: PathStats): string {
  if (stats.worstAction === undefined) return '';
  const count = stats.failureHistogram[stats.worstAction] ?? 0;
  return `action ${stats.worstAction + 1} (${count}×)`;
}

function lastFailureText(stats: PathStats): string {
  const last = stats.lastFailure;
  if (!last) return '';
  const category = last.category ? `[${last.category}] ` : '';
  return `${category}${last.reason ?? last.status}`;
}

/** "spec edited 1×, no path 2×": the runs left out of the flakiness, by reason. */
export function leftOutText(stats: PathStats): string {
  const counts = new Map<string, number>();
  for (const c of stats.changes) counts.set(c.reason, (counts.get(c.reason) ?? 0) + 1);
  return [...counts].map(([reason, n]) => `${reason} ${n}×`).join(', ');
}

const recentText = (s: PathStats): string => (s.recentRuns === 0 ? '–' : `${percent(s.recentSuccessRate)} of ${s.recentRuns}`);

// ---- Markdown ---------------------------------------------------------------------------------

/** Table cells: no line breaks, pipes escaped, long text cut. */
const mdCell = (text: string, max = 120): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  const cut = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  return cut.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;');
};

export function renderMarkdown(stats: readonly PathStats[], meta: FlakyReportMeta): string {
  const flaky = stats.filter((s) => s.state === 'flaky').length;
  const failing = stats.filter((s) => s.state === 'failing').length;
  const lines = [
    '# Flaky paths',
    '',
    `${stats.length} paths, ${flaky} flaky, ${failing} always failing over the last ${meta.recentWindow} runs. ` +
      `Generated ${meta.generatedAt}.`,
    '',
    '| # | Path | State | Flakiness | Recent success | Overall | Flips | Heals | Passed on retry | Runs | Mean / p95 | Failing action | Last failure | Not flakes |',
    '|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|',
    ...stats.map(
      (s, i) =>
        `| ${i + 1} | ${mdCell(s.key)} | ${STATE_LABEL[s.state]} | ${s.flakiness.toFixed(2)} | ${recentText(s)} | ` +
        `${percent(s.successRate)} | ${s.flips} | ${s.heals} | ${s.retriedPasses} | ${s.runs}${s.broken > 0 ? ` (${s.broken} broken)` : ''} | ` +
        `${s.meanMs} / ${s.p95Ms} ms | ` +
        `${failingActionText(s)} | ${mdCell(lastFailureText(s))} | ${mdCell(leftOutText(s))} |`,
    ),
    '',
    '*Not flakes*: runs left out of the flakiness — the goal had no path (`--learn off`, or learning failed), or its spec or path changed since the run before (the recent window starts after the last change).',
    '',
  ];
  return lines.join('\n');
}

// ---- HTML -------------------------------------------------------------------------------------

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px; color: #1d2330; }
h1 { font-size: 22px; margin: 0 0 4px; }
p.meta { color: #5b6475; margin: 0 0 16px; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 6px 10px; border-bottom: 1px solid #e3e6ec; text-align: left; vertical-align: top; }
th { background: #f4f6f9; font-weight: 600; position: sticky; top: 0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.path code { font-size: 13px; }
td.reason { max-width: 460px; overflow-wrap: anywhere; color: #3a4252; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; white-space: nowrap; }
.flaky { background: #fff0c2; color: #7a5200; }
.failing { background: #ffd9d6; color: #8c1d13; }
.stable { background: #d9f5df; color: #1d6b32; }
.unknown { background: #e8eaef; color: #4a5160; }
.bar { display: inline-block; height: 8px; background: #e8a317; border-radius: 4px; vertical-align: middle; margin-right: 6px; }
small { color: #6b7385; }
`;

function htmlRow(s: PathStats, rank: number): string {
  const last = s.lastFailure;
  const lastCell = last ? `${escapeHtml(lastFailureText(s))}<br><small>${escapeHtml(last.ts)}</small>` : '';
  const bar = `<span class="bar" style="width:${Math.round(s.flakiness * 60)}px"></span>`;
  return [
    '<tr>',
    `<td class="num">${rank}</td>`,
    `<td class="path"><code>${escapeHtml(s.spec)}</code><br><b>${escapeHtml(s.goal)}</b></td>`,
    `<td><span class="badge ${s.state}">${STATE_LABEL[s.state]}</span></td>`,
    `<td class="num">${bar}${s.flakiness.toFixed(2)}</td>`,
    `<td class="num">${recentText(s)}</td>`,
    `<td class="num">${percent(s.successRate)}</td>`,
    `<td class="num">${s.flips}</td>`,
    `<td class="num">${s.heals}</td>`,
    `<td class="num">${s.retriedPasses}</td>`,
    `<td class="num">${s.runs}${s.broken > 0 ? ` <small>(${s.broken} broken)</small>` : ''}</td>`,
    `<td class="num">${s.meanMs} / ${s.p95Ms} ms</td>`,
    `<td>${escapeHtml(failingActionText(s))}</td>`,
    `<td class="reason">${lastCell}</td>`,
    `<td class="reason">${escapeHtml(leftOutText(s))}</td>`,
    '</tr>',
  ].join('');
}

export function renderHtml(stats: readonly PathStats[], meta: FlakyReportMeta): string {
  const flaky = stats.filter((s) => s.state === 'flaky').length;
  const failing = stats.filter((s) => s.state === 'failing').length;
  const body =
    stats.length === 0
      ? '<p>No runs recorded yet: the history is empty.</p>'
      : `<table>
<thead><tr><th>#</th><th>Path</th><th>State</th><th>Flakiness</th><th>Recent success</th><th>Overall</th>` +
        `<th>Flips</th><th>Heals</th><th>Passed on retry</th><th>Runs</th><th>Mean / p95</th><th>Failing action</th><th>Last failure</th><th>Not flakes</th></tr></thead>
<tbody>
${stats.map((s, i) => htmlRow(s, i + 1)).join('\n')}
</tbody>
</table>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>retrace · flaky paths</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Flaky paths</h1>
<p class="meta">${stats.length} paths · ${flaky} flaky · ${failing} always failing · recent window ${meta.recentWindow} runs · generated ${escapeHtml(meta.generatedAt)}</p>
${body}
<p class="meta"><small>Every attempt is a run: a goal retried with --retry counts each failed attempt. Flakiness = 0.5 × (1 − recent clean-pass rate) + 0.5 × flips / (recent runs − 1),
for paths whose recent runs are neither all clean passes nor all failures; a healed pass is a flake. Broken runs (infrastructure faults) are not counted in success rates.
Not flakes: runs where the goal had no path, or whose spec or path changed since the run before, are left out of the flakiness; the recent window starts after the last change.</small></p>
</body>
</html>
`;
}
