import { describe, expect, test } from 'vitest';
import { bgraToRgba } from '../../src/desktop/index.ts';
import { getTestDesktop } from '../support/desktop.ts';

const pixel = (data: Uint8Array, width: number, x: number, y: number): number[] => {
  const i = (y * width + x) * 4;
  return [...data.subarray(i, i + 4)];
};

describe('bgraToRgba', () => {
  test('swaps red and blue, forces alpha, drops row padding', () => {
    // Two rows of two pixels, 12-byte stride (4 bytes of padding per row).
    const src = new Uint8Array([
      1, 2, 3, 0, 4, 5, 6, 9, 0xee, 0xee, 0xee, 0xee,
      7, 8, 9, 0, 10, 11, 12, 0, 0xee, 0xee, 0xee, 0xee,
    ]);
    expect([...bgraToRgba(src, 2, 2, 12, null)]).toEqual([
      3, 2, 1, 255, 6, 5, 4, 255, 9, 8, 7, 255, 12, 11, 10, 255,
    ]);
  });

  test('converts in place, also from an unaligned view', () => {
    const backing = new Uint8Array(9);
    const view = backing.subarray(1);
    view.set([10, 20, 30, 40, 50, 60, 70, 80]);
    expect([...bgraToRgba(view, 2, 1, 8, view)]).toEqual([30, 20, 10, 255, 70, 60, 50, 255]);
  });

  test('rejects a buffer too small, with numbers', () => {
    expect(() => bgraToRgba(new Uint8Array(15), 2, 2, 8, null)).toThrow(/needs 16 bytes. Got 15/);
  });
});

describe('NutScreenCapture', () => {
  test('grabs a real window in RGBA order', async () => {
    const desktop = await getTestDesktop();
    const app = await desktop.launch({
      launch: 'xterm -bg red -fg red -title capture-red -geometry 40x10+30+40',
      window: 'capture-red',
    });
    try {
      const { region } = await app.window();
      const frame = await desktop.capture.grab(region);
      expect(frame.width).toBe(region.width);
      expect(frame.height).toBe(region.height);
      expect(frame.data.length).toBe(region.width * region.height * 4);
      expect(frame.data.constructor).toBe(Uint8Array);
      // The content starts inside xterm's 1-pixel border: its first pixel is red already.
      expect(pixel(frame.data, frame.width, 0, 0)).toEqual([255, 0, 0, 255]);
      expect(pixel(frame.data, frame.width, frame.width - 1, frame.height - 1)).toEqual([255, 0, 0, 255]);

      const screen = await desktop.capture.grab();
      expect([screen.width, screen.height]).toEqual([desktop.display.width, desktop.display.height]);
      expect(pixel(screen.data, screen.width, region.x + 5, region.y + 5)).toEqual([255, 0, 0, 255]);
      // The root window of a bare Xvfb is black, and opaque in a frame.
      expect(pixel(screen.data, screen.width, screen.width - 1, screen.height - 1)).toEqual([0, 0, 0, 255]);
    } finally {
      await app.close();
    }
  });

  test('measures a full-screen grab', async () => {
    const desktop = await getTestDesktop();
    await desktop.capture.grab();
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      const start = performance.now();
      await desktop.capture.grab();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)] as number;
    console.log(
      `capture ${desktop.display.width}x${desktop.display.height}: median ${median.toFixed(1)} ms, ` +
        `min ${(times[0] as number).toFixed(1)} ms`,
    );
    expect(median).toBeGreaterThan(0);
  });

  test('rejects a region outside the screen instead of letting Xlib end the process', async () => {
    const desktop = await getTestDesktop();
    const { width } = desktop.display;
    await expect(desktop.capture.grab({ x: width - 5, y: 0, width: 10, height: 10 })).rejects.toThrow(
      RangeError,
    );
  });
});
