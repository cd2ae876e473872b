import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, test } from 'vitest';
import { withProcessEnv } from '../support/process-env.ts';
import { acquireDisplay, probeDisplay } from '../../src/desktop/index.ts';
import type { Display } from '../../src/desktop/types.ts';
import { InfrastructureError } from '../../src/errors.ts';

const run = promisify(execFile);
const started: Display[] = [];
const own = async (): Promise<Display> => {
  const display = await acquireDisplay({ reuseEnv: false, size: [640, 480] });
  started.push(display);
  return display;
};

afterEach(async () => {
  await Promise.all(started.splice(0).map((d) => d.stop()));
});

/** `xdotool getmouselocation` on `display`: its exit code and stderr. */
const xdotool = (
  display: string,
  env: Record<string, string>,
  prefix: readonly string[] = [],
): Promise<{ code: number; stderr: string }> => {
  const [command, ...args] = [...prefix, 'xdotool', 'getmouselocation'];
  return run(command!, args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', DISPLAY: display, ...env } }).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code?: number; stderr?: string }) => ({ code: error.code ?? -1, stderr: error.stderr ?? '' }),
  );
};

describe('acquireDisplay', () => {
  test('starts two owned displays at once, each answering on its own number', async () => {
    const [a, b] = await Promise.all([own(), own()]);
    expect(a.name).toMatch(/^:\d+$/);
    expect(b.name).not.toBe(a.name);
    expect(await probeDisplay(a.name, a.env)).toEqual({ width: 640, height: 480 });
    expect(await probeDisplay(b.name, b.env)).toEqual({ width: 640, height: 480 });
    expect(a.owned).toBe(true);
    expect(a.env).toMatchObject({ DISPLAY: a.name, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TZ: 'UTC' });
    // Its own session bus, and the switches that make Chromium and Qt publish their widgets.
    expect(a.env.DBUS_SESSION_BUS_ADDRESS).toBe(a.sessionBus);
    expect(a.env).toMatchObject({ ACCESSIBILITY_ENABLED: '1', QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1' });
    expect(a.sessionBus).not.toBe(b.sessionBus);
    expect(() => a.assertAlive()).not.toThrow();

    await a.stop();
    expect(await probeDisplay(a.name, a.env)).toBeUndefined();
    expect(await probeDisplay(b.name, b.env)).toBeDefined();
    await a.stop(); // idempotent
  });

  test('lets in only the holder of its cookie: a private file, 0600 in a 0700 folder, removed at stop', async () => {
    const display = await own();
    const file = display.env.XAUTHORITY!;
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    expect(await xdotool(display.name, { XAUTHORITY: file })).toEqual({ code: 0, stderr: '' });
    // The same user without the cookie, and another user (who cannot read it), are refused.
    const without = await xdotool(display.name, { XAUTHORITY: '/nonexistent' });
    expect(without.code).not.toBe(0);
    expect(without.stderr).toMatch(/Authorization required|Can't open display/);
    const nobody = await xdotool(display.name, { XAUTHORITY: file }, ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups']);
    expect(nobody.code).not.toBe(0);
    expect(nobody.stderr).toMatch(/Authorization required|Can't open display/);
    await display.stop();
    expect(existsSync(dirname(file))).toBe(false);
  });

  test('pins the keyboard layout to us', async () => {
    const display = await own();
    const { stdout } = await run('setxkbmap', ['-display', display.name, '-query'], { env: { ...process.env, ...display.env } });
    expect(stdout).toMatch(/^layout:\s+us$/m);
  });

  test('reuses $DISPLAY when it answers, and reports one that does not', async () => {
    const owned = await own();
    const saved = process.env.DISPLAY;
    const savedCookie = process.env.XAUTHORITY;
    try {
      process.env.DISPLAY = owned.name;
      process.env.XAUTHORITY = owned.env.XAUTHORITY;
      // With the user's session bus, its apps use it, and publish their widgets; nothing is started.
      const savedBus = process.env.DBUS_SESSION_BUS_ADDRESS;
      process.env.DBUS_SESSION_BUS_ADDRESS = owned.sessionBus;
      const withBus = await acquireDisplay().finally(() => {
        if (savedBus === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
        else process.env.DBUS_SESSION_BUS_ADDRESS = savedBus;
      });
      expect(withBus).toMatchObject({ name: owned.name, owned: false, width: 640, height: 480 });
      expect(withBus).toMatchObject({
        sessionBus: owned.sessionBus,
        env: { DBUS_SESSION_BUS_ADDRESS: owned.sessionBus, ACCESSIBILITY_ENABLED: '1' },
      });
      expect(withBus.services).toBeUndefined();
      await withBus.stop(); // a no-op: not ours
      expect(await probeDisplay(owned.name, owned.env)).toBeDefined();

      process.env.DISPLAY = ':4711';
      const error = await acquireDisplay().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InfrastructureError);
      expect(error).toMatchObject({ code: 'NO_DISPLAY' });
      expect((error as Error).message).toContain(':4711');
    } finally {
      if (saved === undefined) delete process.env.DISPLAY;
      else process.env.DISPLAY = saved;
      if (savedCookie === undefined) delete process.env.XAUTHORITY;
      else process.env.XAUTHORITY = savedCookie;
    }
  });

  test('reports an owned display that dies', async () => {
    const display = await own();
    let died = false;
    void display.died.then(() => (died = true));
    process.kill(display.pid as number, 'SIGKILL');
    await display.died;
    expect(died).toBe(true);
    expect(() => display.assertAlive()).toThrow(InfrastructureError);
    try {
      display.assertAlive();
    } catch (error) {
      expect(error).toMatchObject({ code: 'DISPLAY_DIED' });
      expect((error as Error).message).toMatch(new RegExp(`The X server ${display.name} died`));
    }
  });

  test('notices a reused display going away', async () => {
    const owned = await own();
    const reused = await withProcessEnv({ DISPLAY: owned.name, XAUTHORITY: owned.env.XAUTHORITY }, () => acquireDisplay());
    await owned.stop();
    await reused.died;
    expect(() => reused.assertAlive()).toThrow(/stopped answering/);
  });

  test('a stopped display does not count as died', async () => {
    const display = await own();
    let died = false;
    void display.died.then(() => (died = true));
    await display.stop();
    await new Promise((r) => setTimeout(r, 20));
    expect(died).toBe(false);
  });
});
