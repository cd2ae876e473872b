/**
 * The domain vocabulary of retrace, in one place. The names are the names of PRODUCT.md:
 * Frame, Region, Point, Action, Anchor, Effect, Path, Goal, Verdict.
 */

/** A position in pixels. Window-relative unless a name says otherwise. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** An axis-aligned rectangle in pixels. */
export interface Region {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * An image in memory: RGBA, 4 bytes a pixel, rows top to bottom, no padding.
 * Every vision function takes and returns frames; only `src/desktop` makes them from the screen.
 */
export interface Frame {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

/**
 * What the display says about drawing in a watched window (X DAMAGE): when to look again. The
 * frames decide what changed; a report only saves looking when nothing was drawn.
 */
export interface DrawReport {
  /** Forget what was drawn so far: called right before each grab. */
  mark(): void;
  /**
   * Resolves true once something was drawn since the last mark (at once when it already was),
   * or false at `until` (performance.now() ms) with nothing drawn.
   */
  drawn(until: number): Promise<boolean>;
}

/**
 * A widget the toolkit publishes over the accessibility bus, by role (`button`, `entry`…) and
 * accessible name (its label, for a field without a name). A name written `/…/flags` is a
 * regular expression; otherwise it matches exactly. `nth` picks among equals, from 0.
 */
export interface ElementTarget {
  readonly role: string;
  readonly name?: string;
  readonly nth?: number;
}

/**
 * retrace's role names: the words a spec puts before a target (`click button "OK"`). Each
 * desktop maps its toolkit's roles onto them.
 */
// biome-ignore format: a list of words, packed
export const ELEMENT_ROLES = [
  'button', 'checkbox', 'radio', 'entry', 'textarea', 'spinbutton', 'label', 'heading', 'paragraph',
  'link', 'image', 'combobox', 'list', 'item', 'tree', 'table', 'cell', 'row', 'columnheader', 'menu',
  'menubar', 'menuitem', 'tab', 'tablist', 'slider', 'scrollbar', 'progressbar', 'toolbar', 'statusbar',
  'separator', 'tooltip', 'terminal', 'window', 'dialog', 'document', 'group',
] as const;

export type ElementRole = (typeof ELEMENT_ROLES)[number];

/** Where an action points: a window-relative position, a text found on screen by OCR, or an element. */
export type Target = Point | { readonly text: string } | ElementTarget;

export const isTextTarget = (target: Target): target is { readonly text: string } => 'text' in target;

export const isElementTarget = (target: Target): target is ElementTarget => 'role' in target;

export const isPointTarget = (target: Target): target is Point => 'x' in target;

export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

/**
 * One thing done to the application. Text fields may hold `${env.X}` / `${secret.X}`
 * placeholders: they are resolved only when the action is performed, so a path file,
 * a report or a prompt never holds a secret.
 */
export type Action =
  /** `changes: 'nothing'`: expected to change nothing, so learning does not refuse it for that. */
  | { readonly kind: 'click' | 'double-click' | 'right-click'; readonly target: Target; readonly changes?: 'nothing' }
  | { readonly kind: 'type'; readonly text: string; readonly into?: Target; readonly changes?: 'nothing' }
  | { readonly kind: 'key'; readonly combo: string }
  | {
      readonly kind: 'scroll';
      readonly direction: ScrollDirection;
      readonly amount: number;
      readonly target?: Target;
    }
  | { readonly kind: 'drag'; readonly from: Target; readonly to: Target }
  /** Clicks the target only when its checked state is not `checked` already. */
  | { readonly kind: 'check'; readonly target: Target; readonly checked: boolean }
  /** Picks `option` (an item's name) in the target list or combo box, opening it when needed. */
  | { readonly kind: 'select'; readonly option: string; readonly target: Target }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'wait-for'; readonly text: string; readonly timeoutMs?: number };

export type ActionKind = Action['kind'];

/** How a replayed action found its target, from the cheapest rung of the ladder to the dearest. */
export type ResolvedBy = 'element' | 'recorded' | 'template' | 'ocr' | 'model';

/** How a goal reached its verdict. */
export type Mode = 'learned' | 'replayed' | 'healed' | 'relearned' | 'scripted';

/** The verdict of one goal. failed = product mismatch; broken = infrastructure fault. */
export type Status = 'passed' | 'failed' | 'broken' | 'skipped';

/** Why a learning loop stopped. */
export type StopReason = 'goal_achieved' | 'max_steps' | 'budget' | 'no_progress' | 'error';

/** What a failure was about; maps to Allure categories. `no-path`: nothing learned and learning is off. */
export type FailureCategory =
  | 'no-path'
  | 'target-not-found'
  | 'effect-not-verified'
  | 'unexpected-change'
  | 'expectation-failed'
  | 'infrastructure';

/** One step of an element's place in its window: its role and its index among its siblings. */
export interface ElementStep {
  readonly role: string;
  readonly index: number;
}

/** The element under a target when the action was recorded, as the accessibility bus named it. */
export interface ElementAnchor {
  readonly role: string;
  /** Its accessible name (its label, for a field without a name of its own). */
  readonly name: string;
  /** Its box, window-relative. */
  readonly box: Region;
  /** From its top-level window down to the element itself. */
  readonly path: readonly ElementStep[];
}

/**
 * The anchor of a target: what was under the pointer when the action was recorded.
 * `image` and `box` describe a small crop around `point`; all window-relative.
 */
export interface Anchor {
  readonly point: Point;
  readonly box: Region;
  /** Asset file name of the crop, inside `<goal>.assets/`. */
  readonly image: string;
  /** OCR text under the point, if any (masked for secret-typing actions). */
  readonly text?: string;
  /** The element under the point, when the app publishes its elements. */
  readonly element?: ElementAnchor;
}

/** Element properties an action can change, as they were after it. */
export interface ElementProperties {
  readonly name?: string;
  readonly text?: string;
  readonly value?: number;
  readonly checked?: boolean;
  readonly sensitive?: boolean;
  readonly focused?: boolean;
  readonly selected?: boolean;
  readonly expanded?: boolean;
}

/**
 * What an `element:` expectation may ask of an element's state besides its name; its `text` is
 * exact or `/regex/flags` (an entry's text, else the element's name).
 */
export type ElementStateQuery = Omit<ElementProperties, 'name' | 'expanded'>;

/**
 * An element whose text, value, name or states an action changed, or that it brought or took
 * away (a row, a dialog, an alert): verified exactly on replay, by role, name and place.
 */
export interface ElementEffect {
  readonly role: string;
  /** Its accessible name before the action (after it, for one that appeared). */
  readonly name: string;
  readonly path: readonly ElementStep[];
  /** Only what changed, as it was once the screen settled; all it shows, for one that appeared. */
  readonly after: ElementProperties;
  /** It was not there before the action (`appeared`), or is not after it (`gone`); absent: it changed. */
  readonly change?: 'appeared' | 'gone';
  /** Its box, window-relative, once the screen settled (before the action, for one gone). Absent in older paths. */
  readonly box?: Region;
}

/**
 * What a recorded change means, decided when it was recorded:
 * - `feedback`: the target's own look (pressed, focus ring, hover): it reads the same before and
 *   after. Kept for the record, it never decides a verdict.
 * - `text`: content whose words changed: verified by what it says (OCR, exact).
 * - `look`: content whose words did not change, or that holds none (an icon, a highlight, a
 *   check mark): verified by its pixels, or by its structure when the colours changed.
 * - `exit`: the application ended (its window closed with it): verified by the app exiting
 *   again, with the same exit code. Its region is the whole window; it has no image.
 * - `element`: a change on an element the action changed in the app's tree (one of its element
 *   effects): verified by that element effect, exactly; its pixels are evidence for the report,
 *   never a condition — but a text's colour role still is (the same words styled as an error).
 * Regions that change on their own are no effect: they are the action's `dynamic` regions.
 */
export type EffectKind = 'feedback' | 'text' | 'look' | 'exit' | 'element';

/** How an application ended: its exit code, or the signal that killed it. */
export interface ExitStatus {
  readonly code: number | null;
  readonly signal: string | null;
}

/** "exited with code 0", "was killed by SIGSEGV". */
export const describeExit = (exit: ExitStatus): string => (exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`);

/** The role a text's colours give it: an error is red, a success green, whatever the theme. */
export type TextRole = 'plain' | 'alert' | 'success';

/** A region that changed after an action, with what it looked like once the screen settled. */
export interface Effect {
  readonly region: Region;
  /** Absent in paths of format version 1: `text` when it has text, else `look`. */
  readonly kind?: EffectKind;
  /**
   * Asset file name of the post image. Absent when the action typed a secret: then only
   * "this region changed" is verified, so no image of the secret is ever stored.
   */
  readonly image?: string;
  /** What OCR read in the post image, if anything; lines separated by "\n". */
  readonly text?: string;
  /** The role of the text's colours, when not plain (a `text` effect only). */
  readonly role?: Exclude<TextRole, 'plain'>;
  /** How the app ended (an `exit` effect only). */
  readonly exit?: ExitStatus;
}

/** One recorded action of a path. */
export interface RecordedAction {
  readonly action: Action;
  readonly anchor?: Anchor;
  /** Fingerprint of the window before the action. */
  readonly before: string;
  /** Fingerprint of the window after the action settled. */
  readonly after: string;
  readonly effects: readonly Effect[];
  /** What the action changed in the app's elements (text, value, states), when it publishes them. */
  readonly elements?: readonly ElementEffect[];
  /** Regions that changed on their own while recording; left out of verification. */
  readonly dynamic: readonly Region[];
  readonly settleMs: number;
  /** True when the action typed a secret: its images and OCR text are masked. */
  readonly secret?: boolean;
  /**
   * The first action of a path, when it has no target (typing, a key): the line its first effect
   * appears on, across the window, as it looked before the action (a terminal's prompt). Replay
   * waits for it before acting. Absent in older paths.
   */
  readonly beforeLine?: { readonly region: Region; readonly image: string };
}

/** The `exit` effect of an action, if it ended the app. */
export const exitOf = (recorded: RecordedAction): Effect | undefined => recorded.effects.find((e) => e.kind === 'exit');

/** Effects that show on screen: all but the app's end. */
export const onScreen = (effects: readonly Effect[]): readonly Effect[] => effects.filter((e) => e.kind !== 'exit');

/** Where a path came from: the goal text, or the hand-written steps. */
export interface PathSource {
  readonly kind: 'goal' | 'steps';
  /** sha256 of the canonical source text; a different hash makes the path stale. */
  readonly hash: string;
  readonly text: string;
}

/** A recorded path: the recipe that reaches a goal. Stored as `<goal>.path.json`. */
export interface Path {
  readonly version: number;
  readonly spec: string;
  readonly goal: string;
  readonly source: PathSource;
  /** Who made it: a planner, the spec's `steps:`, or a person (`retrace record`). */
  readonly planner: 'rules' | 'claude' | 'scripted' | 'demonstrated';
  readonly model?: string;
  /** Window size when recorded. */
  readonly window: { readonly width: number; readonly height: number };
  /**
   * Where the pointer rested before the first action, relative to the window (outside it):
   * replay puts it there, so hover state starts the same. Absent in older paths: then parked.
   */
  readonly pointer?: Point;
  readonly actions: readonly RecordedAction[];
}

/**
 * Per-action result, as in `reports/summary.json`. `ms` is the whole action; it splits into
 * `waitMs` (the screen settling before), `resolveMs` (finding the target), `actMs` (input),
 * `settleMs` (the screen settling after) and `verifyMs` (checking the effects).
 */
export interface ActionReport {
  readonly kind: ActionKind;
  readonly ms: number;
  readonly waitMs: number;
  readonly resolveMs: number;
  readonly actMs: number;
  readonly settleMs: number;
  readonly verifyMs: number;
  /** How many times the action was done again because its effect did not appear. */
  readonly retries: number;
  readonly verified: boolean;
  readonly resolvedBy: ResolvedBy;
  /** A short human description, secrets masked. */
  readonly description?: string;
  /** Changes the action caused that its path did not record (a failure, or a warning). */
  readonly unexpected?: readonly UnexpectedChange[];
  /** Its element effects, in words (`label "Total: 0" → "Total: 1"`), when the app publishes elements. */
  readonly elements?: readonly string[];
  /** Images that show what went wrong, as files under the reports directory. */
  readonly evidence?: readonly EvidenceFile[];
  /**
   * Why the action healed, when it did: the rung that found its target, and each effect found
   * other than as recorded ("target found by template, moved by 40, 40 px; text "Count: 1" found at …").
   */
  readonly healed?: string;
}

/** A change an action caused that its recorded path does not account for. */
export interface UnexpectedChange {
  /** Window-relative, where it is in the window after the action. */
  readonly region: Region;
  /** What OCR read there ("" when it holds no text). */
  readonly text: string;
  /** What changed in the app's elements there, in words ("dialog "Error" appeared"), when the tree told it. */
  readonly element?: string;
}

/** An evidence image written for an action. */
export interface EvidenceFile {
  /** What it shows: "target not found", "unexpected change (after)", "effect diff", … */
  readonly name: string;
  /** Relative to the reports directory, e.g. "evidence/specs/calc/add/action-3-after.png". */
  readonly file: string;
}

/** The verdict of one goal run, as in `reports/summary.json`. */
export interface Verdict {
  readonly spec: string;
  readonly goal: string;
  readonly status: Status;
  readonly mode: Mode;
  readonly modelCalls: number;
  readonly durationMs: number;
  readonly actions: readonly ActionReport[];
  readonly category?: FailureCategory;
  readonly message?: string;
  /** Index of the action where the goal failed, if an action failed. */
  readonly failedAction?: number;
  readonly stopReason?: StopReason;
  /** What passed but deserves a look: an unexpected change under `unexpectedChanges: warn`. */
  readonly warnings?: readonly string[];
  /** Where the goal's time went; absent for a goal no worker reported (it never ran). */
  readonly phases?: GoalPhases;
}

/**
 * A goal's time split, in ms. `launchMs` through `checkMs` add up to the goal's `durationMs`;
 * `startMs` comes before it and `reportMs` after it, so a worker's goals, each with its start
 * and report, add up to the worker's wall clock.
 */
export interface GoalPhases {
  /** The run's share before the goal: from the command (the first goal of a worker) or the worker's previous goal to this one. */
  readonly startMs: number;
  /** Starting the app until its window is on screen, sized and focused (0 for a shared app already running). */
  readonly launchMs: number;
  /** From the window on screen to the first action: the start state awaited, expectations read before acting. */
  readonly readyMs: number;
  /** The actions, from the first one's start to the last one's end (a relaunch for --relearn included). */
  readonly actionsMs: number;
  /** Waiting for the final screen to hold still before it is judged. */
  readonly holdMs: number;
  /** Judging the expectations. */
  readonly checkMs: number;
  /** Writing the goal's reports and evidence and closing its app. */
  readonly reportMs: number;
}

/** The run's own start-up, in ms: where the time before the first goal went (summary.json `startup`). */
export interface RunStartup {
  /** From the command's start to the engine's start: the CLI loading, validating every input. */
  readonly cliMs: number;
  /** From the engine's start to the first worker opening its display: vitest, its worker process. */
  readonly engineMs: number;
  /** The first worker's display and its session services starting (0 when they were already up). */
  readonly displayMs: number;
  /**
   * From that display being up to the worker's first goal starting: the worker still loading the
   * spec and the engine of retrace it imports, which it began alongside the display (0 when that
   * was done first). Absent from summaries written before it was measured.
   */
  readonly loadMs?: number;
}

/** What one rung of the ladder saw while looking for a target: for a trace, never for a verdict. */
export interface RungTry {
  readonly rung: ResolvedBy;
  readonly score: number;
  /** Score of the best other place (0 when there is none). */
  readonly runnerUp: number;
  /** Window-relative, where the rung would put the target. */
  readonly box?: Region;
  readonly accepted: boolean;
}

/** One recorded effect as replay looked for it, window-relative. */
export interface EffectSeen {
  readonly kind: string;
  /** Where it was recorded. */
  readonly expected: Region;
  /** Where it was found, or looked for. */
  readonly found: Region;
  readonly verified: boolean;
  readonly moved: boolean;
  /** The target's own feedback: never decides. */
  readonly skipped?: boolean;
  /** What the recording read there. */
  readonly text?: string;
  /** Why it did not verify. */
  readonly detail?: string;
}

/** How a replayed action found its target and its effects: what a trace shows of it. */
export interface ActionDetail {
  readonly rungs: readonly RungTry[];
  readonly effects: readonly EffectSeen[];
  /**
   * The element effects recorded ("entry "Name": text "Alice""); `checked` false when the pixels
   * failed first, else `problem` says why they did not hold (absent: they held).
   */
  readonly elements?: {
    readonly expected: readonly string[];
    /** Where the recorded elements were, window-relative (older paths kept no boxes). */
    readonly boxes?: readonly Region[];
    readonly checked: boolean;
    readonly problem?: string;
  };
}
