/**
 * The session services of a display retrace owns, as a desktop session would run them: a D-Bus
 * session bus (apps expect one; without it GLib apps autolaunch a stray daemon per display),
 * the accessibility bus behind it (at-spi2, activated through the session bus), and an
 * XSETTINGS manager (xsettingsd) that turns animations and caret blinking off.
 *
 * All of them live in one process group, in a private runtime directory, with a private HOME
 * and an in-memory GSettings backend: nothing of the user's configuration is read or written.
 * They are started with the display, stopped with it, and ended by a watchdog if this process
 * dies first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { InfrastructureError } from '../../errors.ts';
import { lineTail } from '../line-tail.ts';
import { pollUntil, settlesWithin } from '../poll.ts';
import type { HandedServices, SessionServices } from '../types.ts';
import { startWatchdog } from '../watchdog.ts';
import { XConnection, type XEnv } from '../x11/connection.ts';
import { xsettingsConfig } from './animations.ts';
import { enableAccessibility } from '../atspi/a11y-bus.ts';

export interface SessionServicesOptions {
  /** The DISPLAY value. */
  readonly display: string;
  /** The display's pinned environment (locale, time zone). */
  readonly env: Readonly<Record<string, string>>;
  /** Bring up the accessibility bus. */
  readonly accessibility: boolean;
  /**
   * Run an XSETTINGS manager. Off on a display retrace does not own: the selection is the
   * display's, and taking it would change every app of the user's desktop. @default true
   */
  readonly settingsManager?: boolean;
  /** How long the services may take to come up. @default 10000 */
  readonly startTimeoutMs?: number;
}

const STOP_GRACE_MS = 1_000;
const XSETTINGS_SELECTION = '_XSETTINGS_S0';

/**
 * One shell becomes the group leader: it starts xsettingsd in the background, says its pid,
 * and becomes the session bus. Services the bus activates (the accessibility bus launcher, its
 * bus and registry) stay in the group, so one signal to the group ends them all.
 */
const SERVICES_SCRIPT = `if [ "$3" = yes ] && command -v xsettingsd >/dev/null 2>&1; then
  xsettingsd -c "$1" </dev/null >/dev/null 2>&1 &
  echo "xsettingsd $!"
else
  echo "xsettingsd none"
fi
exec dbus-daemon --session --nofork --nopidfile --address="unix:path=$2" --print-address=1`;

/** Reads the first lines of the script: xsettingsd's pid, then the bus address once it listens. */
const readStartup = (child: ChildProcess, timeoutMs: number): Promise<{ xsettingsd?: number; address: string }> =>
  new Promise((resolve, reject) => {
    const out = child.stdout as Readable;
    let text = '';
    const timer = setTimeout(() => done(new Error(`no bus address after ${timeoutMs} ms`)), timeoutMs);
    const done = (result: { xsettingsd?: number; address: string } | Error): void => {
      clearTimeout(timer);
      out.removeAllListeners('data');
      child.off('exit', onExit);
      child.off('error', done);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onExit = (code: number | null, signal: string | null): void =>
      done(new Error(`dbus-daemon exited during start (code ${code}, signal ${signal})`));
    out.setEncoding('utf8');
    out.on('data', (chunk: string) => {
      text += chunk;
      const pid = /^xsettingsd (\d+|none)\n/.exec(text)?.[1];
      const address = /^(unix:\S+)\n/m.exec(text)?.[1];
      if (pid === undefined || address === undefined) return;
      done(pid === 'none' ? { address } : { xsettingsd: Number(pid), address });
    });
    child.once('exit', onExit);
    child.once('error', done);
  });

/** The runtime directory: the buses' sockets, xsettingsd's file, the services' own HOME. */
const makeRuntimeDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-session-'));
  chmodSync(dir, 0o700);
  for (const sub of ['config', 'cache', 'data']) mkdirSync(join(dir, sub));
  return dir;
};

