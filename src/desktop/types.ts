/**
 * The OS boundary: the only interfaces through which retrace touches a display, the input
 * devices and application processes. Implementations live beside this file; nothing outside
 * `src/desktop` imports nut-js, spawns X tools or starts app processes.
 */
import type { DrawReport, Frame, Point, Region, ScrollDirection } from '../domain.ts';

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
   * The environment an app on this display needs: `DISPLAY`, retrace's fontconfig
   * (`FONTCONFIG_FILE`), and for an owned display the pinned locale and time zone (`LANG`,
   * `LC_ALL`, `TZ`) that make runs reproducible.
   */
  readonly env: Readonly<Record<string, string>>;
  /**
   * The D-Bus session bus of this display's apps, through which the accessibility bus is found;
   * undefined when there is none or accessibility is switched off (then `Desktop.elements` is absent).
   */
  readonly sessionBus?: string;
  /**
   * The session services retrace runs: on an owned display always; on `$DISPLAY` only when it
   * had no session bus or accessibility bus for retrace's apps (then without an XSETTINGS manager).
   */
  readonly services?: SessionServices;
  /** Resolves when the X server stops answering or exits (never, for a healthy display). */
  readonly died: Promise<void>;
  /**
   * Throws InfrastructureError('DISPLAY_DIED') when the server is known to be gone. Cheap and
   * synchronous: call it before touching the display, since Xlib ends the whole process on a
   * connection to a dead server.
   */
  assertAlive(): void;
  /** Stops an owned display; for `$DISPLAY`, only the services retrace started for it. */
  stop(): Promise<void>;
}

/**
 * A display another retrace process opened and keeps (the run's main process, for one of its
 * workers), as plain JSON: what the apps on it need, whether retrace started it, its Xvfb, and the
 * session services beside it (animations are switched there per launch).
 */
export type HandedDisplay = Pick<Display, 'name' | 'width' | 'height' | 'owned' | 'pid' | 'env' | 'sessionBus'> & {
  readonly services?: HandedServices;
};

export interface DisplayOptions {
  /** Screen size of a started Xvfb. @default [1280, 800] */
  readonly size?: readonly [number, number];
  /** Colour depth of a started Xvfb. @default 24 */
  readonly depth?: number;
  /** Use `$DISPLAY` when set. @default true */
  readonly reuseEnv?: boolean;
  /**
   * The fonts of the apps launched on the display, absolute paths of font files or folders
   * (`display.fonts`). @default DejaVu (session/fonts.ts)
   */
  readonly fonts?: readonly string[];
  /**
   * Let apps publish their widgets over the accessibility bus (AT-SPI), started on an owned
   * display. @default true, unless the environment sets RETRACE_ACCESSIBILITY=off
   */
  readonly accessibility?: boolean;
}

/**
 * What a desktop session runs beside the X server of an owned display: a D-Bus session bus, the
 * accessibility bus, an XSETTINGS manager. Started and stopped with the display.
 */
export interface SessionServices {
  /** What apps need to reach the services (`DBUS_SESSION_BUS_ADDRESS`). */
  readonly env: Readonly<Record<string, string>>;
  /** The session bus address. */
  readonly sessionBus: string;
  /**
   * The services' private directory, removed when they stop (or this process dies): the
   * private homes of the apps launched on the display live in it too.
   */
  readonly dir: string;
  /** True when an XSETTINGS manager runs (animations can be switched). */
  readonly settingsManager: boolean;
  /** Animations (and caret blinking) for the apps launched from now on. Off at start. */
  allowAnimations(allowed: boolean): Promise<void>;
  stop(): Promise<void>;
  /** What another process needs to use them (a worker, on a display the run's main process keeps). */
  readonly handed: HandedServices;
}

/** Session services as plain JSON, for a process that did not start them. */
export interface HandedServices {
  readonly display: string;
  /** What an X client of the display needs besides `DISPLAY` (its cookie). */
  readonly xEnv: Readonly<Record<string, string>>;
  readonly sessionBus: string;
  readonly dir: string;
  /** xsettingsd's configuration, and its pid when it runs: the switch of animations. */
  readonly settingsFile: string;
  readonly xsettingsd?: number;
  readonly startTimeoutMs: number;
}

