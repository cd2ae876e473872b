import { describe, expect, it } from 'vitest';
import { changedRegions, framesEqual, mergeRegions, pixelsUnlikeAll } from '../../src/vision/changes.ts';
import { cloneFrame, createFrame, fillRegion } from '../../src/vision/frame.ts';
import { BLACK, WHITE, loadImage, noiseFrame } from './helpers.ts';

describe('framesEqual', () => {
  it('tells equal from different frames, sizes included', () => {
    const a = noiseFrame(40, 30, 1);
    const b = cloneFrame(a);
    expect(framesEqual(a, b)).toBe(true);
    b.data[(10 * 40 + 20) * 4 + 1]! ^= 1;
    expect(framesEqual(a, b)).toBe(false);
    expect(framesEqual(a, createFrame(30, 40))).toBe(false);
  });

  it('ignores changes inside ignored regions only', () => {
    const a = createFrame(50, 50, WHITE);
    const b = cloneFrame(a);
    fillRegion(b, { x: 10, y: 10, width: 5, height: 5 }, BLACK);
    expect(framesEqual(a, b, [{ x: 8, y: 8, width: 10, height: 10 }])).toBe(true);
    expect(framesEqual(a, b, [{ x: 8, y: 8, width: 4, height: 10 }])).toBe(false);
    expect(
      framesEqual(a, b, [
        { x: 8, y: 8, width: 10, height: 5 },
        { x: 0, y: 13, width: 50, height: 2 },
      ]),
    ).toBe(true);
  });
});

describe('changedRegions', () => {
  it('returns nothing for equal frames and exact boxes for changes', () => {
    const a = createFrame(200, 100, WHITE);
    expect(changedRegions(a, cloneFrame(a))).toEqual([]);
    const b = cloneFrame(a);
    fillRegion(b, { x: 10, y: 20, width: 30, height: 5 }, BLACK);
    fillRegion(b, { x: 150, y: 60, width: 7, height: 9 }, BLACK);
    expect(changedRegions(a, b)).toEqual([
      { x: 10, y: 20, width: 30, height: 5, pixels: 150 },
      { x: 150, y: 60, width: 7, height: 9, pixels: 63 },
    ]);
  });

  it('merges changes within the gap and keeps farther ones apart', () => {
    const a = createFrame(200, 100, WHITE);
    const b = cloneFrame(a);
    fillRegion(b, { x: 10, y: 10, width: 4, height: 4 }, BLACK);
    fillRegion(b, { x: 21, y: 10, width: 4, height: 4 }, BLACK); // 7 px apart
    fillRegion(b, { x: 60, y: 10, width: 4, height: 4 }, BLACK); // 35 px apart
    expect(changedRegions(a, b).map(({ x, width }) => [x, width])).toEqual([
      [10, 15],
      [60, 4],
    ]);
    expect(changedRegions(a, b, { gap: 3 })).toHaveLength(3);
    expect(changedRegions(a, b, { gap: 40 })).toEqual([{ x: 10, y: 10, width: 54, height: 4, pixels: 48 }]);
  });

  it('applies a per-channel tolerance, ignored regions and a speckle filter', () => {
    const a = createFrame(100, 100, [100, 100, 100, 255]);
    const b = cloneFrame(a);
    fillRegion(b, { x: 0, y: 0, width: 50, height: 50 }, [104, 98, 100, 255]); // faint
    fillRegion(b, { x: 70, y: 70, width: 3, height: 3 }, BLACK);
    fillRegion(b, { x: 90, y: 10, width: 1, height: 1 }, BLACK);
    expect(changedRegions(a, b)).toHaveLength(3);
    expect(changedRegions(a, b, { tolerance: 4 })).toHaveLength(2);
    expect(changedRegions(a, b, { tolerance: 4, minPixels: 2 })).toEqual([{ x: 70, y: 70, width: 3, height: 3, pixels: 9 }]);
    expect(changedRegions(a, b, { tolerance: 4, ignore: [{ x: 60, y: 60, width: 40, height: 40 }] })).toEqual([
      { x: 90, y: 10, width: 1, height: 1, pixels: 1 },
    ]);
  });

  it('finds the display change between two real screenshots', () => {
    const regions = changedRegions(loadImage('galculator'), loadImage('galculator-84'));
    expect(regions).toHaveLength(1);
    const [r] = regions;
    // The digits sit at the right of the display field (x 5..326, y 30..86).
    expect(r!.x).toBeGreaterThan(250);
    expect(r!.x + r!.width).toBeLessThanOrEqual(326);
    expect(r!.y).toBeGreaterThanOrEqual(30);
    expect(r!.y + r!.height).toBeLessThanOrEqual(86);
  });

  it('covers both frames when the sizes differ', () => {
    expect(changedRegions(createFrame(10, 20), createFrame(15, 5))).toEqual([{ x: 0, y: 0, width: 15, height: 20, pixels: 300 }]);
  });

  it('merges boxes until none are within the gap', () => {
    const merged = mergeRegions(
      [
        { x: 0, y: 0, width: 5, height: 5 },
        { x: 20, y: 0, width: 5, height: 5 },
        { x: 10, y: 0, width: 5, height: 5 },
      ],
      5,
    );
    expect(merged).toEqual([{ x: 0, y: 0, width: 25, height: 5, pixels: 75 }]);
  });
});

describe('pixelsUnlikeAll', () => {
  it('counts the pixels of a region that differ from every other frame', () => {
    const entered = createFrame(20, 10, WHITE);
    const before = cloneFrame(entered);
    fillRegion(before, { x: 0, y: 0, width: 10, height: 10 }, BLACK); // hovered: the left half dark
    const after = cloneFrame(entered);
    fillRegion(after, { x: 0, y: 0, width: 4, height: 10 }, BLACK); // 40 pixels still dark
    const all = { x: 0, y: 0, width: 20, height: 10 };
    expect(pixelsUnlikeAll(after, [entered], all)).toBe(40);
    // Changed since `before` and not back as `entered` had them: none (the 40 did not change).
    expect(pixelsUnlikeAll(after, [before, entered], all)).toBe(0);
    fillRegion(after, { x: 15, y: 0, width: 2, height: 10 }, BLACK);
    expect(pixelsUnlikeAll(after, [before, entered], all)).toBe(20);
    expect(pixelsUnlikeAll(after, [before, entered], { x: 16, y: 5, width: 50, height: 50 })).toBe(5);
  });
});
