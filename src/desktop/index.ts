/**
 * The desktop layer: one X display, its screen, mouse, keyboard, windows and app processes.
 * Nothing outside `src/desktop` imports nut-js, spawns X tools or starts app processes.
 */
import { launchApp } from './app.ts';
import { AtspiElementSource } from './atspi/source.ts';
import { NutScreenCapture } from './capture.ts';
import { XInputDriver, type XInputOptions } from './input.ts';
import type { Desktop, Display } from './types.ts';
import { XWindowSystem, type XWindowOptions } from './windows.ts';

export interface DesktopOptions {
  readonly input?: XInputOptions;
  readonly windows?: XWindowOptions;
}

/**
 * Bundles the implementations for `display`. Cheap and free of side effects: nut-js is bound
 * to the display (and `process.env.DISPLAY` set) on the first capture or mouse action.
 */
export const createDesktop = (display: Display, options: DesktopOptions = {}): Desktop => {
  const windows = new XWindowSystem(display, options.windows);
  return {
    display,
    capture: new NutScreenCapture(display),
    input: new XInputDriver(display, options.input),
    windows,
    ...(display.sessionBus !== undefined && { elements: new AtspiElementSource(display.sessionBus) }),
    launch: (app) => launchApp(app, display, windows),
  };
};

export { acquireDisplay, probeDisplay, DISPLAY_DEFAULTS } from './display.ts';
export { launchApp, APP_DEFAULTS } from './app.ts';
export { NutScreenCapture } from './capture.ts';
export { XInputDriver, INPUT_DEFAULTS, type XInputOptions } from './input.ts';
export { XWindowSystem, type XWindowOptions } from './windows.ts';
export { parseKeyCombo, toXdotoolKey, type KeyCombo, type Modifier } from './key-combo.ts';
export { parseTitlePattern, type TitlePattern } from './title-pattern.ts';
export { matchElements, accessibleName } from './element-query.ts';
export { bgraToRgba } from './bgra.ts';
export type * from './types.ts';
