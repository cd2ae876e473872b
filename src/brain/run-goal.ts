/**
 * One goal, start to verdict: decide whether to learn, record or replay; do it; check the
 * expectations; save what was learned (only when the expectations pass), or propose a healed
 * path beside the original. Returns the evidence; the runner turns it into a report.
 */
import type { ActionReport, Mode, Path, StopReason } from '../domain.ts';
import { GoalFailure, InvalidInputError } from '../errors.ts';
import type { GoalSpec, Spec } from '../spec-file/types.ts';
import type { ResolvedOptions } from '../spec-file/defaults.ts';
import { PathStore, type AssetMap } from '../paths/store.ts';
import { goalSource, isStale } from '../paths/source.ts';
import { PATH_FORMAT_VERSION } from '../paths/validate.ts';
import { checkExpectations, type CheckContext } from '../assert/check.ts';
import type { AssertionResult } from '../assert/types.ts';
import type { Stage } from './stage.ts';
import { Recorder, type Evidence } from './recorder.ts';
import { Replayer } from './replayer.ts';
import { learn } from './learner.ts';
import type { Planner } from './planners/types.ts';
import { RulesPlanner } from './planners/rules-planner.ts';
import { parseRulesGoal } from './rules-grammar.ts';
import type { ModelLocator } from './resolve.ts';
import { detectDynamic } from '../vision/settle.ts';
import { fingerprint, sameState } from '../vision/fingerprint.ts';
import { NavigationGraph } from './graph.ts';

/**
 * How long learning watches the idle window for content that changes on its own (a clock
 * ticking each second, a banner rotating): long enough to see a one-second tick.
 */
const DYNAMIC_PROBE_MS = 1200;

/**
 * How long a learned action waits for the screen to start changing before it counts as having
 * no visible effect. Only learning pays it, and only for actions that change nothing.
 */
const LEARN_REACT_MS = 400;

/** What the goal is doing now, for progress lines. */
export type Phase = 'launching' | 'learning' | 'recording' | 'replaying' | 'navigating' | 'checking' | 'saving';

export interface GoalHooks {
  phase?(phase: Phase, detail?: string): void;
  action?(index: number, total: number | undefined, description: string): void;
  warn?(message: string): void;
}

export interface GoalRunInput {
  readonly spec: Spec;
  readonly goal: GoalSpec;
  readonly options: ResolvedOptions;
  readonly baselinesDir: string;
  readonly check: Omit<CheckContext, 'specId' | 'baselinesDir' | 'update' | 'stableTimeoutMs' | 'expectMs'>;
  readonly resolveText: (template: string) => string;
  /** A stage with the app ready at the goal's start. Called again for a relearn after a failed replay. */
  readonly stage: (fresh: boolean) => Promise<Stage>;
  /** Makes a Claude planner; absent when no API key is set. */
  readonly claude?: (goalText: string) => Planner;
  readonly modelLocator?: () => { locate: ModelLocator; calls: () => number };
  readonly hooks?: GoalHooks;
  readonly onEvidence?: Evidence;
}

export interface GoalRunResult {
  readonly mode: Mode;
  readonly actions: readonly ActionReport[];
  readonly assertions: readonly AssertionResult[];
  readonly modelCalls: number;
  readonly stopReason?: StopReason;
  readonly planner?: string;
}

/** A failure of the goal, with whatever evidence had been gathered before it. */
export class GoalRunFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly partial: Partial<GoalRunResult>,
  ) {
    super(error instanceof Error ? error.message : String(error));
  }
}

