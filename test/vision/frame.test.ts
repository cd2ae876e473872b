import { describe, expect, it } from 'vitest';
import {
  assertFrame,
  clampRegion,
  createFrame,
  crop,
  decodePng,
  encodePng,
  fillRegion,
  intersectRegions,
  maskRegions,
  paste,
  pixelWords,
  regionGap,
  regionsIntersect,
  scale,
  toGray,
  unionRegions,
} from '../../src/vision/frame.ts';
import { BLACK, WHITE, drawn, loadImage, noiseFrame, pixel } from './helpers.ts';

describe('regions', () => {
  it('clamps to a frame or to a width and height', () => {
    expect(clampRegion({ x: -5, y: 10, width: 20, height: 100 }, { width: 50, height: 40 })).toEqual({
      x: 0,
      y: 10,
      width: 15,
      height: 30,
    });
    expect(clampRegion({ x: 45, y: 0, width: 20, height: 5 }, 50, 40)).toEqual({ x: 45, y: 0, width: 5, height: 5 });
    expect(clampRegion({ x: 60, y: 0, width: 20, height: 5 }, 50, 40)).toEqual({ x: 50, y: 0, width: 0, height: 5 });
    expect(clampRegion({ x: 1.5, y: 1.5, width: 2, height: 2 }, 50, 40)).toEqual({ x: 1, y: 1, width: 3, height: 3 });
  });

  it('intersects, unites and measures gaps', () => {
    const a = { x: 0, y: 0, width: 10, height: 10 };
    const b = { x: 5, y: 5, width: 10, height: 10 };
    const c = { x: 10, y: 0, width: 5, height: 5 };
    expect(regionsIntersect(a, b)).toBe(true);
    expect(regionsIntersect(a, c)).toBe(false); // touching edges share no pixel
    expect(intersectRegions(a, b)).toEqual({ x: 5, y: 5, width: 5, height: 5 });
    expect(intersectRegions(a, c)).toBeNull();
    expect(unionRegions(a, b)).toEqual({ x: 0, y: 0, width: 15, height: 15 });
    expect(regionGap(a, { x: 18, y: 2, width: 3, height: 3 })).toBe(8);
    expect(regionGap(a, b)).toBe(0);
  });
});

describe('pixels', () => {
  it('creates, fills, crops and pastes with clipping', () => {
    const f = createFrame(6, 4, WHITE);
    expect(pixel(f, 5, 3)).toEqual([255, 255, 255, 255]);
    fillRegion(f, { x: 4, y: 2, width: 10, height: 10 }, BLACK);
    expect(pixel(f, 3, 2)).toEqual(WHITE);
    expect(pixel(f, 5, 3)).toEqual(BLACK);
    const part = crop(f, { x: 3, y: 1, width: 10, height: 10 });
    expect([part.width, part.height]).toEqual([3, 3]);
    expect(pixel(part, 1, 1)).toEqual(BLACK);
    expect(pixel(part, 0, 0)).toEqual(WHITE);
    const empty = crop(f, { x: 10, y: 10, width: 3, height: 3 });
    expect([empty.width, empty.height, empty.data.length]).toEqual([0, 0, 0]);

    const dst = createFrame(4, 4, WHITE);
    paste(dst, createFrame(3, 3, BLACK), { x: -1, y: 2 });
    expect(pixel(dst, 0, 2)).toEqual(BLACK);
    expect(pixel(dst, 1, 3)).toEqual(BLACK);
    expect(pixel(dst, 2, 2)).toEqual(WHITE);
    expect(pixel(dst, 0, 1)).toEqual(WHITE);
  });

  it('masks a copy and leaves the original alone', () => {
    const f = createFrame(4, 4, WHITE);
    const m = maskRegions(f, [{ x: 1, y: 1, width: 1, height: 1 }]);
    expect(pixel(m, 1, 1)).toEqual([255, 0, 255, 255]);
    expect(pixel(f, 1, 1)).toEqual(WHITE);
  });

  it('converts to luma', () => {
    const f = drawn(
      3,
      1,
      [255, 0, 0, 255],
      [
        [{ x: 1, y: 0, width: 1, height: 1 }, [0, 255, 0, 255]],
        [{ x: 2, y: 0, width: 1, height: 1 }, WHITE],
      ],
    );
    expect(Array.from(toGray(f).data)).toEqual([77, 149, 255]);
  });

  it('scales by nearest neighbour and bilinearly', () => {
    const f = drawn(2, 1, WHITE, [[{ x: 1, y: 0, width: 1, height: 1 }, BLACK]]);
    const up = scale(f, 4, 2, { method: 'nearest' });
    expect([up.width, up.height]).toEqual([4, 2]);
    expect([0, 1, 2, 3].map((x) => pixel(up, x, 1)[0])).toEqual([255, 255, 0, 0]);
    const smooth = scale(f, 4, 1);
    const row = [0, 1, 2, 3].map((x) => pixel(smooth, x, 0)[0]!);
    expect(row[0]).toBe(255);
    expect(row[3]).toBe(0);
    expect(row[1]).toBeGreaterThan(row[2]!);
    expect(row[1]).toBeLessThan(255);
    const flat = scale(createFrame(10, 10, [90, 90, 90, 255]), 3, 7);
    expect(new Set(flat.data).size).toBe(2); // 90 and 255
  });

  it('round-trips PNG and reads real files', () => {
    const f = noiseFrame(17, 9, 3);
    const back = decodePng(encodePng(f));
    expect([back.width, back.height]).toEqual([17, 9]);
    expect(Buffer.from(back.data).equals(Buffer.from(f.data))).toBe(true);
    const real = loadImage('galculator');
    expect([real.width, real.height]).toEqual([331, 343]);
    expect(real.data.byteOffset % 4).toBe(0);
  });

  it('views pixels as words even when the bytes are not 4-aligned', () => {
    const backing = new Uint8Array(4 * 4 + 1);
    const f = { width: 2, height: 2, data: backing.subarray(1) };
    f.data.set([1, 2, 3, 4]);
    expect(pixelWords(f)[0]).toBe(new Uint32Array(new Uint8Array([1, 2, 3, 4]).buffer)[0]);
  });

  it('rejects a frame whose data does not fit its size, with numbers', () => {
    expect(() => assertFrame({ width: 10, height: 10, data: new Uint8Array(396) })).toThrow(/Expecting 400\. Got 396/);
  });
});
