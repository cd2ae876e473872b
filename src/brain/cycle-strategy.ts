/**
 * The action cycle's five phases, and what a strategy of it supplies:
 *
 *   wait (ready) → resolve the target → act → settle → verify (and keep what it did)
 *
 * Learning and replay are its two strategies (learn-step.ts, replay-step.ts); the one body that
 * runs them, times the phases and turns a lost target or a refused action into a failure is
 * `ActionCycle` (cycle.ts). A strategy imports neither the body nor the other strategy.
 */
import type { Action, ActionReport, Frame, Point, RecordedAction, Region, ResolvedBy, RungTry } from '../domain.ts';
import { containsSecret } from '../spec-file/interpolate.ts';
import type { Stage } from './stage.ts';
import type { Settled } from './settle.ts';
import type { AssetSink } from './observe.ts';
import type { ModelLocator } from './ladder.ts';
import type { ActionOutcome, DetailSink, ProblemSink } from './outcome.ts';
import type { PhaseClock } from './phases.ts';

/** Receives the window before and after each action, for the report (never for a secret action). */
export type Evidence = (index: number, before: Frame, after: Frame) => void;

export interface CycleOptions {
  /** The longest wait for the screen to settle. */
  readonly settleTimeoutMs: number;
  /** Turns `${env.X}` / `${secret.X}` placeholders into values, only when acting. */
  readonly resolveText: (template: string) => string;
  /**
   * One action's time limit (timeouts.actionMs): how long a text target may take to appear while
   * learning, a `wait for` text, and a replayed action to react before it may be done again.
   */
  readonly actionTimeoutMs: number;
  /** A retry fails the goal (--strict). */
  readonly strict?: boolean;
  /** What a change nobody recorded does to the goal. @default 'fail' */
  readonly unexpectedChanges?: 'fail' | 'warn';
  /** The model rung of the ladder (only with --heal-with-model). */
  readonly model?: ModelLocator;
  readonly onEvidence?: Evidence;
  /** Receives the images that show a failure or an unexpected change. */
  readonly onProblem?: ProblemSink;
  /** Receives every action's report as the action ends (a goal that breaks keeps what it did). */
  readonly onReport?: (report: ActionReport) => void;
  /** Receives how each replayed action found its target and effects (a trace). */
  readonly onDetail?: DetailSink;
}

/** What every strategy works with: the application's stage and the cycle's options. */
export interface CycleContext {
  readonly stage: Stage;
  readonly options: CycleOptions;
}

export interface LearnStepInput {
  readonly kind: 'learn';
  readonly action: Action;
  readonly index: number;
  /** Regions seen changing on their own before learning began. */
  readonly dynamic: readonly Region[];
  /** Where the recording's images go. */
  readonly assets: AssetSink;
}

export interface ReplayStepInput {
  readonly kind: 'replay';
  readonly recorded: RecordedAction;
  readonly index: number;
  /** Decodes an image of the path. */
  readonly image: (name: string) => Frame;
  /** Where the images of a re-observed (healed) action go. */
  readonly assets: AssetSink;
  /**
   * The path records what appeared and went in the app's elements (format 3): any other
   * change of its elements is news. Older paths recorded only changed properties.
   */
  readonly treeRecorded?: boolean;
  /** The window's size when the path was recorded: a window drawn larger now is searched at its scale. */
  readonly recordedWindow?: { readonly width: number; readonly height: number };
}

/** A secret action's images and detail never leave the cycle. */
export const isSecret = (recorded: RecordedAction): boolean =>
  recorded.secret === true || (recorded.action.kind === 'type' && containsSecret(recorded.action.text));

/** One action to do: learned (planned now) or replayed (from a recorded path). */
export type CycleStep = LearnStepInput | ReplayStepInput;

/** Where the targets of an action were found. */
export interface Resolved {
  readonly points: Point[];
  readonly resolvedBy: ResolvedBy;
  readonly offset: Point;
  /** The text read under the first target, when learning (the anchor's OCR text). */
  readonly text?: string;
  /** Replay: what each rung of the ladder saw of the first target. */
  readonly tried?: readonly RungTry[];
}

export interface Unresolved {
  readonly failure: string;
  /** Where the target's anchor was recorded, and the best place a rung found: evidence. */
  readonly recorded?: Region;
  readonly candidate?: Region;
  readonly tried?: readonly RungTry[];
}

/** The settle phase ended the action already (an app that ended under it): its outcome. */
export interface Done {
  readonly outcome: ActionOutcome;
}

/** The verify phase found the window exactly as before the action: it is done again. */
export const AGAIN = Symbol('again');

/**
 * The phase-specific parts of the cycle. `Acted` and `Settle` are the strategy's own state
 * from one phase to the next. A phase that builds a report before it ends laps the clock first.
 */
export interface CycleStrategy<S extends CycleStep, Acted extends object, Settle extends object> {
  /** How a failure message names the action. */
  name(step: S): string;
  /** Phase 1 (wait): the settled window the action starts from. */
  ready(step: S, attempt: number): Promise<Settled>;
  /** Phase 2 (resolve): where the targets are now, and the window they were found on. */
  resolve(step: S, ready: Settled): Promise<{ readonly before: Settled; readonly resolved: Resolved | Unresolved }>;
  /** Sends the evidence of a target not found. */
  lost(step: S, before: Settled, unresolved: Unresolved): void;
  /** Phase 3 (act): does the action; a string says why it could not be done. */
  act(step: S, before: Settled, resolved: Resolved): Promise<Acted | string>;
  /** Phase 4 (settle): waits for the window to react. */
  settle(step: S, acted: Acted, clock: PhaseClock, attempt: number): Promise<Settle | Done>;
  /** Phase 5 (verify): judges and keeps what the action did, or asks for it to be done again. */
  verify(step: S, settled: Settle, clock: PhaseClock, attempt: number): Promise<ActionOutcome | typeof AGAIN>;
}