export async function runGoal(input: GoalRunInput): Promise<GoalRunResult> {
  const { spec, goal, options } = input;
  const store = new PathStore(options.paths);
  const source = goalSource(goal);
  const existing = store.read(spec.id, goal.id);
  const stale = existing !== undefined && isStale(existing.source, source);
  const mustLearn = options.learn === 'force' || existing === undefined || stale;

  if (mustLearn) {
    if (options.learn === 'off') {
      throw new GoalFailure(
        'no-path',
        existing
          ? `the path of "${goal.id}" is stale (its ${source.kind === 'steps' ? 'steps' : 'goal text'} changed) and learning is off (--learn off)`
          : `"${goal.id}" has no recorded path and learning is off (--learn off)`,
      );
    }
    if (stale) input.hooks?.warn?.(`the ${source.kind === 'steps' ? 'steps' : 'goal text'} of "${goal.id}" changed: learning it again`);
    return record(input, store, goal.steps ? 'scripted' : 'learned', await input.stage(false));
  }

  const stage = await input.stage(false);
  if (spec.app.restart === 'spec') await navigateToStart(input, store, stage, existing);
  const model = options.healWithModel ? input.modelLocator?.() : undefined;
  input.hooks?.phase?.('replaying');
  let replay;
  const replayer = new Replayer(stage, {
    settle: { timeoutMs: options.timeouts.settleMs },
    resolveText: input.resolveText,
    findTimeoutMs: options.timeouts.actionMs,
    asset: (name) => store.asset(spec.id, goal.id, name),
    ...(model ? { model: model.locate } : {}),
    onAction: (i, n, d) => input.hooks?.action?.(i, n, d),
    ...(input.onEvidence ? { onEvidence: input.onEvidence } : {}),
  });
  try {
    replay = await replayer.replay(existing);
  } catch (error) {
    if (!(error instanceof GoalFailure) || !options.relearn) {
      throw new GoalRunFailure(error, { mode: 'replayed', actions: replayer.reports, modelCalls: model?.calls() ?? 0 });
    }
    input.hooks?.warn?.(`replay failed (${error.message}); learning "${goal.id}" again (--relearn)`);
    return record(input, store, 'relearned', await input.stage(true));
  }
  const assertions = await check(input, stage);
  const modelCalls = model?.calls() ?? 0;
  const failed = assertions.filter((a) => !a.ok);
  if (failed.length > 0) {
    throw new GoalRunFailure(expectationFailure(failed), { mode: replay.healed ? 'healed' : 'replayed', actions: replay.reports, assertions, modelCalls });
  }
  if (replay.healed) {
    input.hooks?.phase?.('saving', 'proposing the healed path');
    await store.propose({ ...existing, actions: replay.observed.actions }, replay.observed.assets);
  }
  return { mode: replay.healed ? 'healed' : 'replayed', actions: replay.reports, assertions, modelCalls };
}

/**
 * With one app for the whole spec, the screen may not be where this goal's path starts (an
 * earlier goal failed, or goals run in another order). Walks there along the paths of the spec's
 * other goals, when the graph knows a way; otherwise the replay itself reports the mismatch.
 */
async function navigateToStart(input: GoalRunInput, store: PathStore, stage: Stage, path: Path): Promise<void> {
  const first = path.actions[0];
  if (!first) return;
  const here = fingerprint((await stage.shoot()).frame, first.dynamic);
  if (sameState(here, first.before)) return;
  const others = input.spec.goals
    .filter((g) => g.id !== input.goal.id)
    .map((g) => store.read(input.spec.id, g.id))
    .filter((p): p is Path => p !== undefined);
  const route = new NavigationGraph([...others, path]).route(here, first.before);
  if (!route || route.length === 0) return;
  for (const edge of route) {
    input.hooks?.phase?.('navigating', `along "${edge.goal}"`);
    await new Replayer(stage, {
      settle: { timeoutMs: input.options.timeouts.settleMs },
      resolveText: input.resolveText,
      findTimeoutMs: input.options.timeouts.actionMs,
      asset: (name) => store.asset(input.spec.id, edge.goal, name),
    }).replay(edge.path);
  }
}