export const startSessionServices = async (options: SessionServicesOptions): Promise<SessionServices> => {
  const startTimeoutMs = options.startTimeoutMs ?? 10_000;
  // An X server started without -noreset (xvfb-run's, a CI container's) resets whenever its last
  // client leaves, and the reset takes the root window's properties with it: AT_SPI_BUS, where
  // the accessibility launcher publishes its bus once it started. Qt 5 connects from that at
  // once; without it, it asks the session bus and registers its tree before the answer arrives,
  // on no connection: the app never reaches the registry (4 launches of 10 on a loaded machine).
  // One connection held while the services run keeps the server from resetting.
  const hold = options.accessibility ? await XConnection.open(options.display, options.env).catch(() => undefined) : undefined;
  const dir = makeRuntimeDir();
  const settingsFile = join(dir, 'xsettingsd.conf');
  writeFileSync(settingsFile, xsettingsConfig(false));
  const manager = options.settingsManager === false ? 'no' : 'yes';
  const child = spawn('sh', ['-c', SERVICES_SCRIPT, 'retrace-session', settingsFile, join(dir, 'bus'), manager], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ...options.env,
      DISPLAY: options.display,
      HOME: dir,
      XDG_RUNTIME_DIR: dir,
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_CACHE_HOME: join(dir, 'cache'),
      XDG_DATA_HOME: join(dir, 'data'),
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dir, 'bus')}`,
      // The accessibility launcher keeps its switch in GSettings: never in the user's dconf.
      GSETTINGS_BACKEND: 'memory',
      // The services themselves are no applications to read.
      NO_AT_BRIDGE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const stderrTail = lineTail(child.stderr as Readable);
  child.unref();
  for (const stream of [child.stdout, child.stderr]) (stream as Readable & { unref?: () => void }).unref?.();
  const group = child.pid ?? 0;
  const standDown = group > 1 ? startWatchdog({ kill: [-group], remove: [dir] }) : () => undefined;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    const signal = (name: NodeJS.Signals): void => {
      try {
        if (group > 1) process.kill(-group, name);
      } catch {
        // The group is gone already.
      }
    };
    signal('SIGTERM');
    if (!(await settlesWithin(exited, STOP_GRACE_MS))) signal('SIGKILL');
    // Services the bus activated leave with it, but not in the same instant.
    signal('SIGKILL');
    standDown();
    hold?.close();
    rmSync(dir, { recursive: true, force: true });
  };

  let startup: { xsettingsd?: number; address: string };
  try {
    startup = await readStartup(child, startTimeoutMs);
    if (options.accessibility) await enableAccessibility(startup.address, startTimeoutMs);
    if (startup.xsettingsd !== undefined) await waitForSettingsManager(options.display, options.env, startTimeoutMs);
  } catch (error) {
    await stop();
    const detail = stderrTail();
    throw new InfrastructureError(
      'NO_DISPLAY',
      `Could not start the desktop session services of ${options.display} (D-Bus, accessibility bus, ` +
        `xsettingsd): ${(error as Error).message}${detail ? `\nstderr:\n${detail}` : ''}` +
        '\nInstall them (Debian/Ubuntu: apt-get install dbus dbus-x11 at-spi2-core xsettingsd), or set ' +
        'RETRACE_ACCESSIBILITY=off to run without the accessibility bus.',
      { cause: error },
    );
  }

  const handed: HandedServices = {
    display: options.display,
    xEnv: Object.fromEntries(Object.entries(options.env).filter((e): e is [string, string] => e[1] !== undefined)),
    sessionBus: startup.address,
    dir,
    settingsFile,
    ...(startup.xsettingsd !== undefined && { xsettingsd: startup.xsettingsd }),
    startTimeoutMs,
  };
  const switchAnimations = animationsSwitch(handed, () => stopped);
  return { ...servicesOf(handed), allowAnimations: switchAnimations, stop };
};

/**
 * The services another process started for a display it keeps (the run's main process, for its
 * worker): the same switch of animations, and stop() leaves them to that process.
 */
export const adoptSessionServices = (handed: HandedServices): SessionServices => ({
  ...servicesOf(handed),
  allowAnimations: animationsSwitch(handed, () => false),
  stop: async () => undefined,
});

const servicesOf = (handed: HandedServices): Omit<SessionServices, 'allowAnimations' | 'stop'> => ({
  env: { DBUS_SESSION_BUS_ADDRESS: handed.sessionBus },
  sessionBus: handed.sessionBus,
  dir: handed.dir,
  settingsManager: handed.xsettingsd !== undefined,
  handed,
});

/** Rewrites xsettingsd's file and has it reload, then waits until the display publishes the change. */
const animationsSwitch = (handed: HandedServices, stopped: () => boolean): SessionServices['allowAnimations'] => {
  let animationsAllowed = false;
  const { display, xEnv, xsettingsd } = handed;
  return async (allowed) => {
    if (allowed === animationsAllowed || xsettingsd === undefined || stopped()) return;
    animationsAllowed = allowed;
    const before = await settingsProperty(display, xEnv);
    writeFileSync(handed.settingsFile, xsettingsConfig(allowed));
    process.kill(xsettingsd, 'SIGHUP');
    // Apps read the settings when they start: the next launch must see the new ones.
    await pollUntil(async () => ((await settingsProperty(display, xEnv))?.equals(before ?? Buffer.alloc(0)) ? undefined : true), {
      timeoutMs: handed.startTimeoutMs,
    });
  };
};

/** The XSETTINGS data the manager publishes (its serial changes on every reload). */
const settingsProperty = async (display: string, env: XEnv): Promise<Buffer | undefined> => {
  const x = await XConnection.open(display, env);
  try {
    const owner = await x.selectionOwner(XSETTINGS_SELECTION);
    return owner === 0 ? undefined : (await x.property(owner, '_XSETTINGS_SETTINGS')).value;
  } finally {
    x.close();
  }
};

/** Waits until xsettingsd owns the XSETTINGS selection, so the first app already sees it. */
const waitForSettingsManager = async (display: string, env: XEnv, timeoutMs: number): Promise<void> => {
  const ready = await pollUntil(async () => ((await settingsProperty(display, env)) === undefined ? undefined : true), {
    timeoutMs,
  });
  if (ready === undefined) throw new Error(`xsettingsd did not take ${XSETTINGS_SELECTION} within ${timeoutMs} ms`);
};
