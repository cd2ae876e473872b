/**
 * The desktop layer: one X display, its screen, mouse, keyboard, windows and app processes.
 * Nothing outside `src/desktop` imports nut-js, spawns X tools or starts app processes.
 */
import { launchApp } from './app.ts';
import { acquireDisplay, adoptDisplay } from './display.ts';
import { AtspiElementSource } from './atspi/source.ts';
import { XScreenCapture } from './capture.ts';
import { XInputDriver, type XInputOptions } from './input.ts';
import { chooseProviders } from './providers/choose.ts';
import type { Desktop, Display, ForcedProviders, HandedDisplay } from './types.ts';
import { XWindowSystem, type XWindowOptions } from './windows.ts';

export interface DesktopOptions {
  readonly input?: XInputOptions;
  readonly windows?: XWindowOptions;
  /** Backends to use whatever the display offers (tests, a display whose XTEST misbehaves). */
  readonly providers?: ForcedProviders;
}

/**
 * Bundles the implementations for `display`, its providers chosen once here (the reasons in
 * `Desktop.providers`). nut-js is bound to the display (and `process.env.DISPLAY` set) only
 * when a provider that uses it first acts.
 */
export const createDesktop = async (display: Display, options: DesktopOptions = {}): Promise<Desktop> => {
  const windows = new XWindowSystem(display, options.windows);
  const { capture, input, choice } = await chooseProviders(display, options.providers);
  return {
    display,
    capture: new XScreenCapture(display, capture),
    input: new XInputDriver(input, options.input),
    windows,
    ...(display.sessionBus !== undefined && { elements: new AtspiElementSource(display.sessionBus, choice.tree?.name) }),
    providers: choice,
    launch: (app) => launchApp(app, display, windows),
  };
};

export interface OpenDesktopOptions {
  /** Start a display of retrace's own (an Xvfb) instead of using the user's `$DISPLAY`. */
  readonly own: boolean;
  /** Screen size of a display retrace starts. @default [1280, 800] */
  readonly size?: readonly [number, number];
  /** The fonts of the apps launched on it (`display.fonts`, absolute paths). @default DejaVu */
  readonly fonts?: readonly string[];
  /** A display the run's main process opened for this worker, used whatever `own` says. */
  readonly display?: HandedDisplay;
  /** Backends to use whatever the display offers; by default chosen from what it offers. */
  readonly providers?: ForcedProviders;
}

/**
 * The desktop of this process: the one factory the rest of retrace calls. A backend for another
 * OS is a folder beside this file and a branch here (docs/architecture.md lists what it must
 * implement). Call it once per process, before anything captures or acts.
 */
export const openDesktop = async (options: OpenDesktopOptions): Promise<Desktop> => {
  const display =
    options.display !== undefined
      ? adoptDisplay(options.display)
      : await acquireDisplay({
          reuseEnv: !options.own,
          ...(options.size ? { size: options.size } : {}),
          ...(options.fonts ? { fonts: options.fonts } : {}),
        });
  bindProcess(display);
  try {
    return await createDesktop(display, options.providers !== undefined ? { providers: options.providers } : {});
  } catch (error) {
    // A forced provider the display cannot serve: nothing of this display may outlive the failure.
    await display.stop();
    throw error;
  }
};

/**
 * A display for a whole run, which the run's worker processes inherit and share (`--keep-open`
 * keeps it after the run): `$DISPLAY` when set and `reuseEnv`, else an Xvfb owned by this process.
 */
export const openSharedDisplay = async (
  size: readonly [number, number],
  reuseEnv = true,
  fonts: readonly string[] = [],
): Promise<Display> => {
  const display = await acquireDisplay({ reuseEnv, size, fonts });
  bindProcess(display);
  return display;
};

/** True when the user has a display of their own (`$DISPLAY`) that a run may use. */
export const hasUserDisplay = (): boolean => Boolean(process.env.DISPLAY);

/**
 * The capture library binds to `$DISPLAY` on first use, once per process, and child processes
 * (the run's workers) inherit it: the display, and the cookie that lets them in, must be this
 * process's before anything touches X.
 */
const bindProcess = (display: Display): void => {
  process.env.DISPLAY = display.name;
  if (display.env.XAUTHORITY !== undefined) process.env.XAUTHORITY = display.env.XAUTHORITY;
};

export { acquireDisplay, handOver, probeDisplay, displayAnswers, howToLook, DISPLAY_DEFAULTS } from './display.ts';
export { launchApp, APP_DEFAULTS } from './app.ts';
export { parseTitlePattern, type TitlePattern } from './title-pattern.ts';
export { matchElements, accessibleName } from './element-query.ts';
export { ROLE_NAMES as ELEMENT_ROLE_NAMES } from './atspi/roles.ts';
export { listenInput, type InputEvent, type InputListener } from './input-listener.ts';
export { startVncBridge, type VncBridge, type LiveStatus, type StatusSource } from './vnc.ts';
export { interceptSignals } from './exit-hooks.ts';
export { pageAccess, type PageAccess } from './page-access.ts';
export { describeProviders } from './providers/choose.ts';
export type * from './types.ts';