/** Captures frames (RGBA) from the screen. */
export interface ScreenCapture {
  /** The whole screen, or a screen-absolute region of it. */
  grab(region?: Region): Promise<Frame>;
  /**
   * The display's reports of drawing in a screen-absolute region: when to grab again. Undefined
   * where the display cannot report drawing (then waits poll).
   */
  drawing?(region: Region): Promise<DrawReport | undefined>;
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
  /**
   * Asks the window's app to close it, as a window manager's close button does
   * (WM_DELETE_WINDOW). False when the window does not take that request (or is gone).
   */
  requestClose(id: number): Promise<boolean>;
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
  /**
   * `off`: GTK animations and caret blinking off, reduced motion for Chromium (see
   * docs/troubleshooting.md); `allow`: as the toolkit likes. @default 'off'
   */
  readonly animations?: 'off' | 'allow';
  /**
   * `on`: the app is asked to publish its widgets while the display has an accessibility bus
   * (a JVM gets the ATK wrapper when it is installed); `off`: no bridge is switched on for it
   * (`NO_AT_BRIDGE=1`, no wrapper). @default 'on'
   */
  readonly accessibility?: 'on' | 'off';
  /**
   * Run the app with a private HOME and XDG config, cache, data, state and runtime directories
   * (created before `setup`, removed after `teardown`), and GSettings in memory, so no run sees
   * another's settings, sessions or files, and the user's own are never touched. @default true
   */
  readonly isolate?: boolean;
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
  /**
   * The private home of an isolated app (`HOME`; the XDG directories are inside it); undefined
   * when the app runs with `isolate: false`.
   */
  readonly home?: string;
  /**
   * Closes the app as a desktop would: asks its windows to close (WM_DELETE_WINDOW), then
   * SIGTERM, then SIGKILL; runs `teardown`, then removes the private home. Idempotent.
   */
  close(): Promise<void>;
}

/** Everything the rest of retrace needs from the OS, bundled for one display. */
export interface Desktop {
  readonly display: Display;
  readonly capture: ScreenCapture;
  readonly input: InputDriver;
  readonly windows: WindowSystem;
  /**
   * The widgets apps publish over the accessibility bus (AT-SPI). Absent when the display has
   * no accessibility bus; an app that publishes nothing (Tk, xterm) reads as no elements.
   */
  readonly elements?: ElementSource;
  /** The backends chosen at open for capture, input and the element tree, and why (docs/architecture.md). */
  readonly providers?: ProviderChoice;
  launch(app: AppConfig): Promise<AppSession>;
}

/** Who grabs the screen: retrace's own X connection (GetImage), or nut-js (libnut's XGetImage). */
export type CaptureProviderName = 'x-protocol' | 'nut-js';
/** Who sends mouse and keys: XTEST over retrace's own connection, nut-js (keys by xdotool), or xdotool. */
export type InputProviderName = 'xtest' | 'nut-js' | 'xdotool';
/** How the element tree is read: over each app's own connection where it offers one (`direct`), or all through the bus daemon. */
export type TreeProviderName = 'direct' | 'bus';

/** A provider chosen at open, and why: "XTEST on the own X connection", "XTEST missing → nut-js". */
export interface ProviderChosen<Name extends string> {
  readonly name: Name;
  readonly reason: string;
}

export interface ProviderChoice {
  readonly capture: ProviderChosen<CaptureProviderName>;
  readonly input: ProviderChosen<InputProviderName>;
  /** Absent when the display has no accessibility bus. */
  readonly tree?: ProviderChosen<TreeProviderName>;
}

/** Providers to use whatever the display offers; opening fails with the reason when one cannot work there. */
export interface ForcedProviders {
  readonly capture?: CaptureProviderName;
  readonly input?: InputProviderName;
  readonly tree?: TreeProviderName;
}

