/**
 * Starting the application under test, finding its window, and ending it for sure.
 *
 * The app runs in its own process group (session), so close() reaches every process it
 * spawned; its windows are found by title (main window) and by the pids of its process tree
 * (dialogs, and windows of helper processes such as chromium's).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { InfrastructureError } from '../errors.ts';
import { onProcessExit } from './exit-hooks.ts';
import { lineTail } from './line-tail.ts';
import { delay, pollUntil, settlesWithin } from './poll.ts';
import { appProcesses } from './process-tree.ts';
import { animationsEnv } from './session/animations.ts';
import { createPrivateHome, type PrivateHome } from './session/private-home.ts';
import { toolkitEnv } from './session/toolkits.ts';
import { findAtkWrapper, javaAccessibilityEnv } from './session/java.ts';
import { accessibilityEnv } from './atspi/a11y-bus.ts';
import { runShellStep } from './shell-step.ts';
import { parseTitlePattern, type TitlePattern } from './title-pattern.ts';
import type { Region } from '../domain.ts';
import type { AppConfig, AppExit, AppSession, Display, WindowInfo, WindowSystem } from './types.ts';

export const APP_DEFAULTS = Object.freeze({
  windowTimeoutMs: 15_000,
  /** How long close() lets the app end after asking its windows to close, before SIGTERM. */
  closeRequestGraceMs: 2_000,
  /** How long close() lets the app end on SIGTERM before SIGKILL. */
  closeGraceMs: 2_000,
  /** How long a requested window size may take to apply. */
  resizeTimeoutMs: 5_000,
});

/** Words that cannot follow `exec` in `sh -c "exec …"`. */
const NOT_EXECUTABLE = new Set([
  'cd',
  'export',
  'set',
  'unset',
  'source',
  '.',
  'eval',
  'exec',
  'if',
  'for',
  'while',
  'until',
  'case',
  '{',
  '!',
]);

/**
 * `exec` makes the shell become the app, so the session's pid is the app's own and its exit
 * code is the app's. Only for one simple command: compound commands keep the shell as
 * parent, which the process group and the process tree cover as well.
 */
