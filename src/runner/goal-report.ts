/**
 * The end of one goal attempt, in the worker that ran it, in this order: its line in the run
 * history (so a run killed a moment later still counts it), its Allure result, and its line on
 * the console. Every attempt of a retried goal ends here once.
 */
import { inject } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { ActionReport, Verdict } from '../domain.ts';
import { PathStore } from '../paths/store.ts';
import { storyboardFile, writeStoryboard } from '../report/storyboard.ts';
import { ALLURE_REPORT_DIR } from '../report/allure-html.ts';
import type { Spec, GoalSpec } from '../spec-file/types.ts';
import type { AssertionResult } from '../brain/assert/types.ts';
import { writeGoalResult } from '../report/allure-goal.ts';
import { allureResultsDir } from '../report/allure-writer.ts';
import { describeForDisplay } from '../spec-file/interpolate.ts';
import { secretMasker } from '../spec-file/secrets.ts';
import { describeAction } from '../spec-file/describe.ts';
import { computePathStats, type PathStats } from '../report/stats.ts';
import { specHashOf } from '../paths/source.ts';
import { appendHistory, readHistory, recordOfVerdict } from '../report/history.ts';
import { consoleOptions, createProgress, type GoalEnd } from './progress.ts';
import { judgedImage, type GoalEvidence } from './evidence.ts';
import { TRACE_FILE, TRACE_PAGE } from '../report/trace.ts';

/** Where the Allure report finds a goal's trace, and the command that opens its page. */
function traceLink(reportsDir: string, dir: string): { readonly page: string; readonly command: string; readonly json: string } {
  return {
    page: relative(join(reportsDir, ALLURE_REPORT_DIR), join(dir, TRACE_PAGE)).split(sep).join('/'),
    command: `npx retrace trace show ${relative(process.cwd(), dir) || dir}`,
    json: readFileSync(join(dir, TRACE_FILE), 'utf8'),
  };
}

/** The statistics of one path from the run history before this attempt (undefined when it never ran). */
export async function pathStatsOf(reportsDir: string, spec: string, goal: string): Promise<PathStats | undefined> {
  const history = (await readHistory(reportsDir)).filter((r) => r.spec === spec && r.goal === goal);
  return computePathStats(history)[0];
}

const goalText = (goal: GoalSpec): string => (goal.steps ? goal.steps.map(describeAction).join(', ') : describeForDisplay(goal.goal ?? ''));

/** The console line of an attempt: `specs/calc.yaml › add failed, retry 1/3 (replayed, …) — retrying`. */
export function goalEndOf(verdict: Verdict, retries: number, retry: number): GoalEnd {
  const attempt = retries > 0 ? `, retry ${retries}/${Math.max(retry, retries)}` : '';
  const retrying = verdict.status !== 'passed' && retries < retry ? ' — retrying' : '';
  const text =
    `${verdict.spec} › ${verdict.goal} ${verdict.status}${attempt} ` +
    `(${verdict.mode}, ${verdict.actions.length} actions, ${verdict.modelCalls} model calls, ${verdict.durationMs} ms)${retrying}`;
  const healed = verdict.actions.flatMap((a, i) =>
    a.healed ? [`  healed action ${i + 1} (${a.description ?? a.kind}): ${a.healed}`] : [],
  );
  const failure = verdict.status === 'passed' ? [] : [`  ${(verdict.message ?? '').split('\n').join('\n  ')}`];
  const more = [...healed, ...failure].join('\n') || undefined;
  return { key: `${verdict.spec}#${verdict.goal}`, passed: verdict.status === 'passed', text, ...(more !== undefined && { more }) };
}

/**
 * Records the end of a goal attempt; call it once per attempt, inside the goal's vitest test,
 * right after the verdict is known. `retries`: attempts of this goal before this one.
 */
