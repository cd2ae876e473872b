/**
 * Waiting until the screen is stable, and finding regions that change on their own.
 *
 * The rule. The screen is stable when consecutive frames match — ignoring `ignore` regions and a
 * blinking caret — over at least `quietMs`. Frames are grabbed at short gaps (`intervalsMs`,
 * default 0, 10, 10, 15, 20, 25, 25 … ms); after every change seen the gaps start again from
 * the shortest, so the end of a change is caught quickly. With the defaults, while the screen is
 * changing a grab comes every 10 ms, so the last change is seen ≤ 10 ms after it happened and
 * three grabs (+10, +20, +35 ms) confirm the quiet: the wait ends ≤ ~45 ms (plus grab time) after
 * the screen's last change. There are no fixed sleeps: a still screen is stable after ~35 ms.
 *
 * Reacting late. Right after an action the screen usually still shows the old state — the app
 * has not redrawn yet — and would look stable at once. With `expectChangeFrom` (the frame before
 * the action) the wait first polls, every `reactPollMs`, for up to `reactMs` until the screen
 * differs from that frame; only then does it wait for quiet. An app that reacts after 200 ms is
 * so not declared stable at 35 ms, and an action without a visible effect costs `reactMs`.
 * A replay knows the settle time it recorded and can pass a tighter `reactMs`.
 *
 * A change that comes in two steps far apart (a button highlights at once, a dialog opens 300 ms
 * later) cannot be told from "settled after the first step" by any quiet window short enough to be
 * fast; the verifier, which knows the expected effect, keeps waiting for it.
 *
 * Knowing the end. A caller that knows what the change ends on (a replay: the recorded effects)
 * passes `ready`: once the window stayed unchanged for `readyQuietMs` and `ready` holds for the
 * frame, the wait ends without sitting out the rest of `quietMs`.
 *
 * Told when the app draws. A display that reports drawing (X DAMAGE: `drawing`) needs no
 * polling: the wait grabs a frame when something was drawn in the window (not sooner than
 * `drawGapMs` after the last grab), and once more when the quiet window would end, to confirm
 * it. The frames decide, as without it; the report only says when to look, so the end of a
 * change is seen as it is drawn and a still window costs one grab instead of one every 10 ms.
 *
 * Time is injected (`clock`), so tests run fake frame sequences without real waiting.
 */
import type { DrawReport, Frame, Region } from '../domain.ts';
import { changedRegions, framesEqual, mergeRegions } from './changes.ts';
import { regionsIntersect } from './frame.ts';

