/**
 * Replaying one goal's recorded path: walk to its start when the app is shared, replay every
 * action through the cycle, check the expectations, and propose a healed path beside the
 * original (never over it).
 */
import type { Path } from '../domain.ts';
import type { PathStore } from '../paths/store.ts';
import { fingerprint, sameState } from '../vision/fingerprint.ts';
import type { Stage } from './stage.ts';
import { ActionCycle } from './cycle.ts';
import { replay, type Replay } from './replayer.ts';
import { NavigationGraph } from './graph.ts';
import { checkGoal, cycleOptions, expectationsBefore, type GoalOutcome, type GoalRunInput } from './goal.ts';

/** The replay of a goal and its outcome; `replay.failure` set when an action failed. */
export interface ReplayedGoal {
  readonly outcome: GoalOutcome;
  readonly replay: Replay;
}

export async function replayGoal(input: GoalRunInput, store: PathStore, stage: Stage, path: Path): Promise<ReplayedGoal> {
  const { spec, goal, options } = input;
  if (spec.app.restart === 'spec') await navigateToStart(input, store, stage, path);
  const model = options.healWithModel ? input.modelLocator?.() : undefined;
  const before = await expectationsBefore(input, stage);
  input.hooks?.phase?.('replaying');
  const cycle = new ActionCycle(stage, { ...cycleOptions(input), ...(model ? { model: model.locate } : {}) });
  const done = await replay({
    cycle,
    path,
    asset: (name) => store.asset(spec.id, goal.id, name),
    onAction: (i, n, d) => input.hooks?.action?.(i, n, d),
  });
  const mode = done.healed ? 'healed' : 'replayed';
  const modelCalls = model?.calls() ?? 0;
  if (done.failure) {
    const { category, message, index } = done.failure;
    return { replay: done, outcome: { mode, actions: done.reports, assertions: [], modelCalls, mismatch: { category, message, failedAction: index } } };
  }
  const { assertions, mismatch, warnings } = await checkGoal(input, stage, path.actions, before);
  if (!mismatch && done.healed) {
    input.hooks?.phase?.('saving', 'proposing the healed path');
    await store.propose({ ...path, actions: done.observed.actions }, done.observed.assets);
  }
  return { replay: done, outcome: { mode, actions: done.reports, assertions, modelCalls, ...(mismatch ? { mismatch } : {}), ...(warnings.length > 0 ? { warnings } : {}) } };
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
    const walked = await replay({
      cycle: new ActionCycle(stage, cycleOptions(input, false)),
      path: edge.path,
      asset: (name) => store.asset(input.spec.id, edge.goal, name),
    });
    // A walk that went wrong leaves the screen elsewhere; the goal's own replay then says where.
    if (walked.failure) return;
  }
}
