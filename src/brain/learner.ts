/**
 * The learning loop: capture → plan the next action → do it through the action cycle (act,
 * settle, record), within bounds. Every stop has a reason. The caller checks the goal's
 * expectations and saves the path only when they pass, so a failed lesson never overwrites
 * anything.
 */
import {
  describeExit,
  exitOf,
  type Action,
  type ActionReport,
  type Frame,
  type RecordedAction,
  type Region,
  type StopReason,
} from '../domain.ts';
import type { LearningBounds, Planner } from './planners/types.ts';
import type { Stage } from './stage.ts';
import type { ActionCycle, ActionFailure } from './cycle.ts';
import type { AssetSink } from './observe.ts';
import { describeAction } from '../spec-file/describe.ts';
import { appExitedError, hasEnded, unlessEnded } from './exit.ts';
import { CYCLE_LIMITS } from './thresholds.ts';
import { offerElements } from './elements.ts';
import { readElements } from './element-effects.ts';

export interface Lesson {
  readonly stopReason: StopReason;
  readonly message?: string;
  /** The actions recorded, in order. */
  readonly actions: readonly RecordedAction[];
  /** Their reports, index-aligned with `actions`, plus the failed action's when one ended the lesson. */
  readonly reports: readonly ActionReport[];
  /** An action whose target was not found, when it ended the lesson. */
  readonly failure?: ActionFailure;
}

export interface LearnInput {
  readonly stage: Stage;
  readonly planner: Planner;
  readonly cycle: ActionCycle;
  readonly bounds: LearningBounds;
  /** Regions seen changing on their own before the first action. */
  readonly dynamic: readonly Region[];
  /** Where the recording's images go. */
  readonly assets: AssetSink;
  readonly onAction?: (index: number, description: string) => void;
}

/**
 * Why a learned `type` that changed nothing on screen or in the app's elements must not be
 * recorded, or undefined when it may be (another kind, or marked `changes: nothing`): a path that
 * records it replays it "verified" whatever the app does. A click is not refused: one that only
 * moves the focus into a field shows nothing but a caret, which no effect counts.
 */
async function didNothing(stage: Stage, action: Action): Promise<string | undefined> {
  const hint = ' (mark the step `changes: nothing` if that is expected)';
  if (action.kind === 'type' && action.changes !== 'nothing') {
    const focused = await stage.guard(stage.desktop.windows.focused());
    return focused === undefined
      ? `the keys went nowhere: no window has the keyboard focus${hint}`
      : `the keys changed nothing on screen or in the app's elements (the keyboard focus is in "${focused.title}")${hint}`;
  }
  return undefined;
}

export async function learn(input: LearnInput): Promise<Lesson> {
  const { stage, planner, cycle, bounds } = input;
  const actions: RecordedAction[] = [];
  const reports: ActionReport[] = [];
  const stop = (stopReason: StopReason, message?: string, failure?: ActionFailure): Lesson => ({
    stopReason,
    actions,
    reports,
    ...(message !== undefined ? { message } : {}),
    ...(failure ? { failure } : {}),
  });
  /** Nothing more can be done to an app that ended; a plan with actions left did not get there. */
  const ended = async (how: string, after?: Action, frame?: Frame): Promise<Lesson> => {
    const rest = planner.name === 'rules' && frame ? await planner.next({ frame, step: actions.length }) : undefined;
    const said = after ? `${how} after "${describeAction(after)}"` : how;
    return rest?.kind === 'act' ? stop('error', `${said}, before "${describeAction(rest.action)}"`) : stop('goal_achieved', said);
  };
  const started = Date.now();
  /** The last frame looked at. */
  let seen: Frame | undefined;
  let previous: { action: Action; changed: boolean; error?: string } | undefined;
  let repeats = 0;
  for (let step = 0; ; step++) {
    if (step >= bounds.maxSteps) return stop('max_steps', `stopped after ${bounds.maxSteps} actions`);
    if (Date.now() - started > bounds.maxWallMs) return stop('budget', `stopped after ${bounds.maxWallMs} ms`);
    if (planner.modelCalls >= bounds.maxModelCalls || planner.tokens >= bounds.maxTokens) {
      return stop('budget', `model budget spent (${planner.modelCalls} calls, ${planner.tokens} tokens)`);
    }
    // An app that ended a moment after the last action settled: the lesson ends there too.
    const shot = await unlessEnded(stage, stage.shoot());
    if (hasEnded(shot)) {
      // Before any action, nothing the goal did ended it: a crash.
      if (actions.length === 0) throw appExitedError(shot.ended);
      return ended(`the application ${describeExit(shot.ended)}`, previous?.action, seen);
    }
    seen = shot.frame;
    const elements = planner.seesElements ? offerElements(await readElements(stage, shot.window), shot.window) : [];
    const decision = await stage.guard(
      planner.next({ frame: shot.frame, step, ...(previous ? { previous } : {}), ...(elements.length > 0 && { elements }) }),
    );
    if (decision.kind === 'done') return stop(decision.reason, decision.message);
    const { action } = decision;
    input.onAction?.(step, describeAction(action));
    const outcome = await cycle.run({ kind: 'learn', action, index: actions.length, dynamic: input.dynamic, assets: input.assets });
    if (outcome.failure || !outcome.observed) {
      // A model that named a target the screen does not show may recover; a rules plan cannot.
      if (planner.name === 'rules') {
        reports.push(outcome.report);
        return stop('error', outcome.failure?.message, outcome.failure);
      }
      previous = { action, changed: false, ...(outcome.failure ? { error: outcome.failure.message } : {}) };
      continue;
    }
    const exit = exitOf(outcome.observed)?.exit;
    // A rules plan (a goal's clauses, a spec's steps) says each action does something; a model's
    // is told what its action changed, and may go on another way.
    const nothing = planner.name === 'rules' && exit === undefined && !outcome.changed ? await didNothing(stage, action) : undefined;
    if (nothing !== undefined) {
      reports.push({ ...outcome.report, verified: false });
      const failure: ActionFailure = {
        category: 'effect-not-verified',
        message: `${describeAction(action)}: ${nothing}`,
        index: actions.length,
      };
      return stop('error', failure.message, failure);
    }
    actions.push(outcome.observed);
    reports.push(outcome.report);
    if (exit) return ended(`the application ${describeExit(exit)} after "${describeAction(action)}"`, undefined, shot.frame);
    const same = previous !== undefined && JSON.stringify(previous.action) === JSON.stringify(action);
    repeats = outcome.changed ? 0 : same ? repeats + 1 : 1;
    previous = { action, changed: outcome.changed };
    if (repeats >= CYCLE_LIMITS.repeatLimit) {
      return stop('no_progress', `"${describeAction(action)}" repeated ${CYCLE_LIMITS.repeatLimit} times with no effect`);
    }
  }
}
