/**
 * Learning (or recording the `steps:` of) one goal: watch for content that changes on its own,
 * run the learning loop with the planner, check the expectations, and save the path only when
 * they hold.
 */
import { exitOf, type Mode, type Path, type RecordedAction, type Region } from '../domain.ts';
import { InvalidInputError } from '../errors.ts';
import type { PathStore } from '../paths/store.ts';
import { goalSource } from '../paths/source.ts';
import { PATH_FORMAT_VERSION } from '../paths/path-shape.ts';
import { detectDynamic } from '../vision/settle.ts';
import type { Stage } from './stage.ts';
import { ActionCycle } from './cycle.ts';
import { learn } from './learner.ts';
import type { AssetSink } from './observe.ts';
import type { Planner } from './planners/types.ts';
import { RulesPlanner } from './planners/rules-planner.ts';
import { placePointer } from './pointer.ts';
import { parseRulesGoal } from './rules-grammar.ts';
import { CYCLE_LIMITS } from './thresholds.ts';
import { onlyNewBaselines } from './assert/screenshot.ts';
import { appExitedError, awaitExit, withExit } from './exit.ts';
import { checkGoal, cycleOptions, expectationsBefore, type GoalOutcome, type GoalRunInput } from './goal.ts';

export async function learnGoal(input: GoalRunInput, store: PathStore, mode: Mode, stage: Stage): Promise<GoalOutcome> {
  const { spec, goal, options } = input;
  if (goal.expect.length === 0)
    input.hooks?.warn?.(`goal "${goal.id}" has no expect: its path is saved without proof that it reaches the goal`);
  input.hooks?.phase?.('learning', 'watching for content that changes on its own');
  const start = await stage.window();
  const pointer = await placePointer(stage);
  const dynamic = await stage.guard(detectDynamic(stage.grabber(start.region), CYCLE_LIMITS.dynamicProbeMs));
  const before = await expectationsBefore(input, stage);
  const planner: Planner = goal.steps ? new RulesPlanner(goal.steps) : choosePlanner(input);
  input.hooks?.phase?.(goal.steps ? 'recording' : 'learning', planner.name);
  const cycle = new ActionCycle(stage, cycleOptions(input));
  const assets: AssetSink = new Map();
  const lesson = await learn({
    stage,
    planner,
    cycle,
    bounds: options.bounds,
    dynamic,
    assets,
    onAction: (i, d) => input.hooks?.action?.(i, goal.steps?.length, d),
  });
  const actions = await accountForExit(input, stage, lesson.actions, start.region);
  const base = {
    mode,
    actions: lesson.reports,
    assertions: [],
    modelCalls: planner.modelCalls,
    stopReason: lesson.stopReason,
    planner: planner.name,
  };
  if (lesson.failure)
    return {
      ...base,
      mismatch: { category: lesson.failure.category, message: lesson.failure.message, failedAction: lesson.failure.index },
    };
  if (lesson.stopReason !== 'goal_achieved') {
    return {
      ...base,
      mismatch: { category: 'expectation-failed', message: `learning stopped (${lesson.stopReason}): ${lesson.message ?? ''}`.trim() },
    };
  }
  const { assertions, mismatch, warnings } = await checkGoal(input, stage, actions, before);
  if (mismatch && !onlyNewBaselines(assertions)) return { ...base, assertions, mismatch };
  input.hooks?.phase?.('saving');
  // A goal that ends the app keeps the size its window had.
  const window = stage.app.exitInfo() ? start : await stage.window();
  const path: Path = {
    version: PATH_FORMAT_VERSION,
    spec: spec.id,
    goal: goal.id,
    source: goalSource(goal),
    planner: goal.steps ? 'scripted' : planner.name,
    ...(planner.model ? { model: planner.model } : {}),
    window: { width: window.region.width, height: window.region.height },
    pointer,
    actions,
  };
  // A relearned path (--relearn, after a replay failed) may have learned a regression: it is a
  // proposal, as a healed one, and replaces the recorded path only through `retrace paths accept`.
  if (mode === 'relearned') await store.propose(path, assets);
  else await store.write(path, assets);
  return { ...base, assertions, ...(mismatch ? { mismatch } : {}), ...(warnings.length > 0 ? { warnings } : {}) };
}

/**
 * The app ending while learning is the goal's result only when the goal expects it (`exited:`);
 * otherwise it is a crash and the goal is broken. An app that ends a moment after the last
 * action settled (a dialog closing after its fade-out) has that action's end recorded.
 */
async function accountForExit(
  input: GoalRunInput,
  stage: Stage,
  actions: readonly RecordedAction[],
  window: Region,
): Promise<readonly RecordedAction[]> {
  const expected = input.goal.expect.find((e) => e.kind === 'exited');
  const last = actions[actions.length - 1];
  if (!expected) {
    const exit = stage.app.exitInfo();
    if (exit) throw appExitedError(exit);
    return actions;
  }
  if (!last || exitOf(last)) return actions;
  const exit = await awaitExit(stage, expected.timeoutMs ?? input.options.timeouts.expectMs);
  return exit ? [...actions.slice(0, -1), withExit(last, exit, { x: 0, y: 0, width: window.width, height: window.height })] : actions;
}

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
