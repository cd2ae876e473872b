/**
 * The desktop session of a display retrace owns (session bus, accessibility bus, XSETTINGS
 * manager), and the clean, private session each app launch gets: its own home, animations off,
 * and a close as a desktop does it.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import type { Desktop } from '../../src/desktop/types.ts';
import { accessibilityBusAddress } from '../../src/desktop/atspi/a11y-bus.ts';
import { openBus } from '../../src/desktop/atspi/dbus.ts';
import { startSessionServices } from '../../src/desktop/session/services.ts';
import { XConnection } from '../../src/desktop/x11/connection.ts';
import { getTestDesktop } from '../support/desktop.ts';
import { processesWith } from '../support/processes.ts';

const run = promisify(execFile);

const xsettings = async (desktop: Desktop): Promise<string> =>
  (await run('dump_xsettings', [], { env: { ...process.env, ...desktop.display.env } })).stdout;

const processesNaming = (text: string): number[] => processesWith('cmdline', text);

/** What a run must never change: the user's own configuration of the app. */
const snapshot = (dir: string): string =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true })
        .map((f) => `${f}:${statSync(join(dir, String(f))).mtimeMs}`)
        .sort()
        .join('\n')
    : 'absent';

describe('the session services of an owned display', () => {
  test('a session bus, the accessibility bus and xsettingsd run in a private directory, and stop with the display', async () => {
    const { acquireDisplay } = await import('../../src/desktop/index.ts');
    const display = await acquireDisplay({ reuseEnv: false, size: [320, 240] });
    const dir = /unix:path=([^,]+)\/bus/.exec(display.sessionBus ?? '')?.[1] ?? '';
    expect(dir).toMatch(/retrace-session-/);
    expect(display.env.DBUS_SESSION_BUS_ADDRESS).toBe(display.sessionBus);
    // dbus-daemon and xsettingsd name the directory; the accessibility bus lives in it too.
    expect(processesNaming(dir).length).toBeGreaterThanOrEqual(3);
    expect(existsSync(join(dir, 'at-spi'))).toBe(true);
    await display.stop();
    await expect.poll(() => processesNaming(dir), { timeout: 3_000 }).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  });

  test('animations and caret blinking are off, and a launch with animations: allow turns them on', async () => {
    const desktop = await getTestDesktop();
    expect(await xsettings(desktop)).toMatch(/Gtk\/EnableAnimations 0[\s\S]*Net\/CursorBlink 0/);
    const allowed = await desktop.launch({ launch: 'xterm -title anim-allow', window: 'anim-allow', animations: 'allow' });
    try {
      expect(await xsettings(desktop)).toMatch(/Gtk\/EnableAnimations 1[\s\S]*Net\/CursorBlink 1/);
    } finally {
      await allowed.close();
    }
    const off = await desktop.launch({ launch: 'xterm -title anim-off', window: 'anim-off' });
    try {
      expect(await xsettings(desktop)).toMatch(/Gtk\/EnableAnimations 0/);
    } finally {
      await off.close();
    }
  });

  test('without accessibility the display has a session bus but no accessibility bus, and no element source', async () => {
    const { acquireDisplay, createDesktop } = await import('../../src/desktop/index.ts');
    const display = await acquireDisplay({ reuseEnv: false, size: [320, 240], accessibility: false });
    try {
      expect(display.sessionBus).toBeUndefined();
      expect(display.env.DBUS_SESSION_BUS_ADDRESS).toMatch(/^unix:path=/);
      expect(display.env.NO_AT_BRIDGE).toBe('1');
      expect((await createDesktop(display)).elements).toBeUndefined();
    } finally {
      await display.stop();
    }
  });
});

