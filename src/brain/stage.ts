/**
 * The stage: one running application on one desktop, as the brain sees it. Every wait and
 * every capture is raced against the app exiting, the display dying and the goal being aborted
 * (its deadline), so a crash ends the goal at once as broken instead of after a timeout, and an
 * aborted goal touches the app no more: its input refuses every call once the signal fired.
 */
import type { DrawReport, Frame, Region } from '../domain.ts';
import type { AppSession, Desktop, InputDriver, WindowInfo } from '../desktop/types.ts';
import type { TextReader } from '../vision/types.ts';
import { InfrastructureError } from '../errors.ts';
import { secretMasker } from '../spec-file/secrets.ts';
import { SecretScreen } from './secret-screen.ts';
import { appExitedError } from './exit.ts';
import type { Snapshot } from './elements.ts';
import { setTimeout as delay } from 'node:timers/promises';
import { APP_END_LIMITS } from './thresholds.ts';

/** Secrets typed into an app stay hidden for the app's life: a shared app outlives its goals. */
const screens = new WeakMap<AppSession, SecretScreen>();

export interface Shot {
  readonly frame: Frame;
  /** Screen-absolute region of the window when it was captured. */
  readonly window: Region;
  /** The app's elements in this very state, when they were read already: one read a state. */
  readonly elements?: Snapshot;
}

export class Stage {
  private readonly fault: Promise<never>;
  /** The desktop's input, refusing every call once the goal is aborted. */
  readonly input: InputDriver;
  /** A stage kept at one shot (`still`): the app's elements, read now, are not that shot's. */
  readonly frozen: boolean = false;
  /** Every frame captured passes through it: a typed secret never leaves the stage. */
  private readonly screen: SecretScreen;
  /** Keys sent again within the current action (paced typing), for its report. */
  private retries = 0;

  constructor(
    readonly desktop: Desktop,
    readonly app: AppSession,
    readonly reader: TextReader,
    /** Fires when the goal must stop (its deadline); its reason is the error reported. */
    readonly signal: AbortSignal = new AbortController().signal,
  ) {
    let screen = screens.get(app);
    if (!screen) {
      const source = desktop.elements;
      const readElements = source && ((window?: Region) => source.read(app, window && { window }));
      screens.set(app, (screen = new SecretScreen(reader, secretMasker, readElements)));
    }
    this.screen = screen;
    this.input = guardedInput(desktop.input, signal, screen);
    this.fault = Promise.race([
      aborted(signal),
      app.exited.then((exit) => {
        // An app that ended because its display went away (it lost its X connection) is the
        // display's story, whichever of the two was noticed first.
        desktop.display.assertAlive();
        throw appExitedError(exit);
      }),
      desktop.display.died.then(() => {
        throw new InfrastructureError('DISPLAY_DIED', `The X server ${desktop.display.name} died.`);
      }),
    ]);
    // The race is observed by every guarded call; this keeps an unobserved rejection quiet.
    this.fault.catch(() => undefined);
  }

  /**
   * Runs `work`, failing at once if the app exits or the display dies meanwhile. When `work`
   * fails first (its window vanished, an X call failed), the app may be dying: its exit, if it
   * comes within a moment, is the real story and is reported instead.
   */
  async guard<T>(work: Promise<T>): Promise<T> {
    try {
      return await Promise.race([work, this.fault]);
    } catch (error) {
      const fault = await Promise.race([
        this.fault.then(
          () => undefined,
          (reason: unknown) => reason,
        ),
        delay(APP_END_LIMITS.stageGraceMs).then(() => undefined),
      ]);
      throw fault ?? error;
    }
  }

  /** Notes retries made inside an action's input, to be counted in its report. */
  countRetries(n: number): void {
    this.retries += n;
  }

  /** The retries noted since the last `resetRetries`. */
  get retriesNoted(): number {
    return this.retries;
  }

  /** Called when an action begins: its report counts only its own retries. */
  resetRetries(): void {
    this.retries = 0;
  }

  /** The app's main window; a secret the app puts in its title is masked, as in its elements. */
  async window(): Promise<WindowInfo> {
    const info = await this.guard(this.app.window());
    return { ...info, title: secretMasker.mask(info.title) };
  }

  /** Captures the app's main window. */
  async shoot(): Promise<Shot> {
    const info = await this.window();
    const frame = await this.guard(this.desktop.capture.grab(info.region).then((raw) => this.screen.scrub(raw, info.region)));
    return { frame, window: info.region };
  }

  /** A capture function of a fixed window region, for settle polling. */
  grabber(window: Region): () => Promise<Frame> {
    return () => this.guard(this.desktop.capture.grab(window).then((raw) => this.screen.scrub(raw, window)));
  }

  /** The display's reports of drawing in the window (when it makes them), raced like a grab. */
  async drawing(window: Region): Promise<DrawReport | undefined> {
    const report = await this.desktop.capture.drawing?.(window);
    return report && { mark: () => report.mark(), drawn: (until) => this.guard(report.drawn(until)) };
  }

  /** Waits `ms`, ending early (with the abort's reason) when the goal is aborted. */
  async wait(ms: number): Promise<void> {
    await this.guard(delay(ms, undefined, { signal: this.signal }));
  }

  /**
   * This stage as it is now, kept: its window and screen stay this moment's whatever the app does
   * since, so what is read from it (OCR) can finish later, while the app is driven on.
   */
  async still(): Promise<Stage> {
    const info = await this.window();
    const frame = await this.guard(this.desktop.capture.grab(info.region).then((raw) => this.screen.scrub(raw)));
    return new StillStage(this, info, { frame, window: info.region });
  }
}

/** A stage frozen at one shot (Stage.still): reads see the shot; nothing of it waits on the app. */
class StillStage extends Stage {
  override readonly frozen = true;

  constructor(
    live: Stage,
    private readonly info: WindowInfo,
    private readonly shot: Shot,
  ) {
    super(live.desktop, live.app, live.reader, live.signal);
  }

  // A read of a shot taken already: the app exiting since must not fail it.
  override async guard<T>(work: Promise<T>): Promise<T> {
    return work;
  }

  override async window(): Promise<WindowInfo> {
    return this.info;
  }

  override async shoot(): Promise<Shot> {
    return this.shot;
  }
}

const aborted = (signal: AbortSignal): Promise<never> =>
  new Promise<never>((_, reject) => {
    const fire = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error('the goal was aborted'));
    if (signal.aborted) fire();
    else signal.addEventListener('abort', fire, { once: true });
  });

/** An input driver that refuses to act once `signal` has fired, and tells `screen` what it sends. */
function guardedInput(input: InputDriver, signal: AbortSignal, screen: SecretScreen): InputDriver {
  const check = (text?: string): void => {
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('the goal was aborted');
    screen.input(text);
  };
  return {
    move: async (to) => (check(), input.move(to)),
    click: async (at, options) => (check(), input.click(at, options)),
    drag: async (from, to) => (check(), input.drag(from, to)),
    scroll: async (at, direction, amount) => (check(), input.scroll(at, direction, amount)),
    key: async (combo) => (check(), input.key(combo)),
    type: async (text) => (check(text), input.type(text)),
  };
}
