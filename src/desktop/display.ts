/**
 * Chooses the X display retrace runs on: the user's `$DISPLAY` when asked to reuse it, or a
 * fresh Xvfb of its own (one per worker; call acquireDisplay once per worker).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InfrastructureError } from '../errors.ts';
import { accessibilityBusAddress, accessibilityEnv } from './atspi/a11y-bus.ts';
import { openBus } from './atspi/dbus.ts';
import { writeFontconfig } from './session/fonts.ts';
import { adoptSessionServices, startSessionServices } from './session/services.ts';
import { startWatchdog } from './watchdog.ts';
import { accessibilityWanted } from '../switches.ts';
import { runTool } from './exec-tool.ts';
import { processGone, startXvfb } from './xvfb.ts';
import type { Display, DisplayOptions, HandedDisplay } from './types.ts';

/** The defaults of DisplayOptions, merged once. */
export const DISPLAY_DEFAULTS = Object.freeze({
  size: [1280, 800] as const,
  depth: 24,
  reuseEnv: true,
});

/** How often a reused display is checked for life; cheap (one socket connect). */
const WATCH_INTERVAL_MS = 1_000;
/** How often the Xvfb of a display handed to this worker is looked for (one read of /proc). */
const PID_WATCH_INTERVAL_MS = 100;

export const acquireDisplay = async (options: DisplayOptions = {}): Promise<Display> => {
  const reuseEnv = options.reuseEnv ?? DISPLAY_DEFAULTS.reuseEnv;
  const accessibility = options.accessibility ?? accessibilityWanted();
  const fonts = options.fonts ?? [];
  const envName = process.env.DISPLAY;
  if (reuseEnv && envName !== undefined && envName !== '') return reuseDisplay(envName, accessibility, fonts);
  const [width, height] = options.size ?? DISPLAY_DEFAULTS.size;
  return startXvfb({ width, height, depth: options.depth ?? DISPLAY_DEFAULTS.depth, accessibility, fonts });
};

/** Size of the screen of `name`, or undefined when nothing answers there. */
export const probeDisplay = async (
  name: string,
  /** The display's own environment (an owned display's cookie), over this process's. */
  env: Readonly<Record<string, string>> = {},
): Promise<{ width: number; height: number } | undefined> => {
  const result = await runTool('xdpyinfo', ['-display', name], {
    env: { ...process.env, ...env, DISPLAY: name },
    timeoutMs: 5_000,
  });
  const match = /dimensions:\s+(\d+)x(\d+) pixels/.exec(result.stdout);
  if (result.code !== 0 || match?.[1] === undefined || match[2] === undefined) return undefined;
  return { width: Number(match[1]), height: Number(match[2]) };
};

/**
 * The user's session bus, when there is one: apps of an isolated launch get a private
 * XDG_RUNTIME_DIR, so the bus they would find there is passed by address.
 */
const userSessionBus = (): string | undefined => {
  const address = process.env.DBUS_SESSION_BUS_ADDRESS;
  if (address) return address;
  const runtime = process.env.XDG_RUNTIME_DIR;
  const socket = runtime ? join(runtime, 'bus') : undefined;
  return socket !== undefined && existsSync(socket) ? `unix:path=${socket}` : undefined;
};

/** How long the user's session bus may take to name a working accessibility bus. */
const A11Y_PROBE_MS = 2_000;

/** True when `address` is a session bus that answers and leads to an accessibility bus that does. */
const reachesAccessibilityBus = async (address: string): Promise<boolean> => {
  try {
    const session = await openBus(address, A11Y_PROBE_MS);
    try {
      const a11y = await openBus(await accessibilityBusAddress(session), A11Y_PROBE_MS);
      a11y.close();
      return true;
    } finally {
      session.close();
    }
  } catch {
    return false;
  }
};

/** The services of a reused display are started once per process, so the line says it once. */
let told = false;

/**
 * The fontconfig of the apps retrace launches on a display it did not start, in a private folder
 * that goes with the display (and with this process, however it ends). The X server's core font
 * path is the server's: xterm and xcalc draw there with whatever core fonts it has.
 */
const pinFonts = (fonts: readonly string[]): { env: Readonly<Record<string, string>>; remove: () => void } => {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-fonts-'));
  const standDown = startWatchdog({ kill: [], remove: [dir] });
  const remove = (): void => {
    rmSync(dir, { recursive: true, force: true });
    standDown();
  };
  try {
    return { env: writeFontconfig(dir, fonts), remove };
  } catch (error) {
    remove();
    throw error;
  }
};

/**
 * `$DISPLAY`, checked to answer. retrace does not own it: no layout, locale or time zone pinned
 * (its apps get retrace's fonts all the same), and stop() leaves the X server alone. Its apps use
 * the user's session bus; when there is none (xvfb-run, a CI container), or it leads to no
 * accessibility bus while accessibility is wanted, retrace starts both for the apps it launches
 * only (their environment; no XSETTINGS manager, which would change the display for every app)
 * and stops them with the display. Without them every GLib app with a private HOME would fork a
 * bus of its own that outlives the run.
 */
