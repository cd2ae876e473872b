/**
 * The OS boundary: the only interfaces through which retrace touches a display, the input
 * devices and application processes. Implementations live beside this file; nothing outside
 * `src/desktop` imports nut-js, spawns X tools or starts app processes.
 */
import type { Frame, Point, Region, ScrollDirection } from '../domain.ts';

/** An X display retrace can use: either `$DISPLAY`, or an Xvfb it started and owns. */
export interface Display {
  /** The DISPLAY value, e.g. ":99". */
  readonly name: string;
  readonly width: number;
  readonly height: number;
  /** True when retrace started this display (and pinned layout, locale and time zone). */
  readonly owned: boolean;
  /** The Xvfb process, for an owned display. */
  readonly pid?: number;
  /**
   * The environment an app on this display needs: `DISPLAY`, and for an owned display the
   * pinned locale and time zone (`LANG`, `LC_ALL`, `TZ`) that make runs reproducible.
   */
  readonly env: Readonly<Record<string, string>>;
  /** Resolves when the X server stops answering or exits (never, for a healthy display). */
  readonly died: Promise<void>;
  /**
   * Throws InfrastructureError('DISPLAY_DIED') when the server is known to be gone. Cheap and
   * synchronous: call it before touching the display, since Xlib ends the whole process on a
   * connection to a dead server.
   */
  assertAlive(): void;
  /** Stops an owned display; a no-op for `$DISPLAY`. */
  stop(): Promise<void>;
}

export interface DisplayOptions {
  /** Screen size of a started Xvfb. @default [1280, 800] */
  readonly size?: readonly [number, number];
  /** Colour depth of a started Xvfb. @default 24 */
  readonly depth?: number;
  /** Use `$DISPLAY` when set. @default true */
  readonly reuseEnv?: boolean;
}

/** Captures frames (RGBA) from the screen. */
export interface ScreenCapture {
  /** The whole screen, or a screen-absolute region of it. */
  grab(region?: Region): Promise<Frame>;
}

export type MouseButton = 'left' | 'right' | 'middle';

/** Mouse and keyboard, in screen-absolute coordinates. */
export interface InputDriver {
  move(to: Point): Promise<void>;
  click(at: Point, options?: { button?: MouseButton; count?: 1 | 2 }): Promise<void>;
  drag(from: Point, to: Point): Promise<void>;
  scroll(at: Point, direction: ScrollDirection, amount: number): Promise<void>;
  /** A key combo such as `ctrl+s`, `shift+Tab`, `Return`, `F5`. */
  key(combo: string): Promise<void>;
  /** Types text; every printable ASCII character must arrive as written. */
  type(text: string): Promise<void>;
}

/** A top-level X window. */
export interface WindowInfo {
  readonly id: number;
  readonly title: string;
  /** Screen-absolute geometry of the window's content. */
  readonly region: Region;
  readonly pid?: number;
}

/** The windows of the X server. */
export interface WindowSystem {
  /** All mapped top-level windows. */
  list(): Promise<WindowInfo[]>;
  get(id: number): Promise<WindowInfo | undefined>;
  /** Raise and give input focus; works without a window manager. */
  focus(id: number): Promise<void>;
  resize(id: number, width: number, height: number): Promise<void>;
  move(id: number, x: number, y: number): Promise<void>;
  /** The window holding input focus, if any. */
  focused(): Promise<WindowInfo | undefined>;
}

/** The `app:` keys of a spec, resolved (env values interpolated). */
export interface AppConfig {
  readonly launch: string;
  /** Title substring, or `/regex/flags`. */
  readonly window: string;
  readonly size?: readonly [number, number];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly setup?: string;
  readonly teardown?: string;
  /** How long to wait for the window. @default 15000 */
  readonly windowTimeoutMs?: number;
}

export interface AppExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** The last lines the app wrote to stderr. */
  readonly stderrTail: string;
}

/** A running application under test. */
export interface AppSession {
  readonly pid: number;
  /** The main window, found by title. */
  window(): Promise<WindowInfo>;
  /** Every window of the app: the main window and its dialogs. */
  windows(): Promise<WindowInfo[]>;
  /** Raise the main window and give it focus. */
  focus(): Promise<void>;
  /** Resolves when the app exits, for whatever reason. */
  readonly exited: Promise<AppExit>;
  /** The exit, if the app has already exited. */
  exitInfo(): AppExit | undefined;
  /** Stop owning the app: it is no longer killed when this process exits (`--keep-open`). */
  release(): void;
  /** Close gracefully, then kill; runs `teardown`. Idempotent. */
  close(): Promise<void>;
}

/** Everything the rest of retrace needs from the OS, bundled for one display. */
export interface Desktop {
  readonly display: Display;
  readonly capture: ScreenCapture;
  readonly input: InputDriver;
  readonly windows: WindowSystem;
  launch(app: AppConfig): Promise<AppSession>;
}
