import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, test } from 'vitest';
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

describe('acquireDisplay', () => {
  test('starts two owned displays at once, each answering on its own number', async () => {
    const [a, b] = await Promise.all([own(), own()]);
    expect(a.name).toMatch(/^:\d+$/);
    expect(b.name).not.toBe(a.name);
    expect(await probeDisplay(a.name)).toEqual({ width: 640, height: 480 });
    expect(await probeDisplay(b.name)).toEqual({ width: 640, height: 480 });
    expect(a.owned).toBe(true);
    expect(a.env).toMatchObject({ DISPLAY: a.name, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TZ: 'UTC' });
    // Its own session bus, and the switches that make Chromium and Qt publish their widgets.
    expect(a.env.DBUS_SESSION_BUS_ADDRESS).toBe(a.sessionBus);
    expect(a.env).toMatchObject({ ACCESSIBILITY_ENABLED: '1', QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1' });
    expect(a.sessionBus).not.toBe(b.sessionBus);
    expect(() => a.assertAlive()).not.toThrow();

    await a.stop();
    expect(await probeDisplay(a.name)).toBeUndefined();
    expect(await probeDisplay(b.name)).toBeDefined();
    await a.stop(); // idempotent
  });

  test('pins the keyboard layout to us', async () => {
    const display = await own();
    const { stdout } = await run('setxkbmap', ['-display', display.name, '-query']);
    expect(stdout).toMatch(/^layout:\s+us$/m);
  });

  test('reuses $DISPLAY when it answers, and reports one that does not', async () => {
    const owned = await own();
    const saved = process.env.DISPLAY;
    try {
      process.env.DISPLAY = owned.name;
      // With the user's session bus, its apps use it, and publish their widgets; nothing is started.
      const savedBus = process.env.DBUS_SESSION_BUS_ADDRESS;
      process.env.DBUS_SESSION_BUS_ADDRESS = owned.sessionBus;
      const withBus = await acquireDisplay().finally(() => {
        if (savedBus === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
        else process.env.DBUS_SESSION_BUS_ADDRESS = savedBus;
      });
      expect(withBus).toMatchObject({ name: owned.name, owned: false, width: 640, height: 480 });
      expect(withBus).toMatchObject({ sessionBus: owned.sessionBus, env: { DBUS_SESSION_BUS_ADDRESS: owned.sessionBus, ACCESSIBILITY_ENABLED: '1' } });
      expect(withBus.services).toBeUndefined();
      await withBus.stop(); // a no-op: not ours
      expect(await probeDisplay(owned.name)).toBeDefined();

      process.env.DISPLAY = ':4711';
      const error = await acquireDisplay().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InfrastructureError);
      expect(error).toMatchObject({ code: 'NO_DISPLAY' });
      expect((error as Error).message).toContain(':4711');
    } finally {
      if (saved === undefined) delete process.env.DISPLAY;
      else process.env.DISPLAY = saved;
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
    const saved = process.env.DISPLAY;
    process.env.DISPLAY = owned.name;
    const reused = await acquireDisplay().finally(() => {
      if (saved === undefined) delete process.env.DISPLAY;
      else process.env.DISPLAY = saved;
    });
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
