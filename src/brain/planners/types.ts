/** The planner seam: what decides the next action while a goal is being learned. */
import type { Action, ElementTarget, Frame, Region, StopReason } from '../../domain.ts';

/** An element the app publishes, as a planner is shown it: `box` in window pixels. */
export interface OfferedElement {
  readonly role: string;
  /** Its accessible name, a secret in it masked. */
  readonly name: string;
  readonly box: Region;
  /**
   * How an action names this element (role, name, and `nth` among equals), so a path learned by
   * clicking it reads `click button "OK"` and replays by the element rung. Absent when no target
   * would name it alone: no name, a masked one, or one that reads as a /regex/.
   */
  readonly target?: ElementTarget;
}

/** What a planner sees before each decision. */
export interface Observation {
  /** The application's main window, RGBA. Coordinates in actions are relative to it. */
  readonly frame: Frame;
  /** 0-based index of the decision. */
  readonly step: number;
  /** What the previous action did to the screen, when there was one. */
  readonly previous?: {
    readonly action: Action;
    readonly changed: boolean;
    /** An error performing it (e.g. a text target not found), if any. */
    readonly error?: string;
  };
  /** The visible elements a person could act on or read, for planners that see elements, when the app publishes them. */
  readonly elements?: readonly OfferedElement[];
}

export type Decision =
  | { readonly kind: 'act'; readonly action: Action; readonly note?: string }
  | { readonly kind: 'done'; readonly reason: StopReason; readonly message?: string };

export interface Planner {
  readonly name: 'rules' | 'claude';
  /** The model, for planners that call one. */
  readonly model?: string;
  /** The learner reads the app's elements for each observation. */
  readonly seesElements?: boolean;
  next(observation: Observation): Promise<Decision>;
  /** Model requests made so far. */
  readonly modelCalls: number;
  /** Input + output tokens used so far. */
  readonly tokens: number;
}

/** Limits of one learning loop (PRODUCT.md, "Learning"). */
export interface LearningBounds {
  /** @default 25 */
  readonly maxSteps: number;
  /** @default 30 */
  readonly maxModelCalls: number;
  /** @default 200000 */
  readonly maxTokens: number;
  /** @default 300000 */
  readonly maxWallMs: number;
}
