import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { parseTitlePattern } from '../../src/desktop/index.ts';
import { appProcesses as processTree } from '../../src/desktop/process-tree.ts';
import type { AppSession } from '../../src/desktop/types.ts';
import { InfrastructureError, InvalidInputError } from '../../src/errors.ts';
import { getTestDesktop } from '../support/desktop.ts';

const run = promisify(execFile);
const tempDir = (): string => mkdtempSync(join(tmpdir(), 'retrace-app-'));

const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) Z /.test(stat);
  } catch {
    return false;
  }
};

const rejection = async (promise: Promise<unknown>): Promise<InfrastructureError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InfrastructureError);
  return error as InfrastructureError;
};

describe('parseTitlePattern', () => {
  test('a substring, a /regex/flags, and a path that is not a regex', () => {
    expect(parseTitlePattern('Calc').test('My Calculator')).toBe(true);
    expect(parseTitlePattern('/^calc/i').test('Calculator')).toBe(true);
    expect(parseTitlePattern('/^calc/').test('Calculator')).toBe(false);
    expect(parseTitlePattern('/tmp/a.txt - Mousepad').test('/tmp/a.txt - Mousepad')).toBe(true);
    expect(() => parseTitlePattern('/(unclosed/')).toThrow(InvalidInputError);
  });
});

