/**
 * The desktop's providers, each forced and driving a real window on a real display: every input
 * provider delivers the same clicks, wheel step, drag, combos and text to a recording terminal;
 * every capture provider sees the same pixels; both ways of reading the element tree read the
 * same tree. nut-js runs in a process of its own (fixtures/provider-child.ts): it binds the
 * process to one display and loads the native library input.test.ts shows XTEST does without.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { RGB565, rgb16ToRgba } from '../../src/desktop/bgra.ts';
import { createDesktop } from '../../src/desktop/index.ts';
import type { Element, ProviderChoice } from '../../src/desktop/types.ts';
import { getTestDesktop } from '../support/desktop.ts';
import { type DrivenInput, driveProbe, EXPECTED_INPUT } from './provider-drive.ts';

const CHILD = fileURLToPath(new URL('./fixtures/provider-child.ts', import.meta.url));

/** The child's one JSON line; its exit code is not read: Xlib complains on its way out when the display it used stops first. */
const runChild = (mode: string): Promise<Record<string, unknown>> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DISPLAY: '' },
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.once('exit', () => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line === undefined) reject(new Error(`provider-child ${mode} printed no result; stderr: ${err.slice(-2000)}`));
      else resolve(JSON.parse(line) as Record<string, unknown>);
    });
  });

describe('the chooser', () => {
  test('takes the own connection for capture and XTEST for input where the display has them, and says why', async () => {
    const { display } = await getTestDesktop();
    const desktop = await createDesktop(display);
    expect(desktop.providers).toEqual<ProviderChoice>({
      capture: { name: 'x-protocol', reason: 'own X connection, 32-bit BGRX pixels' },
      input: { name: 'xtest', reason: 'XTEST on the own X connection' },
      tree: { name: 'direct', reason: "each app's own connection where it offers one (GTK, Chromium), the bus for the rest" },
    });
  });
});

describe('input providers, forced, on a recording terminal', () => {
  test.each(['xtest', 'xdotool'] as const)('%s: clicks, a wheel step, a drag, key combos and text arrive exactly', async (input) => {
    const { display } = await getTestDesktop();
    const desktop = await createDesktop(display, { providers: { input } });
    expect(desktop.providers?.input).toEqual({ name: input, reason: 'forced' });
    expect(await driveProbe(desktop, `probe-${input}`)).toEqual(EXPECTED_INPUT);
  });

  test('nut-js: the same input arrives, and its capture of a window is the X protocol’s, pixel for pixel', async () => {
    const result = await runChild('nut-js');
    expect(result.providers).toEqual({
      capture: { name: 'nut-js', reason: 'forced' },
      input: { name: 'nut-js', reason: 'forced; keys through xdotool' },
    });
    expect(result.input as DrivenInput).toEqual(EXPECTED_INPUT);
    expect(result.width).toBeGreaterThan(100);
    expect(result.same).toBe(true);
  });
});

describe('capture providers', () => {
  test('reads 16-bit words through the 5-6-5 masks, each channel widened to 8 bits', () => {
    // Little-endian words: pure red, pure green, pure blue, white; then black at a 2-byte row padding.
    const words = [0xf800, 0x07e0, 0x001f, 0xffff];
    const src = new Uint8Array(words.flatMap((w) => [w & 0xff, w >> 8]));
    expect([...rgb16ToRgba(src, 2, 2, 4, RGB565)]).toEqual([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]);
    expect(() => rgb16ToRgba(src, 2, 2, 6, RGB565)).toThrow(/needs 10 bytes. Got 8/);
  });

  test('a display of depth 16 (not BGRX) is grabbed through nut-js, in its colours; forcing the X protocol there fails, saying why', async () => {
    const result = await runChild('depth-16');
    expect(result.providers).toMatchObject({
      capture: { name: 'nut-js', reason: '16-bit little-endian pixels of depth 16, not 32-bit BGRX → nut-js' },
      input: { name: 'xtest' },
    });
    const [width, height, windowWidth, windowHeight] = result.size as number[];
    expect([width, height]).toEqual([windowWidth, windowHeight]);
    // The background #123456 as 5-6-5 stores it (2/31, 13/63, 10/31), widened back to 8 bits.
    expect(result.background).toEqual([16, 53, 82, 255]);
    expect(result.foreground).toBe(true);
    expect(result.forcedX).toMatch(/^NO_DISPLAY: Capture through the X protocol was forced, but on X display \S+ 16-bit/);
  });
});

/** Sockets this process holds open (one closing meanwhile is not counted). */
const sockets = (): number =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:');
    } catch {
      return false;
    }
  }).length;

describe('tree providers, forced', () => {
  test('direct and bus read the same tree of a GTK dialog; only direct opens a connection to the app', async () => {
    const shared = await getTestDesktop();
    const app = await shared.launch({ launch: 'zenity --forms --title TreeWays --add-entry Name --add-entry City', window: 'TreeWays' });
    try {
      const read = async (tree: 'direct' | 'bus') => {
        const desktop = await createDesktop(shared.display, { providers: { tree } });
        const elements = desktop.elements;
        if (elements === undefined) throw new Error('the test display has no accessibility bus');
        const before = sockets();
        let all: readonly Element[] = [];
        await expect
          .poll(async () => (all = await elements.read(app)).length, { timeout: 10_000, interval: 100 })
          .toBeGreaterThanOrEqual(8);
        const opened = sockets() - before;
        elements.close();
        return { all: all.map((e) => [e.role, e.name, e.label, e.box]), opened };
      };
      const direct = await read('direct');
      const bus = await read('bus');
      expect(bus.all).toEqual(direct.all);
      // The accessibility bus, and for direct the dialog's own connection besides.
      expect([direct.opened, bus.opened]).toEqual([2, 1]);
    } finally {
      await app.close();
    }
  });
});