const reuseDisplay = async (name: string, accessibility: boolean, fonts: readonly string[]): Promise<Display> => {
  const size = await probeDisplay(name);
  if (size === undefined) {
    throw new InfrastructureError(
      'NO_DISPLAY',
      `DISPLAY is set to "${name}" but no X server answers there. Start one, unset DISPLAY to ` +
        `let retrace start its own Xvfb, or fix DISPLAY.`,
    );
  }
  const life = watchLife(name, 'stopped answering');
  const bus = userSessionBus();
  const usable = bus !== undefined && (!accessibility || (await reachesAccessibilityBus(bus)));
  const services = usable
    ? undefined
    : await startSessionServices({
        display: name,
        // The accessibility registry is an X client: it needs the display's cookie (xvfb-run makes one).
        env: process.env.XAUTHORITY ? { XAUTHORITY: process.env.XAUTHORITY } : {},
        accessibility,
        settingsManager: false,
      });
  if (services !== undefined && !told) {
    told = true;
    process.stderr.write(
      `retrace: ${name} has no ${bus === undefined ? 'session bus' : 'reachable accessibility bus'}: ` +
        `started ${accessibility ? 'a session bus and an accessibility bus' : 'a session bus'} for the apps it launches, stopped with the run\n`,
    );
  }
  const sessionBus = services?.sessionBus ?? bus;
  const a11y = accessibility && sessionBus !== undefined;
  let pinned: ReturnType<typeof pinFonts>;
  try {
    pinned = pinFonts(fonts);
  } catch (error) {
    await services?.stop();
    throw error;
  }
  return {
    name,
    ...size,
    owned: false,
    env: {
      DISPLAY: name,
      ...pinned.env,
      ...(sessionBus !== undefined && { DBUS_SESSION_BUS_ADDRESS: sessionBus }),
      // Without a bus there is nothing to switch: the apps stay as the user runs them.
      ...((a11y || !accessibility) && accessibilityEnv(a11y)),
    },
    ...(a11y && { sessionBus }),
    ...(services !== undefined && { services }),
    ...life,
    stop: async () => {
      await services?.stop();
      pinned.remove();
    },
  };
};

/**
 * A display the run's main process opened and keeps, handed to this worker: its apps get the
 * environment that process made for it and its session services (the private homes of its apps
 * live in their folder; animations are switched per launch), and stop() leaves the server and
 * the services to that process.
 * Its Xvfb (when retrace started one) is watched by its pid, which tells a death at once.
 */
export const adoptDisplay = (handed: HandedDisplay): Display => {
  const { pid } = handed;
  return {
    name: handed.name,
    width: handed.width,
    height: handed.height,
    owned: handed.owned,
    ...(pid !== undefined && { pid }),
    env: handed.env,
    ...(handed.sessionBus !== undefined && { sessionBus: handed.sessionBus }),
    ...(handed.services !== undefined && { services: adoptSessionServices(handed.services) }),
    ...(pid === undefined
      ? watchLife(handed.name, 'stopped answering')
      : watchLife(handed.name, `died (Xvfb pid ${pid})`, () => processGone(pid))),
    stop: async () => undefined,
  };
};

/** What a worker needs of `display` to adopt it in another process. */
export const handOver = (display: Display): HandedDisplay => ({
  name: display.name,
  width: display.width,
  height: display.height,
  owned: display.owned,
  ...(display.pid !== undefined && { pid: display.pid }),
  env: display.env,
  ...(display.sessionBus !== undefined && { sessionBus: display.sessionBus }),
  ...(display.services !== undefined && { services: display.services.handed }),
});

/**
 * `died` and `assertAlive` of a display this process did not start, told by its socket, and by
 * `gone` (its server's process) where there is one to look at.
 */
const watchLife = (name: string, death: string, gone?: () => boolean): Pick<Display, 'died' | 'assertAlive'> => {
  let dead = false;
  const died = new Promise<void>((resolve) => {
    const markDied = (): void => {
      dead = true;
      resolve();
    };
    watchSocket(name, markDied);
    if (gone === undefined) return;
    // A process table entry is cheap to look at: its end is told within a moment, not a second.
    const timer = setInterval(() => {
      if (!gone()) return;
      clearInterval(timer);
      markDied();
    }, PID_WATCH_INTERVAL_MS);
    timer.unref();
  });
  return {
    died,
    assertAlive: () => {
      if (dead || gone?.()) throw new InfrastructureError('DISPLAY_DIED', `The X server ${name} ${death}.`);
    },
  };
};

/**
 * Notices a local X server going away by connecting to its socket now and then. Remote or
 * unusual displays (no socket file) are not watched: their death shows as a failed action.
 */
const watchSocket = (name: string, onDeath: () => void): void => {
  const path = localSocket(name);
  if (path === undefined || !existsSync(path)) return;
  const timer = setInterval(() => {
    const socket = connect(path);
    socket.once('connect', () => socket.destroy());
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') {
        clearInterval(timer);
        onDeath();
      }
    });
  }, WATCH_INTERVAL_MS);
  timer.unref();
};

/** The local socket of a display name (":3", "unix:3.0"); undefined for a remote one. */
const localSocket = (name: string): string | undefined => {
  const match = /^(?:unix)?:(\d+)(?:\.\d+)?$/.exec(name);
  return match?.[1] === undefined ? undefined : `/tmp/.X11-unix/X${match[1]}`;
};

/**
 * Whether the X server of `name` still accepts connections on its local socket. A display
 * without one (remote) cannot be told dead this way and counts as answering.
 */
export const displayAnswers = (name: string): Promise<boolean> => {
  const path = localSocket(name);
  if (path === undefined) return Promise.resolve(true);
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
};

/**
 * Commands a person runs to see the screen of `display`, for a display kept open after a run:
 * with its cookie, since a display retrace owns lets in no one without it.
 */
export const howToLook = (display: Pick<Display, 'name' | 'env'>, file: string): string => {
  const cookie = display.env.XAUTHORITY;
  const x = `${cookie ? `XAUTHORITY=${cookie} ` : ''}DISPLAY=${display.name}`;
  return `${x} import -window root ${file}  (or ${x} xwd -root | convert xwd:- out.png)`;
};
