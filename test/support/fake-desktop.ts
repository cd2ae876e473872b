/**
 * A desktop in memory, for unit tests of the brain without a display: a counter app drawn into
 * frames (two striped buttons, a row of blocks that counts the clicks on "Add", and the count in
 * words — "COUNT 3" — in the test font of glyphs.ts), its input logged with timestamps. It
 * implements the same `Desktop` interface the X backend does, so the action cycle, the ladder
 * and verification run unchanged on it. Variants (a moved layout, a swallowed click, a late
 * reaction, a missing button, another theme, an error message…) are options.
 */
import type { Frame, Point, Region } from '../../src/domain.ts';
import type { AppExit, AppSession, Desktop, Display, InputDriver, WindowInfo } from '../../src/desktop/types.ts';
import type { OcrResult, TextReader } from '../../src/vision/types.ts';
import { Stage } from '../../src/brain/stage.ts';
import { containsPoint, createFrame, crop, fillRegion, strokeRegion } from '../../src/vision/frame.ts';
import type { Rgba } from '../../src/vision/types.ts';
import { drawText } from './glyphs.ts';

export interface CounterOptions {
  /** Moves the whole layout inside the window. */
  readonly offset?: Point;
  /** Click numbers on "Add" (1-based) that the app ignores. */
  readonly swallow?: readonly number[];
  /** The count changes this long after the click. @default 0 */
  readonly reactMs?: number;
  /** "Add" is not drawn (and does nothing). */
  readonly withoutAdd?: boolean;
  /** "Add" is not drawn (and does nothing) for this long after the app started: a loading screen. */
  readonly loadingMs?: number;
  /** The app ignores every click. */
  readonly dead?: boolean;
  /**
   * Another colour theme for the content: a dark count box with light blocks, the words in blue,
   * an orange focus ring. The buttons and the ground keep their colours, so targets still resolve
   * at their recorded place and only the effects are repainted.
   */
  readonly theme?: 'dark';
  /** A clicked button shows a focus ring (its own feedback). */
  readonly focusRing?: boolean;
  /** An error message appears when the count reaches this. */
  readonly errorAt?: number;
  /** The count is written in red from this count on (restyled as an error). */
  readonly alertAt?: number;
  /** Every count falls back this long after it was shown. */
  readonly revertMs?: number;
  /** A region that changes on its own every this many ms (a clock nobody recorded). */
  readonly tickMs?: number;
  /** "Add" answers a double click only. */
  readonly needsDouble?: boolean;
  /** A second "Add" button, identical, below the first (look-alike controls). */
  readonly twin?: boolean;
  /** How much a click on "Add" counts. @default 1 */
  readonly step?: number;
  /**
   * The count in words follows its blocks this long later: a change drawn in two steps, as an
   * app on a loaded machine draws typed text a few characters at a time.
   */
  readonly wordsLagMs?: number;
  /** A grey panel covers "Add" (which still takes no click). */
  readonly covered?: boolean;
  /** "Reset" quits the app with this exit code (a dialog's button that closes it). */
  readonly quitCode?: number;
  /** …this long after the click, rather than at once. */
  readonly quitMs?: number;
  /**
   * A typing line, whose prompt shows this long after the app started (a shell that starts
   * late): what is typed before it lands before it, as a terminal echoes it.
   */
  readonly promptMs?: number;
}

export interface InputEvent {
  readonly at: number;
  readonly kind: 'click' | 'key' | 'type' | 'move' | 'drag' | 'scroll';
  readonly point?: Point;
}

/** Where the window is on the fake screen. */
export const WINDOW: Region = { x: 50, y: 40, width: 240, height: 160 };
export const ADD: Region = { x: 20, y: 20, width: 60, height: 28 };
export const RESET: Region = { x: 100, y: 20, width: 60, height: 28 };
export const COUNT: Region = { x: 20, y: 62, width: 200, height: 40 };
/** Where the count is written in words, and where an error message appears. */
export const WORDS = { x: 20, y: 114 };
export const ERROR_AT = { x: 150, y: 114 };
const TICKER: Region = { x: 180, y: 20, width: 40, height: 28 };
const TWIN: Region = { x: 20, y: 62, width: 60, height: 28 };
/** The typing line (`promptMs`): its prompt, then one block a character typed. */
export const PROMPT_LINE = { x: 20, y: 138, prompt: 4, char: 6, gap: 2, height: 10 };

const shift = <T extends Point>(r: T, by: Point): T => ({ ...r, x: r.x + by.x, y: r.y + by.y });

const LIGHT = {
  ground: [230, 230, 230, 255],
  box: [255, 255, 255, 255],
  ink: [30, 60, 160, 255],
  text: [20, 20, 20, 255],
  ring: [60, 120, 220, 255],
} as const;
const DARK = {
  ground: [230, 230, 230, 255],
  box: [50, 52, 58, 255],
  ink: [140, 170, 240, 255],
  text: [20, 40, 140, 255],
  ring: [240, 150, 40, 255],
} as const;

