/** The end of a run as the user sees it: a table of goals, totals, and the exit code. */
import type { RunResult } from '../runner/reporter.ts';
import { splitLine } from '../runner/goal-clock.ts';
import { terminalText } from '../safe-text.ts';

/**
 * 0 all passed; 3 when anything broke (the run itself is in doubt); 2 when what broke was invalid
 * input found once the app was up; 1 when a goal failed.
 */
export function exitCodeOf(result: RunResult): number {
  const { summary } = result;
  if (summary.totals.broken > result.invalidInput || result.unhandledErrors > 0) return 3;
  if (result.invalidInput > 0) return 2;
  if (summary.totals.failed > 0) return 1;
  if (summary.goals.length === 0) return 1;
  return 0;
}

const pad = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));

export function printRunResult(result: RunResult, reportsDir: string, quiet: boolean, verbose = false): void {
  const { summary } = result;
  const out: string[] = [];
  if (!quiet) {
    out.push('', `${pad('goal', 40)} ${pad('status', 8)} ${pad('mode', 10)} ${pad('actions', 9)} ${pad('model', 6)} time`);
    for (const g of summary.goals) {
      const verified = g.actions.filter((a) => a.verified).length;
      out.push(
        `${pad(`${g.spec}#${g.goal}`, 40)} ${pad(g.status, 8)} ${pad(g.mode, 10)} ${pad(`${verified}/${g.actions.length}`, 9)} ${pad(String(g.modelCalls), 6)} ${(g.durationMs / 1000).toFixed(1)} s`,
      );
    }
  }
  const t = summary.totals;
  out.push(
    '',
    `${t.passed} passed, ${t.failed} failed, ${t.broken} broken, ${t.skipped} skipped — ${t.modelCalls} model calls, ${(t.durationMs / 1000).toFixed(1)} s`,
  );
  if (verbose && summary.startup) out.push(`start-up: ${splitLine(summary.startup)}`);
  for (const g of result.unreported) out.push(`broken: ${g.spec}#${g.goal}: ${g.message ?? 'no reason given'}`);
  for (const b of result.newBaselines) out.push(`new baseline (not a comparison): ${b}`);
  for (const f of result.flaky) out.push(`flaky: ${f.spec}#${f.goal} passed only after healing or a retry`);
  out.push(`reports: ${reportsDir}/summary.json, ${reportsDir}/allure-results (retrace report builds the HTML)`);
  process.stdout.write(`${terminalText(out.join('\n'))}\n`);
}
