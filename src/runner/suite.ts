/**
 * A spec as a vitest test file: one test per goal. The vitest plugin turns `specs/x.yaml`
 * into a module that calls `defineSpecSuite`, so `retrace run` and `npx vitest` share this.
 */
import { describe, test, inject, afterAll, type TestContext } from 'vitest';
import type { ActionReport, Verdict } from '../domain.ts';
import { InfrastructureError } from '../errors.ts';
import type { GoalSpec, Spec } from '../spec-file/types.ts';
import { loadSpec } from '../spec-file/load.ts';
import { loadConfig } from '../spec-file/config.ts';
import { resolveOptions } from '../spec-file/options.ts';
import { interpolate, describeForDisplay } from '../spec-file/interpolate.ts';
import { secretMasker } from '../spec-file/secrets.ts';
import type { AppSession } from '../desktop/types.ts';
import { howToLook } from '../desktop/index.ts';
import { runGoal, type Phase } from '../brain/run-goal.ts';
import type { AssertionResult } from '../brain/assert/types.ts';
import type { RunContext } from './context.ts';
import { consoleOptions, createProgress } from './progress.ts';
import { workerDesktop } from './worker-desktop.ts';
import { claudeFactories } from './claude.ts';
import { recordGoalReport, pathStatsOf, goalStoryboard, goalEndOf } from './goal-report.ts';
import { GoalEvidence } from './evidence.ts';
import { GoalTrace } from './goal-trace.ts';
import { GoalApp, type SharedApp } from './goal-app.ts';
import { brokenVerdict, verdictError, verdictOf } from './verdict.ts';
import { GoalClock, displayOpening, splitLine } from './goal-clock.ts';

const PHASE_MODES: Partial<Record<Phase, Verdict['mode']>> = { learning: 'learned', recording: 'scripted', replaying: 'replayed' };

const resolveText = (template: string): string => interpolate(template, process.env);
const mask = (text: string): string => secretMasker.mask(text);

export function defineSpecSuite(file: string): void {
  const run = inject('retrace');
  const spec = loadSpec(file, { root: run.root, env: process.env });
  // The spec's own `options:` sit between the CLI and the config file.
  const options = resolveOptions({
    root: run.root,
    cli: run.cli,
    spec,
    config: loadConfig(run.root, { env: process.env }),
    env: process.env,
  });
  const context: RunContext = { ...run, options };
  const progress = createProgress(context.verbosity, context.tty, mask);
  const goals = spec.goals.filter((g) => context.goals.length === 0 || context.goals.includes(g.id));
  let shared: AppSession | undefined;
  let keep = false;

  const closeShared = async (): Promise<void> => {
    await shared?.close();
    shared = undefined;
  };
  afterAll(async () => {
    if (!keep) await closeShared();
  });

  describe(spec.name, () => {
    for (const goal of goals) {
      // The goal's own deadline (timeouts.goalMs) reports a verdict; vitest's is only a backstop.
      test(goal.id, { timeout: options.timeouts.goalMs + options.timeouts.windowMs + 30_000 }, async (ctx) => {
        await runOne(ctx, spec, goal, context, progress, {
          get: () => shared,
          set: (app) => (shared = app),
          keep: () => (keep = true),
        });
      });
    }
  });
}

/**
 * One goal as one test: attach the app, run the goal under its deadline, turn the outcome into a
 * verdict, hand the verdict and its evidence to the reports, and tell vitest.
 */
