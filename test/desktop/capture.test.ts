import { describe, expect, test } from 'vitest';
import { bgraToRgba } from '../../src/desktop/bgra.ts';
import { nutFor } from '../../src/desktop/nut.ts';
import type { Frame } from '../../src/domain.ts';
import { getTestDesktop } from '../support/desktop.ts';

const pixel = (data: Uint8Array, width: number, x: number, y: number): number[] => {
  const i = (y * width + x) * 4;
  return [...data.subarray(i, i + 4)];
};

describe('bgraToRgba', () => {
  test('swaps red and blue, forces alpha, drops row padding', () => {
    // Two rows of two pixels, 12-byte stride (4 bytes of padding per row).
    const src = new Uint8Array([1, 2, 3, 0, 4, 5, 6, 9, 0xee, 0xee, 0xee, 0xee, 7, 8, 9, 0, 10, 11, 12, 0, 0xee, 0xee, 0xee, 0xee]);
    expect([...bgraToRgba(src, 2, 2, 12, null)]).toEqual([3, 2, 1, 255, 6, 5, 4, 255, 9, 8, 7, 255, 12, 11, 10, 255]);
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

describe('XScreenCapture', () => {
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

  test('its own GetImage sees the pixels that libnut (XGetImage) sees', async () => {
    const desktop = await getTestDesktop();
    const app = await desktop.launch({
      launch: 'xterm -bg "#123456" -fg "#fedcba" -title capture-same -geometry 30x6+50+60 -e sh -c "echo Grab me; sleep 60"',
      window: 'capture-same',
    });
    try {
      const { region } = await app.window();
      // Text in the foreground colour: the comparison has something to compare.
      const drawn = (frame: Frame): boolean => frame.data.some((v, i) => i % 4 === 0 && v === 0xfe);
      let own = await desktop.capture.grab(region);
      for (const deadline = Date.now() + 5_000; !drawn(own) && Date.now() < deadline; ) own = await desktop.capture.grab(region);
      expect(drawn(own)).toBe(true);
      const { screen, Region } = await nutFor(desktop.display);
      const image = await screen.grabRegion(new Region(region.x, region.y, region.width, region.height));
      const theirs = bgraToRgba(new Uint8Array(image.data), image.width, image.height, image.byteWidth, null);
      expect([own.width, own.height]).toEqual([image.width, image.height]);
      expect(Buffer.from(own.data).equals(Buffer.from(theirs))).toBe(true);
    } finally {
      await app.close();
    }
  });

  test('rejects a region outside the screen instead of letting Xlib end the process', async () => {
    const desktop = await getTestDesktop();
    const { width } = desktop.display;
    await expect(desktop.capture.grab({ x: width - 5, y: 0, width: 10, height: 10 })).rejects.toThrow(RangeError);
  });
});
