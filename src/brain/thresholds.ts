/**
 * Every threshold the brain decides by, in one place. A verdict is only as trustworthy as these
 * numbers, so each one says what it guards against and where it was measured; change them here
 * and nowhere else (docs/how-it-works.md quotes them).
 */
import type { ResolvedBy } from '../domain.ts';

/**
 * One rung of the target ladder, as data: the order of `RUNGS` is the order replay tries them,
 * from the cheapest and surest to the dearest (a comparison, a search, OCR, a model request). A rung's hit is accepted when its score reaches
 * `minScore` and beats the best other place on the screen by `margin` (look-alike controls, such
 * as a keypad's keys, must not be confused for each other).
 */
export interface RungSpec {
  readonly name: ResolvedBy;
  /** Lowest acceptable score, 0..1. */
  readonly minScore: number;
  /** How far the best score must be above the runner-up's, 0..1. */
  readonly margin: number;
}

export const RUNGS: readonly RungSpec[] = Object.freeze([
  // The element the toolkit publishes (AT-SPI), by role and name, where the app publishes any;
  // the score is how well the recorded anchor image matches at the element's box (moved with
  // it): low when something covers the element. A focus ring or a pressed look costs ~0.1–0.3.
  { name: 'element', minScore: 0.6, margin: 0 },
  // The anchor image compared at its recorded place: a near-exact match (0.97 ZNCC) keeps
  // sub-pixel text rendering and a blinking caret from sending replay down the ladder.
  { name: 'recorded', minScore: 0.97, margin: 0 },
  // The anchor image searched over the window (a moved button).
  // Look-alike controls (a keypad's keys) score up to ~0.9 against each other: the best place
  // must beat the runner-up by a margin, or the ladder falls through to OCR.
  { name: 'template', minScore: 0.9, margin: 0.05 },
  // The target's text read by OCR (a restyled button); the score is OCR's own match score.
  { name: 'ocr', minScore: 0.5, margin: 0 },
  // The model, asked where the target is now (only with --heal-with-model).
  { name: 'model', minScore: 0, margin: 0 },
] satisfies RungSpec[]);

/** How a replayed effect is compared with its recorded image. */
export const EFFECT_THRESHOLDS = Object.freeze({
  /** Per-pixel colour tolerance of effect images (pixelmatch's threshold, 0..1). */
  pixelThreshold: 0.1,
  /**
   * Per-channel difference forgiven once the caret is set aside: sub-pixel text rendering, not a
   * repainted background (pale green to pale pink differs by 19–30 per channel).
   */
  channelTolerance: 12,
  /** How sure a template search must be before an effect counts as found elsewhere. */
  relocateMinScore: 0.97,
  /**
   * A change of fewer pixels than this is a rendering speck (an anti-aliased corner repainted),
   * not an effect worth verifying: even a typed "." changes more. At replay it grows with the
   * square of how much larger the target is drawn (`drawnScale`).
   */
  minEffectPixels: 6,
  /**
   * Effects are padded so their image carries a little context and survives 1-px jitter. Learning
   * pads at the recorded scale; a text found elsewhere at replay is padded `drawnScale` times this.
   */
  padding: 3,
  /**
   * A blanked region verifies when a changed region at least this much smaller is flat. Not
   * scaled: a lower bound, which a field cleared at a larger scale clears by more.
   */
  blankSlackPx: 6,
  /**
   * How alike the structure (edges, not colours: vision/structure.ts) of a look must be to its
   * recorded image when its pixels differ — a theme repainted it. Measured on the calculator
   * fixture: its display repainted light-on-dark scores 0.99, another value in it 0.71; the most
   * alike two different keys ("6" and "0", sharing their frame) 0.93; the display shifted by
   * one pixel 0.94 (a look is compared where it was found, so no shift is forgiven). The list
   * fixture's selected item in its dark theme scores 0.99, the item unselected 0.72; in a larger
   * font 0.90, and around its text (the text's boxes left out) 1.00, the item unselected 0.00.
   */
  structureMin: 0.95,
  /**
   * A change reaching at most this far outside the target's box can be the target's own feedback:
   * at the recorded size, `drawnScale` times this where the target is drawn larger.
   */
  feedbackReachPx: 8,
  /** The target's inside: its box less this share of its smaller side on every side. */
  feedbackInsideShare: 0.2,
  /** The inside of a target whose structure stays this alike kept its label and marks: feedback. */
  feedbackStructure: 0.9,
});