describe('a private home per launch', () => {
  test('setup seeds the private config; the app sees it; close removes it; isolate: false keeps HOME', async () => {
    const desktop = await getTestDesktop();
    const app = await desktop.launch({
      setup: 'mkdir -p "$XDG_CONFIG_HOME/demo" && echo seeded > "$XDG_CONFIG_HOME/demo/value"',
      launch: 'xterm -title "home-$(cat "$XDG_CONFIG_HOME/demo/value")-$GSETTINGS_BACKEND"',
      window: 'home-seeded-memory',
    });
    const home = app.home as string;
    expect(home).toMatch(/retrace-home-/);
    expect(readFileSync(join(home, '.config', 'demo', 'value'), 'utf8')).toBe('seeded\n');
    expect(readFileSync(join(home, '.config', 'gtk-3.0', 'settings.ini'), 'utf8')).toContain('gtk-enable-animations=0');
    await app.close();
    expect(existsSync(home)).toBe(false);

    const cwd = mkdtempSync(join(tmpdir(), 'retrace-home-test-'));
    try {
      const shared = await desktop.launch({
        launch: 'echo "$HOME" > home.txt; exec xterm -title shared-home',
        window: 'shared-home',
        cwd,
        isolate: false,
      });
      await shared.close();
      expect(shared.home).toBeUndefined();
      expect(readFileSync(join(cwd, 'home.txt'), 'utf8').trim()).toBe(process.env.HOME ?? homedir());
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  test('mousepad twice: no "restore session?" dialog, and the real ~/.config is untouched', async () => {
    const desktop = await getTestDesktop();
    const real = join(process.env.HOME ?? homedir(), '.config', 'Mousepad');
    const before = snapshot(real);
    for (const round of [1, 2]) {
      const app = await desktop.launch({ launch: 'mousepad', window: '/Mousepad$/', size: [500, 320] });
      try {
        const windows = await app.windows();
        expect(
          windows.map((w) => w.title),
          `launch ${round}`,
        ).toEqual([(await app.window()).title]);
        expect((await app.window()).title).toMatch(/^Untitled 1 - Mousepad$/);
        await desktop.input.type(`round ${round}`);
      } finally {
        await app.close();
      }
    }
    expect(snapshot(real)).toBe(before);
  });
});

describe('closing an app as a desktop does', () => {
  test('a Tk app asked to close (WM_DELETE_WINDOW) ends by itself, running its own exit code', async () => {
    const desktop = await getTestDesktop();
    const cwd = mkdtempSync(join(tmpdir(), 'retrace-close-'));
    try {
      const script = "import tkinter as t; r = t.Tk(); r.title('tk-close'); r.mainloop(); open('closed', 'w').write('cleanly')";
      const app = await desktop.launch({ launch: `python3 -c "${script}"`, window: 'tk-close', cwd });
      await app.close();
      // Not SIGTERM (Python would die of it): the window's own close ended the main loop.
      expect(app.exitInfo()).toMatchObject({ code: 0, signal: null });
      expect(readFileSync(join(cwd, 'closed'), 'utf8')).toBe('cleanly');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  test('an app that ignores the request to close is sent SIGTERM, which its own handler answers', async () => {
    const desktop = await getTestDesktop();
    const cwd = mkdtempSync(join(tmpdir(), 'retrace-close-'));
    try {
      // Python runs a signal handler between bytecodes: the timer gives it some while Tk waits.
      const script =
        'import tkinter as t, signal, os; ' +
        "signal.signal(signal.SIGTERM, lambda *a: (open('closed', 'w').write('on SIGTERM'), os._exit(0))); " +
        "r = t.Tk(); r.title('tk-stubborn'); r.protocol('WM_DELETE_WINDOW', lambda: None); " +
        'tick = lambda: r.after(50, tick); tick(); r.mainloop()';
      const app = await desktop.launch({ launch: `python3 -c "${script}"`, window: 'tk-stubborn', cwd });
      await app.close();
      // Its own handler ran: SIGKILL, the last resort, would have left no file.
      expect(existsSync(join(cwd, 'closed')) && readFileSync(join(cwd, 'closed'), 'utf8')).toBe('on SIGTERM');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

/** An X server and nothing else, as `xvfb-run` or a CI service container gives one. */
const bareXvfb = async (): Promise<{ name: string; stop: () => void }> => {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '640x480x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const number = await new Promise<string>((resolve, reject) => {
    let text = '';
    (xvfb.stdio[3] as Readable).on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.endsWith('\n')) resolve(text.trim());
    });
    xvfb.once('exit', () => reject(new Error('Xvfb exited')));
  });
  return { name: `:${number}`, stop: () => xvfb.kill('SIGKILL') };
};

describe('a display retrace did not start', () => {
  test('the accessibility bus stays named on the root window while the services run, though the server resets when its last client leaves', async () => {
    // Qt 5 connects to the bus named there at once; without it, it registers its tree before it
    // has a connection, and never reaches the registry (speedcrunch under xvfb-run, 4 launches of 10).
    const x = await bareXvfb();
    const services = await startSessionServices({ display: x.name, env: {}, accessibility: true, settingsManager: false });
    try {
      const session = await openBus(services.sessionBus);
      const address = await accessibilityBusAddress(session).finally(() => session.close());
      const probe = await XConnection.open(x.name);
      try {
        expect((await probe.property(probe.root, 'AT_SPI_BUS')).value.toString('latin1')).toBe(address);
      } finally {
        probe.close();
      }
    } finally {
      await services.stop();
      x.stop();
    }
  });

  test('with no session bus, retrace starts one and an accessibility bus for its apps only, and nothing outlives the run', async () => {
    const x = await bareXvfb();
    const saved = {
      DISPLAY: process.env.DISPLAY,
      DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS,
      XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR,
    };
    const mark = `RETRACE_TEST_MARK=${process.pid}-${Date.now()}`;
    try {
      process.env.DISPLAY = x.name;
      delete process.env.DBUS_SESSION_BUS_ADDRESS;
      delete process.env.XDG_RUNTIME_DIR;
      const { acquireDisplay, createDesktop } = await import('../../src/desktop/index.ts');
      const display = await acquireDisplay();
      expect(display.owned).toBe(false);
      const dir = display.services?.dir ?? '';
      expect(dir).toMatch(/retrace-session-/);
      expect(display.env.DBUS_SESSION_BUS_ADDRESS).toBe(display.sessionBus);
      // No XSETTINGS manager: that would change the display for every app on it.
      await expect(run('dump_xsettings', [], { env: { ...process.env, DISPLAY: x.name } })).rejects.toThrow(/No current owner/);
      const desktop = await createDesktop(display);
      const app = await desktop.launch({
        launch: 'zenity --entry --title foreign-bus --text Name',
        window: 'foreign-bus',
        env: { RETRACE_TEST_MARK: mark.split('=')[1] as string },
      });
      try {
        await expect
          .poll(async () => (await desktop.elements?.find(app, { role: 'button', name: 'OK' }))?.length ?? 0, { timeout: 10_000 })
          .toBe(1);
        expect(processesWith('environ', mark).length).toBeGreaterThan(0);
      } finally {
        await app.close();
      }
      desktop.elements?.close();
      await display.stop();
      // Neither the services nor anything the app started (a bus of its own) is left.
      await expect.poll(() => [...processesNaming(dir), ...processesWith('environ', mark)], { timeout: 3_000 }).toEqual([]);
      expect(existsSync(dir)).toBe(false);
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      x.stop();
    }
  });
});
