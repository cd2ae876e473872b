/**
 * What an action of the cycle ends in: a value the learner, the replayer and the report consume
 * as is. A product failure is part of it (never an exception), and so is the evidence that shows
 * it: the window with the lost target boxed, the effect expected next to what was there, the
 * change nobody recorded boxed before and after.
 */
import type { ActionDetail, ActionReport, FailureCategory, Frame, RecordedAction, Region } from '../domain.ts';

export interface ActionFailure {
  readonly category: Extract<FailureCategory, 'target-not-found' | 'effect-not-verified' | 'unexpected-change'>;
  /** Secret-free, one paragraph: what was expected and what the screen showed. */
  readonly message: string;
  /** 0-based index of the action in its path. */
  readonly index: number;
}

/** The images that show why an action failed, or what it changed unexpectedly. */
export type Problem =
  | {
      readonly kind: 'target-not-found';
      /** The window where the target was looked for. */
      readonly window: Frame;
      /** Where the target's anchor was when recorded. */
      readonly recorded?: Region;
      /** The best place a rung found, though not good enough. */
      readonly candidate?: Region;
    }
  | {
      readonly kind: 'effect-not-verified';
      /** The recorded image of the effect (absent for a secret action). */
      readonly expected?: Frame;
      /** What the window showed where the effect was looked for. */
      readonly actual: Frame;
      readonly region: Region;
      readonly before: Frame;
      readonly after: Frame;
    }
  | {
      readonly kind: 'unexpected-change';
      readonly before: Frame;
      readonly after: Frame;
      readonly regions: readonly Region[];
    };

/** Receives the problem images of an action, by its index (never for a secret action). */
export type ProblemSink = (index: number, problem: Problem) => void;

export interface ActionOutcome {
  readonly report: ActionReport;
  /**
   * The action as it is to be kept: the new recording (learning), the recorded action when it
   * replayed exactly, or the action observed anew when replay healed. Absent on failure.
   */
  readonly observed?: RecordedAction;
  /** Whether the action visibly changed the window. */
  readonly changed: boolean;
  /** Replay only: a rung below "recorded" was needed, or an effect was found elsewhere. */
  readonly healed: boolean;
  readonly failure?: ActionFailure;
}

/**
 * A later look at the last replayed action, before the next one (or at the end): its effect
 * did not hold, or it changed something late that nothing recorded. Its report, amended.
 */
export interface Held {
  readonly index: number;
  readonly report: ActionReport;
  readonly failure?: ActionFailure;
}

/** Receives the detail of each replayed action, by its index (never for a secret action). */
export type DetailSink = (index: number, detail: ActionDetail) => void;

/** A failure of an action: the one place one is made (the cycle's phases and replay's hold). */
export const failure = (category: ActionFailure['category'], message: string, index: number): ActionFailure => ({
  category,
  message,
  index,
});

/** An action that failed, as its outcome: it kept nothing and healed nothing. */
export const failOutcome = (report: ActionReport, why: ActionFailure, changed = false): ActionOutcome => ({
  report,
  changed,
  healed: false,
  failure: why,
});