async function runOne(
  ctx: TestContext,
  spec: Spec,
  goal: GoalSpec,
  context: RunContext,
  progress: ReturnType<typeof createProgress>,
  shared: SharedApp,
): Promise<void> {
  const label = `${spec.id} › ${goal.id}`;
  const { options } = context;
  // The display is the worker's, opened before its first goal: its start-up is the run's, not the goal's.
  const { desktop, reader, warmReader } = await workerDesktop(context);
  const clock = new GoalClock(context.startedAt);
  const started = clock.started;
  // Reading text starts a worker thread that loads its model for about a second: alongside the launch.
  if (goal.expect.some((e) => e.kind === 'text' || e.kind === 'absent')) warmReader();
  const app = new GoalApp({
    clock,
    spec,
    options,
    root: context.root,
    desktop,
    reader,
    shared,
    say: { status: (text) => progress.status(`${label}: ${text}`), warn: (text) => progress.line(`warning: ${label}: ${text}`) },
  });

  // The goal's deadline aborts it: every wait, capture, input and model request of the goal
  // ends, and nothing touches the app after it.
  const goalMs = options.timeouts.goalMs;
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new InfrastructureError('GOAL_TIMEOUT', `the goal did not finish within ${goalMs} ms (timeouts.goalMs)`)),
    goalMs,
  );
  const claude = await claudeFactories(options, process.env, started + goalMs, deadline.signal);
  const evidence = new GoalEvidence();
  const trace = new GoalTrace(mask);
  const done: ActionReport[] = [];
  // What the goal was doing, for the verdict of a goal that breaks.
  let mode: Verdict['mode'] = goal.steps ? 'scripted' : 'replayed';
  let verdict: Verdict;
  let assertions: readonly AssertionResult[] = [];
  let planner: string | undefined;
  let cause: unknown;
  // A backstop: should some wait not listen to the signal, the goal still ends at its deadline.
  const aborted = new Promise<never>((_, reject) =>
    deadline.signal.addEventListener('abort', () => reject(deadline.signal.reason), { once: true }),
  );
  aborted.catch(() => undefined);
  try {
    const outcome = await Promise.race([
      aborted,
      runGoal({
        spec,
        goal,
        options,
        baselinesDir: context.baselinesDir,
        resolveText,
        check: { resolveText, display: describeForDisplay, mask },
        stage: app.stages(deadline.signal),
        onEvidence: (i, before, after) => {
          evidence.collect(i, before, after);
          trace.collect(i, before, after);
        },
        onProblem: (i, problem) => {
          evidence.problem(i, problem);
          trace.problem(i, problem);
        },
        onDetail: trace.detail,
        onReport: (report) => done.push(report),
        ...claude,
        hooks: {
          phase: (phase, detail) => {
            if (phase === 'checking') {
              clock.check();
              evidence.encodeAhead();
            }
            mode = PHASE_MODES[phase] ?? mode;
            trace.line(`${phase}${detail ? ` (${detail})` : ''}`);
            progress.status(`${label}: ${phase}${detail ? ` (${detail})` : ''}`);
          },
          action: (i, n, d) => {
            clock.action();
            evidence.started(i, d);
            trace.started(i, d);
            trace.line(`action ${i + 1}${n ? `/${n}` : ''} ${d}`);
            progress.status(`${label}: action ${i + 1}${n ? `/${n}` : ''} ${d}`);
          },
          warn: (message) => {
            trace.line(`warning: ${message}`);
            progress.line(`warning: ${label}: ${message}`);
          },
          judged: (ms) => clock.judged(ms),
        },
      }),
    ]);
    verdict = verdictOf(outcome, { spec: spec.id, goal: goal.id, durationMs: clock.end(), mask });
    assertions = outcome.assertions;
    planner = outcome.planner;
  } catch (error) {
    cause = error;
    verdict = {
      ...brokenVerdict(error, { spec: spec.id, goal: goal.id, durationMs: clock.end(), mask, mode, modelCalls: claude.calls() }),
      actions: done,
    };
  } finally {
    clearTimeout(timer);
  }

  // The app is done with once the verdict is known: it closes while the reports are written.
  const keep = context.keepOpen && verdict.status !== 'passed';
  const ended = app.end(keep);
  ended.catch(() => undefined); // awaited below, after the reports
  verdict = evidence.write(options.reports, verdict);
  const baselines = assertions.filter((a) => a.baseline).map((a) => ({ description: a.description, baseline: a.baseline! }));
  ctx.task.meta.retrace = { verdict, baselines };
  const stats = await pathStatsOf(options.reports, spec.id, goal.id).catch(() => undefined);
  // A storyboard is a view of the path: a path file it cannot read must not fail the goal.
  const storyboard = (() => {
    try {
      return goalStoryboard(options, spec.id, goal.id, {
        lastRun: verdict.actions,
        lastRunWindows: evidence.windows(),
        ...(stats ? { stats } : {}),
      });
    } catch {
      return undefined;
    }
  })();
  const retries = ctx.task.result?.retryCount ?? 0;
  const end = goalEndOf(verdict, retries, consoleOptions().retry);
  for (const line of [end.text, ...(end.more ? [end.more] : [])]) trace.line(line);
  // A trace is evidence: one that cannot be written must not fail the goal, and is said.
  const traced = (() => {
    try {
      return trace.write(options.reports, options.trace, verdict, assertions);
    } catch (error) {
      progress.line(`warning: ${label}: its trace was not written: ${(error as Error).message}`);
      return undefined;
    }
  })();
  await recordGoalReport(spec, goal, verdict, assertions, evidence, {
    ...(traced ? { trace: traced } : {}),
    ...(planner ? { planner } : {}),
    ...(stats ? { pathStats: stats } : {}),
    ...(storyboard ? { storyboard } : {}),
    retries,
  });

  await ended;
  // The split is whole only now that the reports are written and the app closed.
  const phases = clock.phases();
  verdict = { ...verdict, phases };
  const display = displayOpening();
  ctx.task.meta.retrace = { verdict, baselines, ...(display ? { display } : {}) };
  progress.detail(`  time: ${splitLine(phases)}`);
  if (keep) {
    progress.line(
      `--keep-open: the app is still running on display ${desktop.display.name}.\n` +
        `  Look at it: ${howToLook(desktop.display, `/tmp/retrace-${goal.id}.png`)}`,
    );
  }
  if (verdict.status !== 'passed') throw verdictError(verdict, cause);
}