export async function recordGoalReport(
  spec: Spec,
  goal: GoalSpec,
  verdict: Verdict,
  assertions: readonly AssertionResult[],
  evidence: GoalEvidence,
  extra: {
    readonly planner?: string;
    readonly retries: number;
    readonly pathStats?: PathStats;
    readonly storyboard?: string;
    readonly trace?: string;
  },
): Promise<void> {
  const stop = Date.now();
  const run = inject('retrace');
  const reports = run.options.reports;
  // What this attempt ran against, so a change of outcome after an edit is not counted a flake.
  const basis = { specHash: specHashOf(spec.app, goal), pathHash: new PathStore(run.options.paths).fileHash(verdict.spec, verdict.goal) };
  await appendHistory(reports, [recordOfVerdict(verdict, { runId: run.runId, retries: extra.retries, basis })]);
  writeGoalResult(allureResultsDir(reports), {
    verdict,
    specName: spec.name,
    app: describeForDisplay(spec.app.launch),
    goalText: goalText(goal),
    ...(extra.planner ? { planner: extra.planner } : {}),
    ...(extra.pathStats ? { pathStats: extra.pathStats } : {}),
    retries: extra.retries,
    ...(extra.storyboard ? { storyboard: extra.storyboard } : {}),
    ...(extra.trace ? { trace: traceLink(reports, extra.trace) } : {}),
    actions: evidence.actions(),
    assertions: assertions.map((a) => ({
      description: a.description,
      passed: a.ok,
      message: a.message,
      ms: a.ms,
      ...(a.read !== undefined ? { actual: a.read } : {}),
      ...(a.images ? { diff: a.images } : {}),
      ...(a.written ? { newBaseline: a.written } : {}),
      // Only a failed check's window goes to Allure; the trace keeps every one.
      ...(a.judged && !a.ok ? { judged: judgedImage(a.judged) } : {}),
    })),
    stop,
    thread: `worker ${process.env.VITEST_POOL_ID ?? process.pid}`,
  });

  const progress = createProgress(run.verbosity, run.tty, (text) => secretMasker.mask(text));
  for (const [i, a] of verdict.actions.entries()) {
    progress.detail(
      `  ${i + 1}. ${a.description ?? a.kind}: ${a.ms} ms (wait ${a.waitMs}, resolve ${a.resolveMs}, act ${a.actMs}, settle ${a.settleMs}, verify ${a.verifyMs})` +
        `, resolved by ${a.resolvedBy}${a.retries > 0 ? `, ${a.retries} ${a.retries === 1 ? 'retry' : 'retries'}` : ''}`,
    );
  }
  for (const a of assertions) progress.detail(`  ${a.ok ? '✓' : '✗'} ${a.description}: ${a.message}`);
  for (const warning of verdict.warnings ?? []) progress.line(`warning: ${verdict.spec} › ${verdict.goal}: ${warning}`);
  progress.goal(goalEndOf(verdict, extra.retries, consoleOptions().retry));
}

/**
 * Writes the storyboard of the goal's path as it stands after this run (with a healed proposal,
 * when one was made) and returns its URL relative to the Allure report; undefined without a path.
 */
export function goalStoryboard(
  options: { readonly paths: string; readonly reports: string },
  spec: string,
  goal: string,
  extra: {
    readonly lastRun: readonly ActionReport[];
    readonly lastRunWindows?: ReadonlyMap<number, { readonly before: Uint8Array; readonly after: Uint8Array }>;
    readonly stats?: PathStats;
  },
): string | undefined {
  const file = storyboardFile(options.reports, spec, goal);
  const written = writeStoryboard(new PathStore(options.paths), spec, goal, file, {
    lastRun: extra.lastRun,
    ...(extra.lastRunWindows ? { lastRunWindows: extra.lastRunWindows } : {}),
    ...(extra.stats ? { stats: extra.stats } : {}),
  });
  return written ? relative(join(options.reports, ALLURE_REPORT_DIR), file).split(sep).join('/') : undefined;
}