/** Time source and sleep; tests pass a fake one. */
export interface Clock {
  /** Milliseconds, monotonic. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = Object.freeze({
  now: () => performance.now(),
  sleep: (ms: number) => (ms <= 0 ? Promise.resolve() : new Promise<void>((resolve) => setTimeout(resolve, ms))),
});

/** The shape of a blinking text caret: a thin vertical bar. */
export interface CaretShape {
  /** @default 3 */
  readonly maxWidth: number;
  /** @default 40 */
  readonly maxHeight: number;
  /** Shorter changes are not a caret (a typed "." is a real change). @default 6 */
  readonly minHeight: number;
}

export interface SettleOptions {
  /** Give up after this long; the result then has `stable: false`. @default 3000 */
  readonly timeoutMs?: number;
  /**
   * Gaps between the starts of consecutive grabs, in ms. The first entry is the delay before
   * the first grab; the last one repeats. After a change the sequence restarts at its second
   * entry. @default [0, 10, 10, 15, 20, 25]
   */
  readonly intervalsMs?: readonly number[];
  /** How long frames must keep matching, in ms (0 = two consecutive matching frames). @default 30 */
  readonly quietMs?: number;
  /** Regions known to change on their own (a clock); never counted as change. @default [] */
  readonly ignore?: readonly Region[];
  /** Treat a blinking caret (see `caret`) as no change. @default true */
  readonly ignoreCaret?: boolean;
  /** What counts as a caret. @default { maxWidth: 3, maxHeight: 40, minHeight: 6 } */
  readonly caret?: Partial<CaretShape>;
  /** The frame before the action: first wait (up to `reactMs`) for the screen to differ from it. */
  readonly expectChangeFrom?: Frame;
  /** How long to wait for the first change from `expectChangeFrom`, in ms. @default 500 */
  readonly reactMs?: number;
  /** Gap between grabs while waiting for the reaction, in ms. @default 10 */
  readonly reactPollMs?: number;
  /**
   * The caller's sign that the change it waits for is complete (the expected effects show): a
   * frame for which it holds, unchanged for `readyQuietMs`, ends the wait as stable.
   */
  readonly ready?: (frame: Frame) => boolean;
  /**
   * How long a frame `ready` holds for must stay unchanged. @default 20 — a frame of a 60 Hz
   * compositor (16.7 ms) and a little: an app painting its change over two frames is not caught
   * between them.
   */
  readonly readyQuietMs?: number;
  /**
   * Told of each new state of the window as it is first grabbed: the frame the quiet is first
   * waited on from, and each frame that showed a change since. The wait ends on one of them (or
   * on a frame equal to it), so a caller that reads more than pixels about that state can start
   * while its quiet is still being confirmed.
   */
  readonly onState?: (frame: Frame) => void;
  /** @default realClock */
  readonly clock?: Clock;
  /** Stops the wait early; the result is then not stable. */
  readonly signal?: AbortSignal;
  /** The display's reports of drawing in the window: grabs when it draws instead of polling. */
  readonly drawing?: DrawReport;
  /** With `drawing`, the least gap between two grabs, so an animation is not grabbed per frame. @default 5 */
  readonly drawGapMs?: number;
}

export const SETTLE_DEFAULTS = Object.freeze({
  timeoutMs: 3000,
  intervalsMs: Object.freeze([0, 10, 10, 15, 20, 25]) as readonly number[],
  quietMs: 30,
  ignoreCaret: true,
  caret: Object.freeze({ maxWidth: 3, maxHeight: 40, minHeight: 6 }) as CaretShape,
  reactMs: 500,
  reactPollMs: 10,
  readyQuietMs: 20,
  drawGapMs: 5,
});

export interface SettleResult {
  /** True when frames matched over `quietMs` before the timeout. */
  readonly stable: boolean;
  /** The last frame grabbed (the stable one when stable). */
  readonly frame: Frame;
  /** ms from the call until the last change was seen (0 when nothing changed). */
  readonly settleMs: number;
  /** ms the call took in all. */
  readonly elapsedMs: number;
  /** How many frames were grabbed. */
  readonly frames: number;
  /** When not stable: the regions that kept changing at the end. Empty when stable. */
  readonly changing: Region[];
  /** With `expectChangeFrom`: whether the screen differed from it at any point. */
  readonly reacted?: boolean;
  /** With `expectChangeFrom`: whether the final frame differs from it. */
  readonly changed?: boolean;
}

/** True for a change shaped like a text caret (a thin vertical bar). */
export function isCaretLike(region: Region, shape: Partial<CaretShape> = {}): boolean {
  const s = { ...SETTLE_DEFAULTS.caret, ...shape };
  return region.width <= s.maxWidth && region.height <= s.maxHeight && region.height >= s.minHeight;
}

/**
 * The regions that differ between two frames for the purpose of settling: `ignore` left out,
 * caret blinks dropped when `ignoreCaret`. Empty = the frames match.
 */
export function settleChanges(a: Frame, b: Frame, options: SettleOptions = {}): Region[] {
  const ignore = options.ignore ?? [];
  if (framesEqual(a, b, ignore)) return [];
  const changes = changedRegions(a, b, { ignore });
  if (!(options.ignoreCaret ?? SETTLE_DEFAULTS.ignoreCaret)) return changes;
  return changes.filter((r) => !isCaretLike(r, options.caret));
}

/** Grabs frames until the screen is stable (see the module comment for the rule). */
export async function waitForStable(grab: () => Promise<Frame>, options: SettleOptions = {}): Promise<SettleResult> {
  const clock = options.clock ?? realClock;
  const timeoutMs = options.timeoutMs ?? SETTLE_DEFAULTS.timeoutMs;
  const intervals = options.intervalsMs?.length ? options.intervalsMs : SETTLE_DEFAULTS.intervalsMs;
  const quietMs = options.quietMs ?? SETTLE_DEFAULTS.quietMs;
  const readyQuietMs = Math.min(quietMs, options.readyQuietMs ?? SETTLE_DEFAULTS.readyQuietMs);
  const drawing = options.drawing;
  const drawGapMs = options.drawGapMs ?? SETTLE_DEFAULTS.drawGapMs;
  const start = clock.now();
  const deadline = start + timeoutMs;
  let frames = 0;
  let lastChangeAt = start;
  const recent: Region[][] = [];

  const grabAt = async (at: number): Promise<{ frame: Frame; t: number }> => {
    const wait = at - clock.now();
    if (wait > 0) await clock.sleep(wait);
    const t = clock.now();
    drawing?.mark();
    const frame = await grab();
    frames++;
    return { frame, t };
  };
  /**
   * When to grab next: after `gap` when polling; told of drawing, at the first drawing (not
   * sooner than `drawGapMs` after the last grab) or at `until`, whichever comes first.
   */
  const nextAt = async (last: number, gap: number, until: number): Promise<number> => {
    if (!drawing) return last + gap;
    return (await drawing.drawn(until)) ? Math.max(clock.now(), last + drawGapMs) : until;
  };
  const aborted = (): boolean => options.signal?.aborted === true;
  const done = (stable: boolean, frame: Frame, extra: Partial<SettleResult> = {}): SettleResult => ({
    stable,
    frame,
    settleMs: Math.max(0, Math.round(lastChangeAt - start)),
    elapsedMs: Math.round(clock.now() - start),
    frames,
    changing: stable ? [] : mergeRegions(recent.flat(), 8).map(({ x, y, width, height }) => ({ x, y, width, height })),
    ...extra,
  });

  let prev = await grabAt(start + (intervals[0] ?? 0));
  let quietSince = prev.t;
  let reacted: boolean | undefined;
  const before = options.expectChangeFrom;

  if (before) {
    // Phase 1: wait for the app to react.
    reacted = settleChanges(before, prev.frame, options).length > 0;
    const reactDeadline = Math.min(deadline, start + (options.reactMs ?? SETTLE_DEFAULTS.reactMs));
    const poll = options.reactPollMs ?? SETTLE_DEFAULTS.reactPollMs;
    while (!reacted && !aborted()) {
      const at = await nextAt(prev.t, poll, reactDeadline);
      // No visible reaction within reactMs: the screen has held the pre-action state all along.
      // Told of drawing, a last grab at the deadline confirms it.
      if (at > reactDeadline && !drawing) return done(true, prev.frame, { reacted: false, changed: false });
      prev = await grabAt(Math.min(at, reactDeadline));
      reacted = settleChanges(before, prev.frame, options).length > 0;
      if (!reacted && at >= reactDeadline) return done(true, prev.frame, { reacted: false, changed: false });
    }
    lastChangeAt = prev.t;
    quietSince = prev.t;
  }

  // Phase 2: wait for quiet.
  const extra = (frame: Frame): Partial<SettleResult> =>
    before ? { reacted, changed: settleChanges(before, frame, options).length > 0 } : {};
  const isReady = (frame: Frame): boolean => options.ready?.(frame) === true;
  let prevReady: boolean | undefined;
  let step = 1;
  options.onState?.(prev.frame);
  while (!aborted()) {
    const gap = intervals[Math.min(step, intervals.length - 1)] ?? 0;
    prevReady ??= drawing ? isReady(prev.frame) : undefined;
    const at = await nextAt(prev.t, gap, Math.min(deadline, quietSince + (prevReady ? readyQuietMs : quietMs)));
    if (at > deadline) break;
    const next = await grabAt(at);
    step++;
    const changes = settleChanges(prev.frame, next.frame, options);
    if (changes.length > 0) {
      lastChangeAt = next.t;
      quietSince = next.t;
      step = 1;
      prevReady = undefined;
      options.onState?.(next.frame);
      recent.push(changes);
      if (recent.length > 5) recent.shift();
    } else if (next.t - quietSince >= quietMs || (next.t - quietSince >= readyQuietMs && (prevReady ?? isReady(next.frame)))) {
      return done(true, next.frame, extra(next.frame));
    } else if (drawing && next.t >= deadline) {
      break;
    }
    prev = next;
  }
  return done(false, prev.frame, extra(prev.frame));
}

export interface DynamicOptions {
  /** Gap between grabs, in ms. @default 100 */
  readonly intervalMs?: number;
  /** Changes this close are merged into one region. @default 8 */
  readonly gap?: number;
  /** @default realClock */
  readonly clock?: Clock;
}

/** Watches of `durationMs` at most: a region is decided once it changed in two of them. */
const DYNAMIC_WATCHES = 3;

/**
 * Regions that change on their own (a clock, a spinner, a blinking caret) while nothing is
 * done: frames are grabbed every `intervalMs`, in watches of `durationMs` one after the other,
 * and only what changes in two watches counts. A change that came once and stayed (an app
 * finishing its start-up while it was watched: its heading, its button, its content appearing)
 * is no region of its own, and taken for one it would hide every later change there — the
 * result of the goal among them. A third watch is kept only for what changed in just one of
 * the first two: start-up, or a clock whose tick a busy machine drew late (missed there, it is
 * recorded as the effect of whichever action it ticks during).
 */
export async function detectDynamic(grab: () => Promise<Frame>, durationMs: number, options: DynamicOptions = {}): Promise<Region[]> {
  const gap = options.gap ?? 8;
  const watches: Region[][] = [];
  let last: Frame | undefined;
  const again = (r: Region, i: number): boolean => watches.some((other, j) => j !== i && other.some((o) => regionsIntersect(r, o)));
  while (watches.length < DYNAMIC_WATCHES) {
    const watched = await changesWhileWatched(grab, durationMs, options, last);
    last = watched.last;
    watches.push(watched.changes);
    if (watches.length === 1 && watched.changes.length === 0) return [];
    if (watches.length > 1 && watches.every((w, i) => w.every((r) => again(r, i)))) break;
  }
  const repeated = watches.flatMap((w, i) => w.filter((r) => again(r, i)));
  return mergeRegions(repeated, gap)
    .map(({ x, y, width, height }) => ({ x, y, width, height }))
    .sort((p, q) => p.y - q.y || p.x - q.x);
}

/**
 * Every change seen between frames grabbed every `intervalMs` for `durationMs`, merged, and the
 * last frame: the next watch goes on from it, so that nothing drawn between two goes unseen.
 */
async function changesWhileWatched(
  grab: () => Promise<Frame>,
  durationMs: number,
  options: DynamicOptions,
  from?: Frame,
): Promise<{ changes: Region[]; last: Frame }> {
  const clock = options.clock ?? realClock;
  const interval = Math.max(1, options.intervalMs ?? 100);
  const gap = options.gap ?? 8;
  const start = clock.now();
  let prev = from ?? (await grab());
  let prevAt = start;
  const seen: Region[] = [];
  while (prevAt + interval <= start + durationMs) {
    const wait = prevAt + interval - clock.now();
    if (wait > 0) await clock.sleep(wait);
    prevAt = clock.now();
    const next = await grab();
    seen.push(...changedRegions(prev, next, { gap }));
    prev = next;
  }
  return { changes: mergeRegions(seen, gap), last: prev };
}
