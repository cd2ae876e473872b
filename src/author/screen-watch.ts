/**
 * Watches the app's window while a person drives it, so each input can be paired with the screen
 * the person saw when they acted: the last content a capture had finished reading before the
 * input happened. A capture that finished in the last few milliseconds before it is passed over,
 * since the app may already have reacted by then.
 *
 * Captures run back to back (every few tens of milliseconds); the window's place is asked again
 * only now and then, since asking costs two X tool calls. Inputs are heard late (the listener
 * hands them over in batches), so every distinct content of the last moments is kept.
 */
import type { Frame, Region } from '../domain.ts';
import { settleChanges } from '../vision/settle.ts';
import type { Stage } from '../brain/stage.ts';

/** The shortest gap between two captures. */
const INTERVAL_MS = 20;
/** How often the window's region is looked up again (it may move). */
const WINDOW_EVERY_MS = 500;
/** A capture that finished this close before an input may already show the input's effect. */
const REACTION_GUARD_MS = 5;
/** How far back contents are kept: longer than an input can take to be heard. */
const HISTORY_MS = 2_000;

export interface ScreenState {
  readonly frame: Frame;
  /** Screen-absolute window region when it was captured. */
  readonly window: Region;
  /** When a capture first showed this content (performance.now()). */
  readonly since: number;
}

interface Capture extends ScreenState {
  /** When the first capture that showed this content finished. */
  readonly seen: number;
}

const sameContent = (a: Frame, b: Frame, ignore: readonly Region[]): boolean =>
  a.width === b.width && a.height === b.height && settleChanges(a, b, { ignore }).length === 0;

export class ScreenWatch {
  private readonly recent: Capture[] = [];
  private running = false;
  private loop: Promise<void> | undefined;
  private failure: unknown;

  constructor(
    private readonly stage: Stage,
    private readonly dynamic: readonly Region[],
  ) {}

  /** The screen as it was just before `happened` (performance.now() of an input). */
  before(happened: number): ScreenState | undefined {
    for (let i = this.recent.length - 1; i >= 0; i--) {
      const capture = this.recent[i]!;
      if (capture.seen <= happened - REACTION_GUARD_MS) return capture;
    }
    return this.recent[0];
  }

  /** The latest capture. */
  get latest(): ScreenState | undefined {
    return this.recent.at(-1);
  }

  /** Starts capturing; resolves after the first capture. */
  async start(): Promise<void> {
    this.running = true;
    await this.capture((await this.stage.window()).region);
    this.loop = this.run();
  }

  /** Stops capturing; rethrows what ended the watch early (the app exited, the display died). */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    if (this.failure) throw this.failure;
  }

  private async run(): Promise<void> {
    let window = this.latest!.window;
    let located = performance.now();
    try {
      while (this.running) {
        const started = performance.now();
        if (started - located >= WINDOW_EVERY_MS) {
          window = (await this.stage.window()).region;
          located = started;
        }
        await this.capture(window);
        const wait = INTERVAL_MS - (performance.now() - started);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    } catch (error) {
      this.failure = error;
      this.running = false;
    }
  }

  private async capture(window: Region): Promise<void> {
    const at = performance.now();
    const frame = await this.stage.guard(this.stage.desktop.capture.grab(window));
    const seen = performance.now();
    const last = this.latest;
    if (last !== undefined && last.window.x === window.x && last.window.y === window.y && sameContent(last.frame, frame, this.dynamic))
      return;
    this.recent.push({ frame, window, since: at, seen });
    while (this.recent.length > 1 && this.recent[1]!.seen < seen - HISTORY_MS) this.recent.shift();
  }
}