describe('launchApp', () => {
  test('runs setup, passes cwd and env, finds the window by regex, sizes and focuses it', async () => {
    const desktop = await getTestDesktop();
    const dir = tempDir();
    const app = await desktop.launch({
      setup: 'echo from-setup > title.txt',
      launch: 'xterm -title "$(cat title.txt)-$GREETING-$TZ-$LANG"',
      window: '/^from-setup-hello-UTC-C\\.UTF-8$/',
      cwd: dir,
      env: { GREETING: 'hello' },
      size: [500, 320],
    });
    try {
      const main = await app.window();
      expect(main.title).toBe('from-setup-hello-UTC-C.UTF-8');
      expect(main.region).toMatchObject({ width: 500, height: 320 });
      expect((await desktop.windows.focused())?.id).toBe(main.id);
      expect((await app.windows()).map((w) => w.id)).toEqual([main.id]);
      expect(app.exitInfo()).toBeUndefined();

      // The title found the window; a new title later does not lose it.
      await run('xdotool', ['set_window', '--name', 'renamed', String(main.id)], {
        env: { ...process.env, ...desktop.display.env },
      });
      expect(await app.window()).toMatchObject({ id: main.id, title: 'renamed' });
    } finally {
      await app.close();
    }
  });

  test('a window larger than the screen is resized to fit, one partly off it is moved onto it, each said in one line', async () => {
    const desktop = await getTestDesktop();
    const { width, height } = desktop.display;
    const said: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => (said.push(String(chunk)), true)) as typeof process.stderr.write;
    const tk = (title: string, geometry: string) =>
      `python3 -c "import tkinter as t; r = t.Tk(); r.title('${title}'); r.geometry('${geometry}'); r.mainloop()"`;
    try {
      const big = await desktop.launch({ launch: tk('too-big', `${width + 120}x${height + 100}+0+0`), window: 'too-big' });
      try {
        expect((await big.window()).region).toEqual({ x: 0, y: 0, width, height });
        // The whole window can be captured: no "Capture region" error.
        expect((await desktop.capture.grab((await big.window()).region)).width).toBe(width);
      } finally {
        await big.close();
      }
      const off = await desktop.launch({ launch: tk('off-screen', `300x200+${width - 100}+${height - 50}`), window: 'off-screen' });
      try {
        expect((await off.window()).region).toEqual({ x: width - 300, y: height - 200, width: 300, height: 200 });
      } finally {
        await off.close();
      }
    } finally {
      process.stderr.write = write;
    }
    expect(said.filter((line) => line.startsWith('retrace: the window'))).toEqual([
      `retrace: the window "too-big" was ${width + 120}x${height + 100}, larger than the ${width}x${height} screen: resized to ${width}x${height}\n`,
      `retrace: the window "off-screen" reached past the ${width}x${height} screen: moved onto it\n`,
    ]);
  });

  test('a window that grows past the screen after the start is fitted again when next asked for', async () => {
    const desktop = await getTestDesktop();
    const { width, height } = desktop.display;
    // Shown small, then grown by the app itself (as gtk3-widget-factory does once its pages are built).
    const grows = `python3 -c "import tkinter as t; r = t.Tk(); r.title('grows'); r.geometry('300x200+0+0'); r.after(300, lambda: r.geometry('${width + 86}x${height - 59}+0+0')); r.mainloop()"`;
    const app = await desktop.launch({ launch: grows, window: 'grows' });
    try {
      await expect.poll(async () => (await app.window()).region.width, { timeout: 10_000 }).not.toBe(300);
      expect((await app.window()).region).toEqual({ x: 0, y: 0, width, height: height - 59 });
    } finally {
      await app.close();
    }
  });

  test('a window that never appears times out, naming the pattern and the windows seen', async () => {
    const desktop = await getTestDesktop();
    const start = Date.now();
    const error = await rejection(
      desktop.launch({ launch: 'xterm -title some-other-window', window: 'never-there', windowTimeoutMs: 1_500 }),
    );
    expect(error.code).toBe('WINDOW_TIMEOUT');
    expect(error.message).toContain('"never-there"');
    expect(error.message).toContain('"some-other-window"');
    expect(Date.now() - start).toBeLessThan(5_000);
    // The launch failed, so nothing of it may be left on screen.
    const titles = (await desktop.windows.list()).map((w) => w.title);
    expect(titles).not.toContain('some-other-window');
  });

  test('an app that exits at once fails fast with its exit code and stderr', async () => {
    const desktop = await getTestDesktop();
    const start = Date.now();
    const error = await rejection(desktop.launch({ launch: "sh -c 'echo boom >&2; exit 7'", window: 'whatever' }));
    expect(Date.now() - start).toBeLessThan(2_000);
    expect(error.code).toBe('APP_START');
    expect(error.message).toContain('exit code 7');
    expect(error.message).toContain('boom');
  });

  test('a failing setup stops the launch', async () => {
    const desktop = await getTestDesktop();
    const error = await rejection(desktop.launch({ setup: 'echo no-db >&2; exit 3', launch: 'xterm', window: 'x' }));
    expect(error.code).toBe('APP_START');
    expect(error.message).toMatch(/setup command failed \(exit code 3\)/);
    expect(error.message).toContain('no-db');
  });

  test('a crash while running resolves exited with the code', async () => {
    const desktop = await getTestDesktop();
    const dir = tempDir();
    const app = await desktop.launch({
      launch: 'xterm -title crash-test & until [ -e crash ]; do sleep 0.01; done; echo dying >&2; exit 42',
      window: 'crash-test',
      cwd: dir,
    });
    try {
      writeFileSync(join(dir, 'crash'), '');
      const exit = await app.exited;
      expect(exit).toMatchObject({ code: 42, signal: null });
      expect(exit.stderrTail).toContain('dying');
      expect(app.exitInfo()).toEqual(exit);
    } finally {
      await app.close();
    }
  });

  test('close() ends the whole process tree, runs teardown, and is idempotent', async () => {
    const desktop = await getTestDesktop();
    const dir = tempDir();
    let app: AppSession | undefined;
    try {
      app = await desktop.launch({
        // Two windows from two child processes of a shell that ignores SIGTERM.
        launch: "trap '' TERM; xterm -title tree-main & xterm -title tree-dialog & wait",
        window: 'tree-main',
        cwd: dir,
        teardown: 'echo done > torn-down',
      });
      const deadline = Date.now() + 5_000;
      let windows = await app.windows();
      while (windows.length < 2 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        windows = await app.windows();
      }
      expect(windows.map((w) => w.title).sort()).toEqual(['tree-dialog', 'tree-main']);
      const pids = [app.pid, ...windows.map((w) => w.pid as number)];
      expect(pids.every(alive)).toBe(true);

      await Promise.all([app.close(), app.close()]);
      await app.close();
      expect(pids.filter(alive)).toEqual([]);
      expect(existsSync(join(dir, 'torn-down'))).toBe(true);
      expect(app.exitInfo()).toBeDefined();
      await expect(app.window()).rejects.toMatchObject({ code: 'APP_EXITED' });
    } finally {
      await app?.close();
    }
  });

  test('a multi-process browser app: its window, typing into it, and no process left after close', async () => {
    const desktop = await getTestDesktop();
    const dir = tempDir();
    writeFileSync(
      join(dir, 'page.html'),
      // The field says when it has the focus: keys sent before that (the page still loading, the
      // window not yet focused) go nowhere, on a busy machine for seconds.
      '<title>Browser Probe</title><input autofocus onfocus="document.title = \'Browser Probe: ready\'" ' +
        'oninput="document.title = \'typed:\' + this.value">',
    );
    const app = await desktop.launch({
      launch: `chromium --no-sandbox --disable-gpu --no-first-run --user-data-dir=${dir}/profile ` + `--app=file://${dir}/page.html`,
      window: 'Browser Probe',
      size: [640, 400],
      windowTimeoutMs: 30_000,
    });
    try {
      const tree = [...(await processTree(app.pid))];
      expect(tree.length).toBeGreaterThan(1); // zygote, renderer, utility processes
      expect((await app.windows()).map((w) => w.pid)).toEqual([app.pid]);
      const titled = async (title: string, ms: number): Promise<string> => {
        const deadline = Date.now() + ms;
        let now = (await app.window()).title;
        while (now !== title && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 20));
          now = (await app.window()).title;
        }
        return now;
      };
      expect(await titled('Browser Probe: ready', 30_000)).toBe('Browser Probe: ready');
      await desktop.input.type('a!B');
      expect(await titled('typed:a!B', 5_000)).toBe('typed:a!B');
      await app.close();
      expect(tree.filter(alive)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
