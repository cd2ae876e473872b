/**
 * An Xvfb that retrace starts and owns. Xvfb chooses a free display number itself
 * (`-displayfd`), so any number of workers can start one each at the same time without
 * racing for a number.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { InfrastructureError } from '../errors.ts';
import { missingTool, runTool } from './exec-tool.ts';
import { lineTail } from './line-tail.ts';
import { accessibilityEnv } from './atspi/a11y-bus.ts';
import { pollUntil, settlesWithin } from './poll.ts';
import { CORE_FONT_PATH, writeFontconfig } from './session/fonts.ts';
import { startSessionServices } from './session/services.ts';
import type { Display, SessionServices } from './types.ts';
import { startWatchdog } from './watchdog.ts';
import { writeCookieFile } from './x11/auth.ts';

export interface XvfbOptions {
  readonly width: number;
  readonly height: number;
  readonly depth: number;
  /** How long Xvfb may take to come up. @default 10000 */
  readonly startTimeoutMs?: number;
  /** Bring up the accessibility bus with the session services. */
  readonly accessibility: boolean;
  /** The fonts of its apps (absolute paths of files or folders); none means DejaVu. */
  readonly fonts?: readonly string[];
}

/**
 * The locale and time zone every app on an owned display gets, for reproducible runs (its fonts
 * are pinned too: session/fonts.ts).
 */
const PINNED_ENV = { LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TZ: 'UTC' } as const;

const STDERR_TAIL_LINES = 20;
const STOP_GRACE_MS = 2_000;
const STDERR_DRAIN_MS = 1_000;

/**
 * A process that has exited but not been reaped yet still exists for `kill(pid, 0)`; its
 * /proc state tells the truth at once, before Node's exit event has run.
 */
export const processGone = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
};

