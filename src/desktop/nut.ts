/**
 * The one door to nut-js (and its native libnut). Everything about it that is process-wide
 * lives here:
 *
 * - libnut opens its X connection from `process.env.DISPLAY` on first use and keeps it for the
 *   life of the process. So one process drives one display: the first display handed to
 *   `nutFor` sets `process.env.DISPLAY` and is bound; asking for another display later is an
 *   error rather than silently driving the wrong screen. Parallel workers therefore each run
 *   in their own process with their own display.
 * - Xlib ends the whole process (exit code 1, "XIO: fatal IO error") when the server behind
 *   that connection has gone. `nutFor` calls `display.assertAlive()` first so a dead display
 *   becomes InfrastructureError('DISPLAY_DIED') instead.
 * - Loaded lazily: it pulls in an image library and a native module that commands such as
 *   `retrace validate` never need.
 */
import { InfrastructureError } from '../errors.ts';
import type { Display } from './types.ts';

type NutModule = typeof import('@nut-tree-fork/nut-js');
export type NutMouse = NutModule['mouse'];
export type NutScreen = NutModule['screen'];
export type NutButton = NutModule['Button'];
export type NutRegion = NutModule['Region'];

export interface Nut {
  readonly mouse: NutMouse;
  readonly screen: NutScreen;
  readonly Button: NutButton;
  readonly Region: NutRegion;
}

/** On `process`, not in module state: test runners re-evaluate modules, libnut stays loaded. */
const BOUND_DISPLAY = Symbol.for('retrace.desktop.nut.display');
const processState = process as unknown as { [BOUND_DISPLAY]?: string };

let loading: Promise<Nut> | undefined;

const load = (): Promise<Nut> => {
  loading ??= import('@nut-tree-fork/nut-js').then((nut) => {
    // Every delay off: retrace waits for the screen to settle itself, by looking at it.
    nut.mouse.config.autoDelayMs = 0;
    nut.mouse.config.mouseSpeed = 100_000;
    nut.keyboard.config.autoDelayMs = 0;
    return { mouse: nut.mouse, screen: nut.screen, Button: nut.Button, Region: nut.Region };
  });
  return loading;
};

/**
 * nut-js, bound to `display`. Call before every use: it is also the liveness check.
 * Throws DISPLAY_DIED for a dead display, NO_DISPLAY when this process is bound to another.
 */
export const nutFor = async (display: Display): Promise<Nut> => {
  display.assertAlive();
  const bound = processState[BOUND_DISPLAY];
  if (bound === undefined) {
    process.env.DISPLAY = display.name;
    // Xlib reads the cookie's file from the environment when libnut opens its connection.
    if (display.env.XAUTHORITY !== undefined) process.env.XAUTHORITY = display.env.XAUTHORITY;
    processState[BOUND_DISPLAY] = display.name;
  } else if (bound !== display.name) {
    throw new InfrastructureError(
      'NO_DISPLAY',
      `This process already drives X display ${bound} through nut-js and cannot drive ` +
        `${display.name} too (libnut keeps one X connection per process). Use one process ` +
        `(worker) per display.`,
    );
  }
  const nut = await load();
  // The import took time; the server may have died meanwhile.
  display.assertAlive();
  return nut;
};
