/**
 * A desktop in memory, for unit tests of the brain without a display: a counter app drawn into
 * frames (two striped buttons, a row of blocks that counts the clicks on "Add"), its input
 * logged with timestamps. It implements the same `Desktop` interface the X backend does, so the
 * action cycle, the ladder and verification run unchanged on it. Variants (a moved layout, a
 * swallowed click, a late reaction, a missing button) are options.
 */
import type { Frame, Point, Region } from '../../src/domain.ts';
import type { AppSession, Desktop, Display, InputDriver, WindowInfo } from '../../src/desktop/types.ts';
import type { OcrResult, TextReader } from '../../src/vision/types.ts';
import { Stage } from '../../src/brain/stage.ts';
import { containsPoint, createFrame, crop, fillRegion } from '../../src/vision/frame.ts';

export interface CounterOptions {
  /** Moves the whole layout inside the window. */
  readonly offset?: Point;
  /** Click numbers on "Add" (1-based) that the app ignores. */
  readonly swallow?: readonly number[];
  /** The count changes this long after the click. @default 0 */
  readonly reactMs?: number;
  /** "Add" is not drawn (and does nothing). */
  readonly withoutAdd?: boolean;
  /** The app ignores every click. */
  readonly dead?: boolean;
  /** A grey panel covers "Add" (which still takes no click). */
  readonly covered?: boolean;
}

export interface InputEvent {
  readonly at: number;
  readonly kind: 'click' | 'key' | 'type' | 'move' | 'drag' | 'scroll';
  readonly point?: Point;
}

/** Where the window is on the fake screen. */
export const WINDOW: Region = { x: 50, y: 40, width: 240, height: 140 };
export const ADD: Region = { x: 20, y: 20, width: 60, height: 28 };
export const RESET: Region = { x: 100, y: 20, width: 60, height: 28 };
export const COUNT: Region = { x: 20, y: 70, width: 200, height: 40 };

const shift = (r: Region, by: Point): Region => ({ ...r, x: r.x + by.x, y: r.y + by.y });

export class CounterApp {
  count = 0;
  private clicks = 0;
  constructor(readonly options: CounterOptions = {}) {}

  private get offset(): Point {
    return this.options.offset ?? { x: 0, y: 0 };
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

  click(at: Point): void {
    if (this.options.dead) return;
    if (containsPoint(shift(RESET, this.offset), at)) {
      this.react(() => (this.count = 0));
      return;
    }
    if (this.options.withoutAdd || this.options.covered || !containsPoint(this.add, at)) return;
    this.clicks += 1;
    if (this.options.swallow?.includes(this.clicks)) return;
    this.react(() => (this.count += 1));
  }

  private react(change: () => void): void {
    const ms = this.options.reactMs ?? 0;
    if (ms === 0) change();
    else setTimeout(change, ms);
  }

  render(): Frame {
    const frame = createFrame(WINDOW.width, WINDOW.height, [230, 230, 230, 255]);
    if (!this.options.withoutAdd) drawButton(frame, this.add, 'vertical');
    drawButton(frame, shift(RESET, this.offset), 'horizontal');
    if (this.options.covered) fillRegion(frame, { ...this.add, x: this.add.x - 4, y: this.add.y - 4, width: this.add.width + 8, height: this.add.height + 8 }, [120, 120, 120, 255]);
    const count = shift(COUNT, this.offset);
    fillRegion(frame, count, [255, 255, 255, 255]);
    for (let i = 0; i < Math.min(this.count, 10); i++) {
      fillRegion(frame, { x: count.x + 6 + i * 20, y: count.y + 8, width: 16, height: 24 }, [30, 60, 160, 255]);
    }
    return frame;
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
      stripes === 'vertical' ? { x: inner.x + i, y: inner.y, width: 2, height: inner.height } : { x: inner.x, y: inner.y + i, width: inner.width, height: 2 },
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
    click: async (at) => {
      this.log('click', at);
      this.app.click({ x: at.x - WINDOW.x, y: at.y - WINDOW.y });
    },
    drag: async (from) => void this.log('drag', from),
    scroll: async (at) => void this.log('scroll', at),
    key: async () => void this.log('key'),
    type: async () => void this.log('type'),
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
      exited: new Promise(() => undefined),
      exitInfo: () => undefined,
      release: () => undefined,
      close: async () => undefined,
    };
  }

  /** A stage on this desktop's app, optionally bound to an abort signal. */
  stage(signal?: AbortSignal): Stage {
    return new Stage(this, this.session(), blindReader, signal);
  }
}