/** The states of an element that retrace reads (AT-SPI state set). */
export interface ElementStates {
  readonly focused: boolean;
  /** Checked (a check box, radio, toggle), or pressed (a toggle button). */
  readonly checked: boolean;
  /** Takes input (not greyed out). */
  readonly sensitive: boolean;
  /** On screen: neither hidden nor scrolled away (an element that is not showing is not read). */
  readonly showing: boolean;
  readonly editable: boolean;
  readonly selected: boolean;
  readonly expanded: boolean;
}

/**
 * A widget as its toolkit publishes it: a button, an entry, a label… Read from the app's
 * accessibility tree; `ref` identifies it for as long as the app runs.
 */
export interface Element {
  /** The element's bus name and object path, e.g. ":1.7/org/a11y/atspi/accessible/13". */
  readonly ref: string;
  /**
   * retrace's role name: window, dialog, button, checkbox, radio, entry, textarea, label,
   * heading, link, image, combobox, list, item, menu, menuitem, tab, slider, spinbutton,
   * scrollbar, progressbar, toolbar, statusbar, separator, document, group… (see ROLES in
   * src/desktop/atspi/roles.ts). A toolkit role without a retrace name keeps its own.
   */
  readonly role: string;
  /** The toolkit's own role name, e.g. "push button", "toggle button", "text", "static". */
  readonly toolkitRole: string;
  /** The accessible name ("" when the toolkit gives none). */
  readonly name: string;
  readonly description: string;
  /**
   * The text of the label that names this element when it has no name of its own: its
   * AT-SPI `labelled-by` relation, else the label just left of it or just above it.
   */
  readonly label?: string;
  readonly states: ElementStates;
  /** The text of an entry, text area, terminal or spin button, as the toolkit reports it. */
  readonly text?: string;
  /** The value of a slider, spin button, progress bar or scroll bar. */
  readonly value?: number;
  /** Relative to the app's main window, like every window-relative position of retrace. */
  readonly box: Region;
  /** The parent's ref; undefined for a top-level window of the app. */
  readonly parent?: string;
  /** Position among the parent's elements (those showing), from 0. */
  readonly index: number;
  /** 0 for a top-level window, 1 for its children… */
  readonly depth: number;
}

/** Which elements to find. Every given field must match. */
export interface ElementQuery {
  /** A retrace role (`button` also matches toggle buttons) or a toolkit role ("push button"). */
  readonly role?: string;
  /**
   * The element's name, or its label when it has no name: a string matches exactly (after
   * trimming and collapsing white space), a RegExp anywhere.
   */
  readonly name?: string | RegExp;
  /** Picks the nth of the matches in tree order, from 0. */
  readonly nth?: number;
}

export interface ElementReadOptions {
  /**
   * The app's main window (screen region), when the caller knows it already; otherwise it is
   * asked of the app (an X round trip).
   */
  readonly window?: Region;
}

/** The widgets of the app under test, read over the accessibility bus. */
export interface ElementSource {
  /**
   * Every showing element of the app's windows (its dialogs included), in tree order (a
   * parent before its children). Empty when the app publishes nothing.
   */
  read(app: AppSession, options?: ElementReadOptions): Promise<readonly Element[]>;
  /** The elements that match `query`, in tree order (one, or none, with `nth`). */
  find(app: AppSession, query: ElementQuery, options?: ElementReadOptions): Promise<readonly Element[]>;
  /**
   * One element read again (states, name, text, value, box): a few calls, not a tree read.
   * Undefined when it is gone or no longer showing.
   */
  refresh(app: AppSession, element: Element, options?: ElementReadOptions): Promise<Element | undefined>;
  /**
   * The refs of the elements `label` is the label of (its `label-for` relation, as an HTML
   * `<label for=…>` ties it): a field named only by a toolkit's default ("Password" for any
   * password field) is told apart from the field a label really names. Empty when it names none.
   */
  labelTargets?(app: AppSession, label: Element): Promise<readonly string[]>;
  /** Whether the accessibility bus answers, and which apps are on it; for `retrace doctor`. */
  status(): Promise<ElementSourceStatus>;
  /** Closes the bus connection; reads after it reconnect. */
  close(): void;
}

export type ElementSourceStatus =
  | { readonly up: true; readonly address: string; readonly apps: number }
  | { readonly up: false; readonly reason: string };