/** How a change that no recorded effect accounts for is told from one that is accounted for. */
export const UNEXPECTED_LIMITS = Object.freeze({
  /**
   * A change this close to a verified effect, the target or a dynamic region belongs to it: text
   * one size larger, or re-read a few pixels away, still changes pixels just around its box. At
   * replay `drawnScale` times this; beside a region seen changing on its own (observe.ts) it stays,
   * as that region was seen at the present scale.
   */
  slackPx: 6,
  /** How often a candidate is looked at again to see whether it changes on its own. */
  watchIntervalMs: 100,
});

/** Bounds of the action cycle's waits and retries. */
export const CYCLE_LIMITS = Object.freeze({
  /**
   * How long a learned action waits for the screen to start changing before it counts as having
   * no visible effect. Only learning pays it, and only for actions that change nothing.
   */
  learnReactMs: 400,
  /** A replayed action with recorded effects waits for them at least this long… */
  replayReactMinMs: 1500,
  /** …or this many times the settle time seen when it was recorded, whichever is longer. */
  replayReactFactor: 3,
  /**
   * How many times an action that left the screen untouched is done again — only once its whole
   * time limit (timeouts.actionMs) passed without any reaction: a slow app is never acted on twice.
   */
  maxRetries: 1,
  /**
   * How long the last action's effects must hold on screen before the replay ends (an effect that
   * reverts on its own did not happen), at least; between actions the next action's wait is the
   * hold. It grows with the path's pace: `holdAfterLast`.
   */
  holdMs: 400,
  /**
   * Learning records an action's effect only once the window stayed unchanged this long (a
   * caret and content that changes on its own aside): an effect caught half drawn — text still
   * being typed on a loaded machine — would be saved, and fail every replay.
   */
  recordQuietMs: 400,
  /**
   * Learning reads the app's elements after an action until two reads this far apart agree: a
   * toolkit may publish a relaid-out element without its box first (Chromium: a label whose text
   * changed read once at 0 × 0, and was recorded as gone, so every replay reported its new name as news)…
   */
  treeQuietMs: 60,
  /** …for at most this long; a tree that keeps changing (a clock's label) is taken as last read. */
  treeSettleMs: 1000,
  /**
   * How long learning watches the idle window for content that changes on its own (a clock
   * ticking each second, a banner rotating): long enough to see a one-second tick.
   */
  dynamicProbeMs: 1200,
  /** The same action, with no effect, this many times in a row is a learning loop going nowhere. */
  repeatLimit: 3,
  /** How often learning reads the elements again while a typed text is not in them yet. */
  typedPollMs: 50,
  /** How often the window is looked at while the last replayed action's effects are held. */
  holdPollMs: 50,
  /**
   * A replayed action's wait ends once every deciding effect shows its recorded pixels and the
   * window stayed unchanged this long: a change painted in two bursts is rarely caught between
   * them, and one that is, or that comes later (a result falling back), is caught by the hold's
   * look before the next action (replay-hold.ts) or its watch after the last one. 20 ms (a 60 Hz
   * frame and a little) cost ~10 ms a click with nothing ever seen changing after it (a probe of
   * 96 replayed clicks on galculator and the fixtures: no window changed since its verification).
   */
  effectQuietMs: 10,
});

/**
 * The hold after the last action: `holdMs`, or as long as the slowest reaction recorded on the
 * path is allowed on replay (`replayReactFactor` × its settle time), whichever is longer. An app
 * that took 500 ms to settle while learned may take that long to undo a result it shows; a late
 * change after the hold is still judged, by the expectations and the tree read on the final screen.
 */
export const holdAfterLast = (slowestSettleMs: number): number =>
  Math.max(CYCLE_LIMITS.holdMs, CYCLE_LIMITS.replayReactFactor * slowestSettleMs);

/** How the app's published elements (AT-SPI) are waited for and read. */
export const ELEMENT_LIMITS = Object.freeze({
  /** How often a role target is looked for again while the app has not published it yet. */
  targetPollMs: 100,
  /** How often the elements are read again while a replayed effect has not shown in them yet. */
  effectPollMs: 40,
  /** How long a list just opened (a `select:`) may take to show its options… */
  listOpenMs: 2000,
  /** …looked for this often. */
  listPollMs: 50,
  /** Most elements an action is recorded to bring or take away: a new screen's first ones say it came. */
  maxAppeared: 60,
});

