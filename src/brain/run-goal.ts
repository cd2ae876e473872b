/**
 * One goal, start to outcome: decide whether to learn, record or replay, and do it. Learning
 * saves a path only when the expectations pass; a healed replay, and a relearn after a failed
 * replay (--relearn), propose their path beside the original. The runner turns the outcome into
 * a verdict and a report.
 */
import { PathStore } from '../paths/store.ts';
import { goalSource, isStale } from '../paths/source.ts';
import { learnGoal } from './learn-goal.ts';
import { replayGoal } from './replay-goal.ts';
import { noPathToLearn } from './no-path.ts';
import type { GoalOutcome, GoalRunInput } from './goal.ts';
import type { Stage } from './stage.ts';
import { outsideWindow } from '../spec-file/window-bounds.ts';
import { InvalidInputError } from '../errors.ts';

export type { GoalOutcome, GoalRunInput, GoalHooks, Mismatch, Phase } from './goal.ts';

export async function runGoal(input: GoalRunInput): Promise<GoalOutcome> {
  const { goal, options } = input;
  const store = new PathStore(options.paths);
  const source = goalSource(goal);
  const existing = store.read(input.spec.id, goal.id);
  const stale = existing !== undefined && isStale(existing.source, source);
  const what = source.kind === 'steps' ? 'steps' : 'goal text';

  if (options.learn === 'force' || existing === undefined || stale) {
    if (options.learn === 'off') {
      const message = existing
        ? `the path of "${goal.id}" is stale (its ${what} changed) and learning is off (--learn off)`
        : `"${goal.id}" has no recorded path and learning is off (--learn off)`;
      return {
        mode: goal.steps ? 'scripted' : 'replayed',
        actions: [],
        assertions: [],
        modelCalls: 0,
        mismatch: { category: 'no-path', message },
      };
    }
    if (!goal.goal && !goal.steps) {
      return {
        mode: 'replayed',
        actions: [],
        assertions: [],
        modelCalls: 0,
        mismatch: { category: 'no-path', message: noPathToLearn(input.spec.id, goal.id, stale) },
      };
    }
    if (stale) input.hooks?.warn?.(`the ${what} of "${goal.id}" changed: learning it again`);
    const stage = await input.stage(false);
    await refuseStepsOutside(input, stage);
    return learnGoal(input, store, goal.steps ? 'scripted' : 'learned', stage);
  }

  const replayed = await replayGoal(input, store, await input.stage(false), existing);
  const failure = replayed.replay.failure;
  if (!failure || !options.relearn) return replayed.outcome;
  input.hooks?.warn?.(`replay failed (${failure.message}); learning "${goal.id}" again (--relearn)`);
  const relearned = await learnGoal(input, store, 'relearned', await input.stage(true));
  // The recorded path failed: that is the verdict, whatever the relearn did. A relearn that
  // failed too says why beside it; one that passed may have learned the regression (a weak
  // expectation lets it through), so its path is only proposed.
  const { spec } = input;
  const after = relearned.mismatch
    ? `learned again (--relearn), and that failed too: ${relearned.mismatch.message}`
    : 'learned again (--relearn): the new path reaches the goal and is proposed beside the recorded one, not used; ' +
      `review it (retrace paths show ${spec.id}#${goal.id}), then retrace paths accept or reject ${spec.id}#${goal.id}`;
  const mismatch = { category: failure.category, message: `${failure.message}\n${after}`, failedAction: failure.index };
  return { ...replayed.outcome, mode: 'relearned', modelCalls: replayed.outcome.modelCalls + relearned.modelCalls, mismatch };
}

/**
 * A step's point outside the window as the app opened it is invalid input, found before any
 * input is sent: clicking there would reach no part of the app (or another window), and record
 * a path that no replay could use. With `app.size` or a recorded path, `validate` finds it.
 */
async function refuseStepsOutside(input: GoalRunInput, stage: Stage): Promise<void> {
  const { goal, spec } = input;
  if (!goal.steps) return;
  const { region } = await stage.window();
  const outside = outsideWindow({ ...goal, expect: [] }, region);
  if (outside.length === 0) return;
  const detail = outside.map((o) => `goal "${goal.id}", steps[${o.step ?? 0}]: ${o.detail} the app opened`).join('; ');
  throw new InvalidInputError({ file: spec.id, line: goal.line }, detail);
}
