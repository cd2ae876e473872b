/**
 * The run options and their built-in defaults: the one place a default value lives.
 * The config format, the spec's `options:`, the JSON Schema, the reference and `resolveOptions`
 * all read the values from `DEFAULT_OPTIONS` below.
 */

export const LEARN_MODES = ['auto', 'off', 'force'] as const;
/** auto: learn goals without a path or with a stale one; off: such a goal fails; force: relearn all. */
export type LearnMode = (typeof LEARN_MODES)[number];

export const PLANNERS = ['auto', 'claude', 'rules'] as const;
/** auto: Claude when `ANTHROPIC_API_KEY` is set, else the offline rules planner. */
export type PlannerChoice = (typeof PLANNERS)[number];

export const BASELINE_UPDATES = ['missing', 'changed', 'all', 'none'] as const;
/** Which screenshot baselines a run may write. */
export type BaselineUpdate = (typeof BASELINE_UPDATES)[number];

export const UNEXPECTED_CHANGES = ['fail', 'warn'] as const;
/** What a change an action caused, which its path did not record, does to the goal. */
export type UnexpectedChanges = (typeof UNEXPECTED_CHANGES)[number];

export const TRACE_MODES = ['off', 'on', 'retain-on-failure'] as const;
/** When a goal keeps its trace (`<reports>/traces/`): never, always, or when it did not pass. */
export type TraceMode = (typeof TRACE_MODES)[number];

/** Time limits, all in milliseconds. */
export interface Timeouts {
  /** Wall clock for one goal: replay or learning of its actions plus its expectations. */
  readonly goalMs: number;
  /** One action: wait for a stable screen, resolve the target, act, settle, verify. */
  readonly actionMs: number;
  /** The longest wait for the screen to settle (two equal frames) after an action. */
  readonly settleMs: number;
  /** How long to wait for the application's window after launch. */
  readonly windowMs: number;
  /** How long an expectation may poll before it fails, unless it sets `timeoutMs`. */
  readonly expectMs: number;
}

/** Bounds of one goal's learning loop (PRODUCT.md, "Learning and replay"). */
export interface Bounds {
  readonly maxSteps: number;
  readonly maxModelCalls: number;
  /** Input plus output tokens, summed over the goal's model calls. */
  readonly maxTokens: number;
  readonly maxWallMs: number;
}

/** Every run setting with a value: what `resolveOptions` returns, deeply frozen. */
export interface ResolvedOptions {
  readonly learn: LearnMode;
  readonly planner: PlannerChoice;
  /** Learn a goal again when its replay fails for good. */
  readonly relearn: boolean;
  /** Let replay ask the model to find a lost target. */
  readonly healWithModel: boolean;
  /** A replayed action that had to be done again fails the goal. */
  readonly strict: boolean;
  /** fail: a change nobody recorded fails the goal; warn: it is reported, and the goal may pass. */
  readonly unexpectedChanges: UnexpectedChanges;
  /** When a goal keeps its trace. */
  readonly trace: TraceMode;
  readonly updateBaselines: BaselineUpdate;
  /** Parallel workers, each on its own virtual display. */
  readonly workers: number;
  /** Absolute directory of path files. */
  readonly paths: string;
  /** Absolute directory of reports. */
  readonly reports: string;
  /** Claude model id used by the Claude planner (and healing). */
  readonly model: string;
  readonly timeouts: Timeouts;
  readonly bounds: Bounds;
  /**
   * The virtual display retrace starts (its own Xvfb), and the fonts of the apps it launches:
   * absolute paths of font files or folders; none means DejaVu.
   */
  readonly display: { readonly size: readonly [number, number]; readonly fonts: readonly string[] };
}

const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
};

/**
 * Built-in defaults (the lowest layer). `updateBaselines` is `missing` here; `resolveOptions`
 * uses `none` instead when `CI` is set, as PRODUCT.md asks. `paths` and `reports` are relative
 * to the project root.
 */
export const DEFAULT_OPTIONS: ResolvedOptions = deepFreeze({
  learn: 'auto',
  planner: 'auto',
  relearn: false,
  healWithModel: false,
  strict: false,
  unexpectedChanges: 'fail',
  trace: 'retain-on-failure',
  updateBaselines: 'missing',
  workers: 1,
  paths: 'paths',
  reports: 'reports',
  model: 'claude-sonnet-5-5',
  timeouts: { goalMs: 120_000, actionMs: 10_000, settleMs: 5_000, windowMs: 30_000, expectMs: 5_000 },
  bounds: { maxSteps: 25, maxModelCalls: 30, maxTokens: 200_000, maxWallMs: 300_000 },
  display: { size: [1280, 800], fonts: [] },
} satisfies ResolvedOptions);

export { deepFreeze };

/**
 * The longest time a spec may give in milliseconds (a wait, a timeout): an hour. Larger values
 * are mistakes, and past 2^31 - 1 ms Node's timers fire at once, so a huge wait would not wait.
 */
export const MAX_MS = 3_600_000;