export class CounterApp {
  count = 0;
  /** The count the words show (behind `count` by `wordsLagMs`). */
  private said = 0;
  private clicks = 0;
  private focused: Region | undefined;
  private readonly started = performance.now();
  private typed = '';
  /** The first text came before the prompt. */
  private typedEarly = false;
  private quit: (exit: AppExit) => void = () => undefined;
  private exit: AppExit | undefined;
  /** Resolves when the app quits (only with `quitCode`). */
  readonly exited = new Promise<AppExit>((resolve) => (this.quit = resolve));
  constructor(readonly options: CounterOptions = {}) {}

  exitInfo(): AppExit | undefined {
    return this.exit;
  }

  private get offset(): Point {
    return this.options.offset ?? { x: 0, y: 0 };
  }

  private get withoutAdd(): boolean {
    const loading = this.options.loadingMs !== undefined && performance.now() - this.started < this.options.loadingMs;
    return this.options.withoutAdd === true || loading;
  }

  /** Where "Add" is now, window-relative. */
  get add(): Region {
    return shift(ADD, this.offset);
  }

  /** Where "Reset" is now, window-relative. */
  get reset(): Region {
    return shift(RESET, this.offset);
  }

  /** Where the count is shown, window-relative. */
  get countBox(): Region {
    return shift(COUNT, this.offset);
  }

  click(at: Point, count = 1): void {
    if (this.options.dead) return;
    if (containsPoint(shift(RESET, this.offset), at)) {
      const code = this.options.quitCode;
      if (code !== undefined) {
        const quit = (): void => this.quit((this.exit = { code, signal: null, stderrTail: '' }));
        if (this.options.quitMs === undefined) quit();
        else setTimeout(quit, this.options.quitMs);
        return;
      }
      if (this.options.focusRing) this.focused = shift(RESET, this.offset);
      this.react(() => (this.count = 0));
      return;
    }
    const twin = this.options.twin && containsPoint(shift(TWIN, this.offset), at);
    if (this.withoutAdd || this.options.covered || (!containsPoint(this.add, at) && !twin)) return;
    if (this.options.focusRing) this.focused = twin ? shift(TWIN, this.offset) : this.add;
    this.clicks += 1;
    if (this.options.swallow?.includes(this.clicks)) return;
    if (this.options.needsDouble && count < 2) return;
    this.react(() => {
      const step = this.options.step ?? 1;
      this.count += step;
      if (this.options.revertMs) setTimeout(() => (this.count -= step), this.options.revertMs);
    });
  }

  private get prompted(): boolean {
    return this.options.promptMs !== undefined && performance.now() - this.started >= this.options.promptMs;
  }

  type(text: string): void {
    if (this.options.promptMs === undefined || this.options.dead) return;
    if (this.typed === '' && !this.prompted) this.typedEarly = true;
    this.typed += text;
  }

  private react(change: () => void): void {
    const ms = this.options.reactMs ?? 0;
    const lag = this.options.wordsLagMs;
    const drawn = (): void => {
      change();
      if (lag === undefined) return;
      setTimeout(() => (this.said = this.count), lag);
    };
    if (ms === 0) drawn();
    else setTimeout(drawn, ms);
  }

  render(): Frame {
    const o = this.options;
    const c = o.theme === 'dark' ? DARK : LIGHT;
    const frame = createFrame(WINDOW.width, WINDOW.height, c.ground);
    if (!this.withoutAdd) drawButton(frame, this.add, 'vertical');
    drawButton(frame, shift(RESET, this.offset), 'horizontal');
    if (o.covered)
      fillRegion(
        frame,
        { ...this.add, x: this.add.x - 4, y: this.add.y - 4, width: this.add.width + 8, height: this.add.height + 8 },
        [120, 120, 120, 255],
      );
    if (o.twin) drawButton(frame, shift(TWIN, this.offset), 'vertical');
    if (this.focused) strokeRegion(frame, this.focused, c.ring, 2);
    if (o.tickMs) {
      const ticks = Math.floor((performance.now() - this.started) / o.tickMs);
      fillRegion(frame, shift(TICKER, this.offset), ticks % 2 === 0 ? [90, 90, 90, 255] : [160, 160, 160, 255]);
      fillRegion(frame, { ...shift(TICKER, this.offset), width: 4 + (ticks % 8) * 4 }, c.ink);
    }
    if (!o.twin) {
      const count = shift(COUNT, this.offset);
      fillRegion(frame, count, c.box);
      for (let i = 0; i < Math.min(this.count, 10); i++) {
        fillRegion(frame, { x: count.x + 6 + i * 20, y: count.y + 8, width: 16, height: 24 }, c.ink);
      }
    }
    const alert = o.alertAt !== undefined && this.count >= o.alertAt;
    drawText(
      frame,
      `COUNT ${o.wordsLagMs === undefined ? this.count : this.said}`,
      shift(WORDS, this.offset),
      alert ? ([200, 20, 20, 255] as Rgba) : c.text,
    );
    if (o.errorAt !== undefined && this.count >= o.errorAt) drawText(frame, 'ERROR', shift(ERROR_AT, this.offset), c.text);
    if (o.promptMs !== undefined) this.drawLine(frame, c);
    return frame;
  }