async function check(input: GoalRunInput, stage: Stage): Promise<AssertionResult[]> {
  input.hooks?.phase?.('checking');
  return checkExpectations(stage, input.goal.expect, {
    ...input.check,
    specId: input.spec.id,
    baselinesDir: input.baselinesDir,
    update: input.options.updateBaselines,
    stableTimeoutMs: input.options.timeouts.settleMs,
    expectMs: input.options.timeouts.expectMs,
  });
}

const expectationFailure = (failed: readonly AssertionResult[]): GoalFailure =>
  new GoalFailure('expectation-failed', failed.map((a) => `${a.description}: ${a.message}`).join('\n'));

function choosePlanner(input: GoalRunInput): Planner {
  const { goal, options } = input;
  const text = goal.goal ?? '';
  const wantsClaude = options.planner === 'claude' || (options.planner === 'auto' && input.claude !== undefined);
  if (wantsClaude) {
    if (!input.claude) {
      throw new InvalidInputError({ file: input.spec.id, line: goal.line }, '--planner claude needs ANTHROPIC_API_KEY to be set');
    }
    return input.claude(text);
  }
  const parsed = parseRulesGoal(text);
  if (!parsed.ok) {
    throw new InvalidInputError(
      { file: input.spec.id, line: goal.line },
      `goal "${goal.id}" is outside the rules grammar (${parsed.error}) and needs Claude: set ANTHROPIC_API_KEY, or rewrite it in the grammar:\n${parsed.grammar}`,
    );
  }
  return new RulesPlanner(parsed.actions);
}

async function record(input: GoalRunInput, store: PathStore, mode: Mode, stage: Stage): Promise<GoalRunResult> {
  const { spec, goal, options } = input;
  if (goal.expect.length === 0) input.hooks?.warn?.(`goal "${goal.id}" has no expect: its path is saved without proof that it reaches the goal`);
  input.hooks?.phase?.('learning', 'watching for content that changes on its own');
  const dynamic = await stage.guard(detectDynamic(stage.grabber((await stage.window()).region), DYNAMIC_PROBE_MS));
  const recorder = new Recorder(stage, {
    settle: { timeoutMs: options.timeouts.settleMs, ignore: dynamic },
    reactMs: LEARN_REACT_MS,
    findTimeoutMs: options.timeouts.actionMs,
    resolveText: input.resolveText,
    ...(input.onEvidence ? { onEvidence: input.onEvidence } : {}),
  });
  const planner: Planner = goal.steps ? new RulesPlanner(goal.steps) : choosePlanner(input);
  input.hooks?.phase?.(goal.steps ? 'recording' : 'learning', planner.name);
  const learned = await learn(stage, planner, recorder, options.bounds, (i, d) => input.hooks?.action?.(i, goal.steps?.length, d)).catch((error: unknown) => {
    throw new GoalRunFailure(error, { mode, actions: recorder.reports, modelCalls: planner.modelCalls, planner: planner.name });
  });
  const base = { mode, actions: recorder.reports, modelCalls: planner.modelCalls, stopReason: learned.stopReason, planner: planner.name };
  if (learned.stopReason !== 'goal_achieved') {
    throw new GoalRunFailure(
      new GoalFailure('expectation-failed', `learning stopped (${learned.stopReason}): ${learned.message ?? ''}`.trim()),
      base,
    );
  }
  const assertions = await check(input, stage);
  const failed = assertions.filter((a) => !a.ok);
  if (failed.length > 0) throw new GoalRunFailure(expectationFailure(failed), { ...base, assertions });
  input.hooks?.phase?.('saving');
  const window = await stage.window();
  const path: Path = {
    version: PATH_FORMAT_VERSION,
    spec: spec.id,
    goal: goal.id,
    source: goalSource(goal),
    planner: goal.steps ? 'scripted' : planner.name,
    ...(planner.model ? { model: planner.model } : {}),
    window: { width: window.region.width, height: window.region.height },
    actions: recorder.actions,
  };
  await store.write(path, recorder.assets satisfies AssetMap);
  return { ...base, assertions };
}
