/**
 * The learning loop: capture → plan the next action → act → settle → record, within bounds.
 * Every stop has a reason. The caller checks the goal's expectations and saves the path only
 * when they pass, so a failed lesson never overwrites anything.
 */
import type { Action, StopReason } from '../domain.ts';
import { GoalFailure } from '../errors.ts';
import type { LearningBounds, Planner } from './planners/types.ts';
import type { Recorder } from './recorder.ts';
import type { Stage } from './stage.ts';
import { describeAction } from './describe.ts';

export interface LearnOutcome {
  readonly stopReason: StopReason;
  readonly message?: string;
}

/** The same action, with no effect, this many times in a row is a loop going nowhere. */
const REPEAT_LIMIT = 3;

export async function learn(
  stage: Stage,
  planner: Planner,
  recorder: Recorder,
  bounds: LearningBounds,
  onAction?: (index: number, description: string) => void,
): Promise<LearnOutcome> {
  const started = Date.now();
  let previous: { action: Action; changed: boolean; error?: string } | undefined;
  let repeats = 0;
  for (let step = 0; ; step++) {
    if (step >= bounds.maxSteps) return { stopReason: 'max_steps', message: `stopped after ${bounds.maxSteps} actions` };
    if (Date.now() - started > bounds.maxWallMs) return { stopReason: 'budget', message: `stopped after ${bounds.maxWallMs} ms` };
    if (planner.modelCalls >= bounds.maxModelCalls || planner.tokens >= bounds.maxTokens) {
      return { stopReason: 'budget', message: `model budget spent (${planner.modelCalls} calls, ${planner.tokens} tokens)` };
    }
    const shot = await stage.shoot();
    const decision = await planner.next({ frame: shot.frame, step, ...(previous ? { previous } : {}) });
    if (decision.kind === 'done') {
      return { stopReason: decision.reason, ...(decision.message ? { message: decision.message } : {}) };
    }
    const { action } = decision;
    onAction?.(step, describeAction(action));
    try {
      const outcome = await recorder.record(action);
      const same = previous !== undefined && JSON.stringify(previous.action) === JSON.stringify(action);
      repeats = outcome.changed ? 0 : same ? repeats + 1 : 1;
      previous = { action, changed: outcome.changed };
      if (repeats >= REPEAT_LIMIT) {
        return { stopReason: 'no_progress', message: `"${describeAction(action)}" repeated ${REPEAT_LIMIT} times with no effect` };
      }
    } catch (error) {
      // A model that named a target the screen does not show may recover; a rules plan cannot.
      if (!(error instanceof GoalFailure) || planner.name === 'rules') throw error;
      previous = { action, changed: false, error: error.message };
    }
  }
}