export const shellCommandFor = (launch: string): string => {
  const first = launch.trim().split(/\s+/)[0] ?? '';
  const simple = !/[;&|\n()`]|\$\(/.test(launch) && !first.includes('=') && !NOT_EXECUTABLE.has(first);
  return simple ? `exec ${launch.trim()}` : launch;
};

const describeExit = (exit: AppExit): string =>
  (exit.signal !== null ? `killed by ${exit.signal}` : `exit code ${exit.code}`) +
  (exit.stderrTail ? `\nstderr (last lines):\n${exit.stderrTail}` : '\n(no stderr output)');

const killGroup = (pgid: number, signal: NodeJS.Signals): void => {
  // kill(-1) would signal every process we may signal; never let a bad pid get there.
  if (!Number.isSafeInteger(pgid) || pgid <= 1) return;
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: nobody left in the group.
  }
};

const killProcess = (pid: number): void => {
  if (pid <= 1 || pid === process.pid) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
};

/** The display's environment, less the switches that make apps publish when `off`. */
const withoutBridges = (env: Readonly<Record<string, string>>, off: boolean): Readonly<Record<string, string>> =>
  off ? Object.fromEntries(Object.entries(env).filter(([key]) => !(key in accessibilityEnv(true)))) : env;

/**
 * The bridges switched on for one launch: none with `accessibility: off` (GTK told not to load
 * its own); the ATK wrapper for any JVM while the display has an accessibility bus.
 */
const bridgeEnv = (display: Display, accessibility: AppConfig['accessibility']): Readonly<Record<string, string>> => {
  if (accessibility === 'off') return accessibilityEnv(false);
  const wrapper = display.sessionBus === undefined ? undefined : findAtkWrapper();
  return wrapper ? javaAccessibilityEnv(wrapper, process.env.JAVA_TOOL_OPTIONS) : {};
};

export const launchApp = async (config: AppConfig, display: Display, windows: WindowSystem): Promise<AppSession> => {
  const pattern = parseTitlePattern(config.window);
  display.assertAlive();
  if (config.cwd !== undefined && !existsSync(config.cwd)) {
    throw new InfrastructureError('APP_START', `The app's cwd does not exist: ${config.cwd}`);
  }
  const animationsAllowed = config.animations === 'allow';
  // Apps read the XSETTINGS when they start: switched before the launch.
  await display.services?.allowAnimations(animationsAllowed);
  const home =
    config.isolate === false
      ? undefined
      : createPrivateHome({
          animationsOff: !animationsAllowed,
          ...(display.services && { parent: display.services.dir }),
          ...(display.env.XAUTHORITY !== undefined && { xauthority: display.env.XAUTHORITY }),
        });
  const env = {
    ...process.env,
    ...toolkitEnv(process.env),
    ...withoutBridges(display.env, config.accessibility === 'off'),
    ...bridgeEnv(display, config.accessibility),
    ...home?.env,
    ...animationsEnv(animationsAllowed),
    ...config.env,
  };
  try {
    if (config.setup) await runShellStep('setup', config.setup, { cwd: config.cwd, env });
  } catch (error) {
    home?.remove();
    throw error;
  }

  const child = spawn('sh', ['-c', shellCommandFor(config.launch)], {
    cwd: config.cwd,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  const stderrTail = lineTail(child.stderr);
  const session = new ProcessAppSession(child, config, env, pattern, windows, stderrTail, home);
  try {
    await session.start(display);
  } catch (error) {
    await session.close().catch(() => undefined);
    throw error;
  }
  return session;
};

const onScreen = ({ x, y, width, height }: Region, display: Display): boolean =>
  x >= 0 && y >= 0 && x + width <= display.width && y + height <= display.height;

class ProcessAppSession implements AppSession {
  readonly pid: number;
  readonly home?: string;
  readonly exited: Promise<AppExit>;
  private exit: AppExit | undefined;
  private mainId: number | undefined;
  private screen: Display | undefined;
  private closing: Promise<void> | undefined;
  private readonly unregister: () => void;

  constructor(
    child: ChildProcess,
    private readonly config: AppConfig,
    private readonly env: Readonly<Record<string, string | undefined>>,
    private readonly pattern: TitlePattern,
    private readonly windowSystem: WindowSystem,
    stderrTail: () => string,
    private readonly privateHome: PrivateHome | undefined,
  ) {
    if (privateHome !== undefined) this.home = privateHome.dir;
    // pid is undefined only when spawning failed; the 'error' event below reports that.
    this.pid = child.pid ?? -1;
    this.exited = new Promise<AppExit>((resolve) => {
      const finish = (code: number | null, signal: string | null, extra = ''): void => {
        if (this.exit !== undefined) return;
        const tail = [stderrTail(), extra].filter(Boolean).join('\n');
        this.exit = { code, signal, stderrTail: tail };
        resolve(this.exit);
      };
      child.once('error', (error) => finish(null, null, `could not start: ${error.message}`));
      child.once('exit', (code, signal) => {
        // stderr may still hold the last words; wait for its end, but not for grandchildren
        // that inherited it and live on.
        const ended = new Promise((r) => child.stderr?.once('close', r));
        void Promise.race([ended, delay(50)]).then(() => finish(code, signal));
      });
    });
    this.unregister = onProcessExit(() => {
      killGroup(this.pid, 'SIGTERM');
      privateHome?.remove();
    });
  }

  exitInfo(): AppExit | undefined {
    return this.exit;
  }

  release(): void {
    this.unregister();
  }

  /** Waits for the main window, then sizes, raises and focuses it. */
  async start(display: Display): Promise<void> {
    const { windowTimeoutMs, size } = this.config;
    const main = await this.waitForWindow(windowTimeoutMs ?? APP_DEFAULTS.windowTimeoutMs, display);
    this.mainId = main.id;
    this.screen = display;
    if (size !== undefined) await this.applySize(main, size[0], size[1]);
    await this.fitToScreen(size === undefined ? main : ((await this.windowSystem.get(main.id)) ?? main), display);
    await this.windowSystem.focus(main.id);
  }

  /**
   * A window that reaches past the screen cannot be seen whole (nor captured): it is moved onto
   * the screen, and resized to fit when it is larger, with one line saying which.
   */
  private async fitToScreen(main: WindowInfo, display: Display): Promise<void> {
    const { x, y, width, height } = main.region;
    if (onScreen(main.region, display)) return;
    const screen = `${display.width}x${display.height}`;
    if (width <= display.width && height <= display.height) {
      await this.windowSystem.move(
        main.id,
        Math.min(Math.max(0, x), display.width - width),
        Math.min(Math.max(0, y), display.height - height),
      );
      process.stderr.write(`retrace: the window "${main.title}" reached past the ${screen} screen: moved onto it\n`);
      return;
    }
    const fit: [number, number] = [Math.min(width, display.width), Math.min(height, display.height)];
    await this.windowSystem.move(main.id, 0, 0);
    try {
      await this.applySize(main, fit[0], fit[1]);
    } catch (error) {
      throw new InfrastructureError(
        'WINDOW_TIMEOUT',
        `The window "${main.title}" is ${width}x${height}, larger than the ${screen} screen, and did not shrink to ` +
          `${fit[0]}x${fit[1]} (its own minimum size?). Make the screen larger (display.size in retrace.config.yaml).`,
        { cause: error },
      );
    }
    process.stderr.write(
      `retrace: the window "${main.title}" was ${width}x${height}, larger than the ${screen} screen: resized to ${fit[0]}x${fit[1]}\n`,
    );
  }

  async window(): Promise<WindowInfo> {
    // The title found the window once; the app may change it since (a document name, a state).
    const known = this.mainId === undefined ? undefined : await this.windowSystem.get(this.mainId);
    if (known !== undefined) return this.fitted(known);
    // The app may have replaced its window (a restart, a new document).
    const found = await this.findMain();
    if (found !== undefined) {
      this.mainId = found.id;
      return this.fitted(found);
    }
    if (this.exit !== undefined) {
      throw new InfrastructureError(
        'APP_EXITED',
        `The app exited (${describeExit(this.exit)}); its window "${this.config.window}" is gone.`,
      );
    }
    throw new InfrastructureError('WINDOW_TIMEOUT', `The app's window "${this.config.window}" is no longer on screen.`);
  }

  /**
   * An app may grow its window after it first showed it (gtk3-widget-factory does, once its pages
   * are built, sometimes after the start's fit): fitted again whenever it reaches past the screen.
   */
  private async fitted(info: WindowInfo): Promise<WindowInfo> {
    if (this.screen === undefined || onScreen(info.region, this.screen)) return info;
    await this.fitToScreen(info, this.screen);
    return (await this.windowSystem.get(info.id)) ?? info;
  }

  async windows(): Promise<WindowInfo[]> {
    const [all, pids] = await Promise.all([this.windowSystem.list(), appProcesses(this.pid)]);
    return all.filter((w) => w.id === this.mainId || (w.pid !== undefined && pids.has(w.pid)));
  }

  async focus(): Promise<void> {
    await this.windowSystem.focus((await this.window()).id);
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    if (this.pid > 1) {
      // Taken while the app still runs: once it is gone, its children no longer link to it.
      const tree = await appProcesses(this.pid);
      // As a desktop closes an app: its windows are asked to close, and it saves and quits as
      // it would for a user (a killed app offers to "restore the session" next time).
      if (this.exit === undefined && (await this.requestClose())) {
        await settlesWithin(this.exited, APP_DEFAULTS.closeRequestGraceMs);
      }
      // Then SIGTERM, the whole group so no helper survives.
      if (this.exit === undefined) killGroup(this.pid, 'SIGTERM');
      await settlesWithin(this.exited, APP_DEFAULTS.closeGraceMs);
      // Whatever ignored SIGTERM, outlived the main process, or left the group, ends now.
      killGroup(this.pid, 'SIGKILL');
      for (const pid of tree) killProcess(pid);
      await this.exited;
      await pollUntil(async () => ((await appProcesses(this.pid)).size === 0 ? true : undefined), {
        timeoutMs: APP_DEFAULTS.closeGraceMs,
      });
    }
    this.unregister();
    try {
      if (this.config.teardown) {
        await runShellStep('teardown', this.config.teardown, { cwd: this.config.cwd, env: this.env });
      }
    } finally {
      this.privateHome?.remove();
    }
  }

  /** Asks every window of the app to close, dialogs before the main window. */
  private async requestClose(): Promise<boolean> {
    const windows = await this.windows().catch(() => []);
    windows.sort((a, b) => Number(a.id === this.mainId) - Number(b.id === this.mainId));
    let asked = false;
    for (const w of windows) asked = (await this.windowSystem.requestClose(w.id)) || asked;
    return asked;
  }

  private async findMain(all: readonly WindowInfo[] | undefined = undefined): Promise<WindowInfo | undefined> {
    const matching = (all ?? (await this.windowSystem.list())).filter((w) => this.pattern.test(w.title));
    if (matching.length <= 1) return matching[0];
    // Several windows match (another instance, a leftover): prefer one of ours.
    const pids = await appProcesses(this.pid);
    return matching.find((w) => w.pid !== undefined && pids.has(w.pid)) ?? matching[0];
  }

  private async waitForWindow(timeoutMs: number, display: Display): Promise<WindowInfo> {
    const deadline = Date.now() + timeoutMs;
    const seen = new Set<string>();
    let interval = 10;
    for (;;) {
      if (this.exit !== undefined) throw this.startFailure(this.exit);
      display.assertAlive();
      const all = await this.windowSystem.list();
      for (const w of all) seen.add(w.title);
      const found = await this.findMain(all);
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0) break;
      // Wake at once when the app exits instead of sleeping out the interval.
      await Promise.race([delay(Math.min(interval, left)), this.exited]);
      interval = Math.min(interval * 2, 100);
    }
    const titles = [...seen].map((t) => JSON.stringify(t));
    throw new InfrastructureError(
      'WINDOW_TIMEOUT',
      `No window with title ${describePattern(this.pattern)} appeared within ${timeoutMs} ms ` +
        `(launch: ${this.config.launch}). ` +
        (titles.length > 0 ? `Windows seen meanwhile: ${titles.join(', ')}.` : 'No windows were seen at all.'),
    );
  }

  private startFailure(exit: AppExit): InfrastructureError {
    return new InfrastructureError(
      'APP_START',
      `The app exited before its window ${describePattern(this.pattern)} appeared ` +
        `(launch: ${this.config.launch}): ${describeExit(exit)}`,
    );
  }

  private async applySize(main: WindowInfo, width: number, height: number): Promise<void> {
    await this.windowSystem.resize(main.id, width, height);
    let last: WindowInfo | undefined = main;
    const ok = await pollUntil(
      async () => {
        last = await this.windowSystem.get(main.id);
        return last?.region.width === width && last.region.height === height ? true : undefined;
      },
      { timeoutMs: APP_DEFAULTS.resizeTimeoutMs },
    );
    if (ok === undefined) {
      const now = last === undefined ? 'it is gone' : `it stays ${last.region.width}x${last.region.height}`;
      throw new InfrastructureError(
        'WINDOW_TIMEOUT',
        `The window "${main.title}" was asked to be ${width}x${height}, but ${now} ` + `after ${APP_DEFAULTS.resizeTimeoutMs} ms.`,
      );
    }
  }
}

const describePattern = (pattern: TitlePattern): string =>
  pattern.source.startsWith('/') ? `matching ${pattern.source}` : `containing "${pattern.source}"`;