/** Reads the display number Xvfb writes to the `-displayfd` pipe once it accepts clients. */
const displayNumber = (xvfb: ChildProcess, timeoutMs: number): Promise<number> =>
  new Promise((resolve, reject) => {
    const fd = xvfb.stdio[3] as Readable | null;
    let text = '';
    const timer = setTimeout(() => done(new Error(`no display number after ${timeoutMs} ms`)), timeoutMs);
    const done = (result: number | Error): void => {
      clearTimeout(timer);
      fd?.removeAllListeners('data');
      xvfb.off('exit', onExit);
      xvfb.off('error', onError);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onExit = (code: number | null, signal: string | null): void =>
      done(new Error(`Xvfb exited during start (code ${code}, signal ${signal})`));
    const onError = (error: Error): void => done(error);
    fd?.setEncoding('utf8');
    fd?.on('data', (chunk: string) => {
      text += chunk;
      const match = /^(\d+)\n/.exec(text);
      if (match?.[1] !== undefined) done(Number(match[1]));
    });
    xvfb.once('exit', onExit);
    xvfb.once('error', onError);
  });

/**
 * Starts an Xvfb with a pinned `us` keyboard layout, pinned fonts and the session services of a desktop
 * (session bus, accessibility bus, XSETTINGS manager), and returns it as a Display.
 */
export const startXvfb = async (options: XvfbOptions): Promise<Display> => {
  const { width, height, depth } = options;
  const startTimeoutMs = options.startTimeoutMs ?? 10_000;
  // Without -auth, any local user could watch and drive the run; with it, only the holder of
  // the cookie can: retrace, the tools it runs and the apps it launches (XAUTHORITY in env).
  const cookie = writeCookieFile();
  const xvfb = spawn(
    'Xvfb',
    // -noreset: without it the server resets (layout included) whenever its last client leaves.
    // -fp: the core fonts (xterm, xcalc) must not depend on the font packages installed.
    [
      '-displayfd',
      '3',
      '-screen',
      '0',
      `${width}x${height}x${depth}`,
      '-nolisten',
      'tcp',
      '-noreset',
      '-auth',
      cookie.file,
      '-fp',
      CORE_FONT_PATH,
    ],
    // Its own process group: a Ctrl-C in the terminal signals the whole foreground group, and
    // the server must outlive it (`retrace record` ends on Ctrl-C and then checks the screen).
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'], detached: true },
  );
  const stderrTail = lineTail(xvfb.stderr, STDERR_TAIL_LINES);
  const closed = new Promise<void>((resolve) => xvfb.once('close', () => resolve()));
  // Neither the server nor its pipes may keep this process alive; the watchdog ends it.
  xvfb.unref();
  for (const stream of [xvfb.stderr, xvfb.stdio[3]]) {
    (stream as (Readable & { unref?: () => void }) | null)?.unref?.();
  }

  const kill = (signal: NodeJS.Signals): void => {
    if (xvfb.exitCode === null && xvfb.signalCode === null) xvfb.kill(signal);
  };
  // The server ends with this process, however it ends (see watchdog.ts).
  const standDown = xvfb.pid === undefined ? undefined : startWatchdog({ kill: [xvfb.pid], remove: [cookie.dir] });
  const removeCookie = (): void => rmSync(cookie.dir, { recursive: true, force: true });
  const release = (): void => {
    kill('SIGTERM');
    standDown?.();
  };

  let number: number;
  try {
    number = await displayNumber(xvfb, startTimeoutMs);
  } catch (error) {
    kill('SIGKILL');
    standDown?.();
    removeCookie();
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw missingTool('Xvfb', error);
    // Its last words can still be in the pipe when its exit is seen.
    await settlesWithin(closed, STDERR_DRAIN_MS);
    const detail = stderrTail();
    throw new InfrastructureError(
      'NO_DISPLAY',
      `Could not start Xvfb (${width}x${height}x${depth}): ${(error as Error).message}` + (detail ? `\nXvfb stderr:\n${detail}` : ''),
      { cause: error },
    );
  }
  const name = `:${number}`;

  let stopping = false;
  let exitDetail = '';
  let markDied: () => void = () => undefined;
  const died = new Promise<void>((resolve) => {
    markDied = resolve;
  });
  const exited = new Promise<void>((resolve) => {
    xvfb.once('exit', (code, signal) => {
      standDown?.();
      removeCookie();
      exitDetail = signal === null ? `exit code ${code}` : `signal ${signal}`;
      if (!stopping) markDied();
      resolve();
    });
  });

  const assertAlive = (): void => {
    if (stopping) {
      throw new InfrastructureError('DISPLAY_DIED', `The X server ${name} was stopped by retrace.`);
    }
    if (xvfb.pid === undefined || processGone(xvfb.pid)) {
      const tail = stderrTail();
      throw new InfrastructureError(
        'DISPLAY_DIED',
        `The X server ${name} died (Xvfb pid ${xvfb.pid}${exitDetail ? `, ${exitDetail}` : ''}).` + (tail ? `\nXvfb stderr:\n${tail}` : ''),
      );
    }
  };

  let services: SessionServices | undefined;
  const stop = async (): Promise<void> => {
    if (stopping) return exited;
    stopping = true;
    // The services are X clients too (xsettingsd, the accessibility launcher): they go first.
    await services?.stop();
    release();
    if (!(await settlesWithin(exited, STOP_GRACE_MS))) kill('SIGKILL');
    await exited;
  };

  const pinned = { DISPLAY: name, XAUTHORITY: cookie.file, ...PINNED_ENV };
  let fonts: Readonly<Record<string, string>>;
  try {
    // In the cookie's folder: private, and removed with the server (by the watchdog too).
    fonts = writeFontconfig(cookie.dir, options.fonts);
    await pinKeyboardLayout(name, pinned, startTimeoutMs);
    services = await startSessionServices({
      display: name,
      env: pinned,
      accessibility: options.accessibility,
      startTimeoutMs,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  const env = { ...pinned, ...fonts, ...services.env, ...accessibilityEnv(options.accessibility) };
  return {
    name,
    width,
    height,
    owned: true,
    pid: xvfb.pid,
    env,
    ...(options.accessibility && { sessionBus: services.sessionBus }),
    services,
    died,
    assertAlive,
    stop,
  };
};

/**
 * `setxkbmap us` makes typed text independent of the host's layout; it is also the first real
 * client, so its success proves the server answers. Retried: the display number is announced
 * before every extension is ready on a loaded machine.
 */
const pinKeyboardLayout = async (name: string, env: Readonly<Record<string, string>>, timeoutMs: number): Promise<void> => {
  let last = '';
  const ok = await pollUntil(
    async () => {
      const result = await runTool('setxkbmap', ['-display', name, 'us'], {
        env: { ...process.env, ...env },
        timeoutMs,
      });
      last = result.stderr.trim();
      return result.code === 0 ? true : undefined;
    },
    { timeoutMs },
  );
  if (ok === undefined) {
    throw new InfrastructureError(
      'NO_DISPLAY',
      `Xvfb ${name} started but did not answer within ${timeoutMs} ms (setxkbmap: ${last || 'no output'}).`,
    );
  }
};