  private drawLine(frame: Frame, c: typeof LIGHT | typeof DARK): void {
    const { x, y, prompt, char, gap, height } = PROMPT_LINE;
    const chars = this.typed.length * (char + gap);
    const promptAt = this.typedEarly ? x + chars : x;
    if (this.prompted) fillRegion(frame, { x: promptAt, y, width: prompt, height }, c.text);
    const from = this.typedEarly ? x : x + prompt + gap;
    for (let i = 0; i < this.typed.length; i++) fillRegion(frame, { x: from + i * (char + gap), y, width: char, height }, c.ink);
  }
}

/** A bordered button filled with stripes, so each one has a look of its own to match. */
function drawButton(frame: Frame, box: Region, stripes: 'vertical' | 'horizontal'): void {
  fillRegion(frame, box, [40, 40, 40, 255]);
  fillRegion(frame, { x: box.x + 2, y: box.y + 2, width: box.width - 4, height: box.height - 4 }, [250, 250, 250, 255]);
  const inner = { x: box.x + 6, y: box.y + 6, width: box.width - 12, height: box.height - 12 };
  const along = stripes === 'vertical' ? inner.width : inner.height;
  for (let i = 0; i < along; i += 4) {
    fillRegion(
      frame,
      stripes === 'vertical'
        ? { x: inner.x + i, y: inner.y, width: 2, height: inner.height }
        : { x: inner.x, y: inner.y + i, width: inner.width, height: 2 },
      [200, 60, 40, 255],
    );
  }
}

/** OCR that reads nothing: the fake app draws no text, so targets are points and images. */
export const blindReader: TextReader = {
  read: async (): Promise<OcrResult> => ({ text: '', words: [], lines: [] }),
  close: async () => undefined,
};

export class FakeDesktop implements Desktop {
  readonly events: InputEvent[] = [];
  readonly display: Display = {
    name: ':fake',
    width: 640,
    height: 480,
    owned: true,
    env: {},
    died: new Promise<void>(() => undefined),
    assertAlive: () => undefined,
    stop: async () => undefined,
  };
  readonly capture = {
    grab: async (region?: Region): Promise<Frame> => {
      const screen = createFrame(this.display.width, this.display.height, [0, 0, 0, 255]);
      const window = this.app.render();
      for (let y = 0; y < window.height; y++) {
        const from = y * window.width * 4;
        screen.data.set(window.data.subarray(from, from + window.width * 4), ((WINDOW.y + y) * screen.width + WINDOW.x) * 4);
      }
      return region ? crop(screen, region) : screen;
    },
  };
  readonly input: InputDriver = {
    move: async (to) => void this.log('move', to),
    click: async (at, options) => {
      this.log('click', at);
      this.app.click({ x: at.x - WINDOW.x, y: at.y - WINDOW.y }, options?.count ?? 1);
    },
    drag: async (from) => void this.log('drag', from),
    scroll: async (at) => void this.log('scroll', at),
    key: async () => void this.log('key'),
    type: async (text) => {
      this.log('type');
      this.app.type(text);
    },
  };
  readonly windows = {
    list: async (): Promise<WindowInfo[]> => [this.window],
    get: async (): Promise<WindowInfo> => this.window,
    focus: async (): Promise<void> => undefined,
    resize: async (): Promise<void> => undefined,
    move: async (): Promise<void> => undefined,
    focused: async (): Promise<WindowInfo> => this.window,
    requestClose: async (): Promise<boolean> => false,
  };
  private readonly window: WindowInfo = { id: 1, title: 'Counter', region: WINDOW };

  constructor(readonly app: CounterApp) {}

  private log(kind: InputEvent['kind'], point?: Point): void {
    this.events.push({ at: performance.now(), kind, ...(point ? { point } : {}) });
  }

  launch = async (): Promise<AppSession> => this.session();

  session(): AppSession {
    return {
      pid: 1,
      window: async () => this.window,
      windows: async () => [this.window],
      focus: async () => undefined,
      exited: this.app.exited,
      exitInfo: () => this.app.exitInfo(),
      release: () => undefined,
      close: async () => undefined,
    };
  }

  /** A stage on this desktop's app, optionally bound to an abort signal, reading with `reader`. */
  stage(signal?: AbortSignal, reader: TextReader = blindReader): Stage {
    return new Stage(this, this.session(), reader, signal);
  }
}
