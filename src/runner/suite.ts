/**
 * A spec as a vitest test file: one test per goal. The vitest plugin turns `specs/x.yaml`
 * into a module that calls `defineSpecSuite`, so `retrace run` and `npx vitest` share this.
 */
import { describe, test, inject, afterAll, type TestContext } from 'vitest';
import type { Verdict, Status } from '../domain.ts';
import { GoalFailure, InfrastructureError, InvalidInputError, RetraceError } from '../errors.ts';
import type { GoalSpec, Spec } from '../spec-file/types.ts';
import { loadSpec } from '../spec-file/load.ts';
import { loadConfig } from '../spec-file/config.ts';
import { resolveOptions } from '../spec-file/options.ts';
import { interpolate, describeForDisplay } from '../spec-file/interpolate.ts';
import { secretMasker } from '../spec-file/secrets.ts';
import type { AppSession } from '../desktop/types.ts';
import { Stage } from '../brain/stage.ts';
import { runGoal, GoalRunFailure, type GoalRunResult, type Phase } from '../brain/run-goal.ts';
import type { AssertionResult } from '../assert/types.ts';
import type { RunContext } from './context.ts';
import { createProgress } from './progress.ts';
import { workerDesktop } from './worker-desktop.ts';
import { claudeFactories } from './claude.ts';
import { recordGoalReport, GoalEvidence, pathStatsOf } from './goal-report.ts';

const PHASE_MODES: Partial<Record<Phase, Verdict['mode']>> = { learning: 'learned', recording: 'scripted', replaying: 'replayed' };

const X_REFUSED = /Missing X server|cannot open display|Can't open display/i;

const resolveText = (template: string): string => interpolate(template, process.env);
const mask = (text: string): string => secretMasker.mask(text);

/** Status and category of an error that ended a goal. */
function classify(error: unknown): { status: Status; category: Verdict['category']; message: string } {
  const message = mask(error instanceof Error ? error.message : String(error));
  if (error instanceof GoalFailure) return { status: 'failed', category: error.category, message };
  if (error instanceof InvalidInputError || error instanceof InfrastructureError) {
    return { status: 'broken', category: 'infrastructure', message };
  }
  return { status: 'broken', category: 'infrastructure', message: `${message}\n${error instanceof Error ? (error.stack ?? '') : ''}` };
}

export function defineSpecSuite(file: string): void {
  const run = inject('retrace');
  const spec = loadSpec(file, { root: run.root, env: process.env });
  // The spec's own `options:` sit between the CLI and the config file.
  const options = resolveOptions({ root: run.root, cli: run.cli, spec, config: loadConfig(run.root, { env: process.env }), env: process.env });
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
          close: closeShared,
          keep: () => (keep = true),
        });
      });
    }
  });
}

/** The app of a `restart: spec` suite, shared by its goals. */
interface SharedApp {
  get(): AppSession | undefined;
  set(app: AppSession): void;
  close(): Promise<void>;
  /** Leave it running at the end (--keep-open after a failure). */
  keep(): void;
}