/** Typing into a published field key by key, each key seen in its text before the next. */
export const PACE_LIMITS = Object.freeze({
  /** How long the field may take to take the focus. */
  focusMs: 1_000,
  /**
   * How long a key may take to show in the field's text before it is taken as lost and sent once
   * more. Long: a key that was only late shows twice when sent again ("TTeaa" for "Tea", from a
   * browser whose tree fell half a second behind on a loaded machine), and a key shows in tens
   * of milliseconds on an app that keeps up, so the bound costs nothing there.
   */
  keyMs: 3_000,
  /** How often the field's text is read while waiting. */
  pollMs: 10,
  /** A longer text is typed at once: paced, it would cost a round trip per character. */
  maxPacedChars: 64,
});

/** How long a failure waits to learn that the app ended under it (an app's end is a verdict, not a fault). */
export const APP_END_LIMITS = Object.freeze({
  /** A failed operation of the stage (a capture, a read) waits this long for the app's exit. */
  stageGraceMs: 300,
  /** A failed capture after an action (its window gone) waits this long to learn the app is ending. */
  endingGraceMs: 1000,
});

/**
 * A window drawn at another scale than it was recorded at (another DPI, GDK_SCALE, a browser's
 * zoom), told by its size: the template rung then searches the anchor resized by how much the
 * window grew, under the rung's own `minScore` and `margin`.
 */
export const SCALE_LIMITS = Object.freeze({
  /** Sides that changed by less than this share are the recorded scale: a frame a few pixels off. */
  sameScale: 0.05,
  /** Scales outside these bounds are another layout, not the same window drawn larger or smaller. */
  min: 0.5,
  max: 3,
});

/**
 * Where an action's anchor image is cut: by learning, at the scale it records (the recorded
 * scale by definition). A replayed point target with no anchor keeps the fallback box as its own
 * look's place: nothing tells its size.
 */
export const ANCHOR_LIMITS = Object.freeze({
  /** The crop around the point when no control holds it. */
  fallback: { width: 56, height: 36 },
  /** A control larger than this is a panel, not a button: anchor on the fixed crop instead. */
  maxControl: { width: 320, height: 120 },
});

/** How the control the pointer rests on is told where the app publishes no elements (pointer-trail.ts). */
export const POINTER_LIMITS = Object.freeze({
  /**
   * A hover look reaches at most this many times the target's found box, in height (the control's
   * row) and in width (its indicator beside its label): on the Tk order form, Express's label is
   * 58×17 and the radio button it lights 85×21. Shares of the target, so they scale with it.
   */
  hoverReach: { rows: 2, widths: 3 },
});

/** What the screen of a typed secret hides: margins that hide, never decide a verdict, so not scaled. */
export const SECRET_SCREEN_LIMITS = Object.freeze({
  /** Margin around a hidden region: anti-aliased edges of the glyphs and the caret. */
  marginPx: 3,
  /** Context read around a changed area: a word cut at its edge would not read as the secret. */
  readContextPx: 24,
  /** An element bigger than this share of the window is a panel, not the place that shows a secret. */
  maxElementShare: 0.5,
});

/** How the final screen is judged (src/brain/assert/judge.ts). */
export const JUDGE_LIMITS = Object.freeze({
  /** The shortest hold: what an app that reacted at once gets. */
  holdFloorMs: 300,
  /** The hold is this many times the longest settle time seen while learning. */
  holdFactor: 3,
  /** How many times a screen that changed while being judged is judged again. */
  rounds: 3,
  /** Beyond two holds, how long to wait for a quiet window before leaving out what keeps changing. */
  quietGraceMs: 1000,
});

/** The navigation graph: when two screens are one state. */
export const GRAPH_LIMITS = Object.freeze({
  /** Fingerprints (vision/fingerprint.ts) closer than this are the same state. */
  sameStateDistance: 0.04,
});

/** How the expectations (src/brain/assert) wait for what they check. */
export const EXPECTATION_LIMITS = Object.freeze({
  /** Polling: the first attempt at once, then backing off along these waits (Playwright's way). */
  pollIntervalsMs: [0, 100, 250, 500, 1000] as readonly number[],
  /** How long a `window:` expectation waits for the focused window's title. */
  windowTimeoutMs: 2000,
});