async function runOne(
  ctx: TestContext,
  spec: Spec,
  goal: GoalSpec,
  context: RunContext,
  progress: ReturnType<typeof createProgress>,
  shared: SharedApp,
): Promise<void> {
  const started = Date.now();
  const label = `${spec.id} › ${goal.id}`;
  const { options } = context;
  const { desktop, reader } = await workerDesktop(context.ownDisplays, options.display.size, options.reports);
  const perGoal = spec.app.restart === 'goal';
  let app: AppSession | undefined;

  const config = {
    launch: resolveText(spec.app.launch),
    window: resolveText(spec.app.window),
    ...(spec.app.size ? { size: spec.app.size } : {}),
    env: Object.fromEntries(Object.entries(spec.app.env).map(([k, v]) => [k, resolveText(v)])),
    cwd: spec.app.cwd ?? context.root,
    ...(spec.app.setup ? { setup: spec.app.setup } : {}),
    ...(spec.app.teardown ? { teardown: spec.app.teardown } : {}),
    windowTimeoutMs: spec.app.windowTimeoutMs ?? options.timeouts.windowMs,
  };
  const launch = async (): Promise<AppSession> => {
    progress.status(`${label}: launching ${describeForDisplay(spec.app.launch)}`);
    try {
      return await desktop.launch(config);
    } catch (error) {
      // Under load an X server can refuse a client's first connection; the app then dies at
      // start. That is the display's hiccup, not the app's fault: one more try tells them apart.
      if (!(error instanceof InfrastructureError) || !X_REFUSED.test(error.message)) throw error;
      progress.line(`warning: ${label}: the app could not connect to the display at start; launching it again`);
      return desktop.launch(config);
    }
  };

  const stage = async (fresh: boolean): Promise<Stage> => {
    let current = perGoal ? app : shared.get();
    if (current && (fresh || current.exitInfo())) {
      await current.close();
      current = undefined;
    }
    if (!current) {
      current = await launch();
      if (!perGoal) shared.set(current);
    }
    app = current;
    await current.focus();
    return new Stage(desktop, current, reader);
  };

  const evidence = new GoalEvidence();
  let result: Partial<GoalRunResult> = {};
  let failure: unknown;
  const goalMs = options.timeouts.goalMs;
  const claude = claudeFactories(options, process.env, started + goalMs);
  // What the goal was doing, for the verdict of a goal that runs out of time.
  let mode: Verdict['mode'] | undefined;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new InfrastructureError('GOAL_TIMEOUT', `the goal did not finish within ${goalMs} ms (timeouts.goalMs)`)),
      goalMs - (Date.now() - started),
    );
  });
  try {
    const run = runGoal({
      spec,
      goal,
      options,
      baselinesDir: context.baselinesDir,
      resolveText,
      check: { resolveText, display: describeForDisplay, mask },
      stage,
      onEvidence: evidence.collect,
      ...claude,
      hooks: {
        phase: (phase, detail) => {
          mode = PHASE_MODES[phase] ?? mode;
          progress.status(`${label}: ${phase}${detail ? ` (${detail})` : ''}`);
        },
        action: (i, n, d) => {
          evidence.started(i, d);
          progress.status(`${label}: action ${i + 1}${n ? `/${n}` : ''} ${d}`);
        },
        warn: (message) => progress.line(`warning: ${label}: ${message}`),
      },
    });
    run.catch(() => undefined);
    result = await Promise.race([run, deadline]);
  } catch (error) {
    if (error instanceof GoalRunFailure) {
      result = error.partial;
      failure = error.error;
    } else {
      failure = error;
      result = { ...(mode ? { mode } : {}), modelCalls: claude.calls() };
    }
  } finally {
    clearTimeout(timer);
  }

  const outcome = failure === undefined ? undefined : classify(failure);
  const failedAction = failure instanceof GoalFailure ? failure.details.failedAction : undefined;
  const verdict: Verdict = {
    spec: spec.id,
    goal: goal.id,
    status: outcome?.status ?? 'passed',
    mode: result.mode ?? (goal.steps ? 'scripted' : 'replayed'),
    modelCalls: result.modelCalls ?? 0,
    durationMs: Date.now() - started,
    actions: result.actions ?? [],
    ...(outcome ? { category: outcome.category, message: outcome.message } : {}),
    ...(failedAction !== undefined ? { failedAction } : {}),
    ...(result.stopReason ? { stopReason: result.stopReason } : {}),
  };
  const assertions: readonly AssertionResult[] = result.assertions ?? [];
  ctx.task.meta.retrace = { verdict, baselines: assertions.filter((a) => a.baseline).map((a) => ({ description: a.description, baseline: a.baseline! })) };
  const stats = await pathStatsOf(options.reports, spec.id, goal.id).catch(() => undefined);
  await recordGoalReport(spec, goal, verdict, assertions, evidence, {
    ...(result.planner ? { planner: result.planner } : {}),
    ...(stats ? { pathStats: stats } : {}),
    retries: ctx.task.result?.retryCount ?? 0,
  });

  if (context.keepOpen && verdict.status !== 'passed') {
    shared.keep();
    app?.release();
    progress.line(
      `--keep-open: the app is still running on display ${desktop.display.name}.\n` +
        `  Look at it: DISPLAY=${desktop.display.name} import -window root /tmp/retrace-${goal.id}.png  (or xwd -root -display ${desktop.display.name} | convert xwd:- out.png)`,
    );
  } else if (perGoal) {
    await app?.close();
  }
  if (outcome) {
    const error = failure instanceof RetraceError ? failure : new InfrastructureError('IO', outcome.message);
    // Vitest prints the message; the stack of a known error is noise.
    error.stack = `${error.name}: ${outcome.message}`;
    throw error;
  }
}
