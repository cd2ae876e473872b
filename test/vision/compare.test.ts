import pixelmatch from 'pixelmatch';
import { describe, expect, it } from 'vitest';
import { allowedDiffPixels, compareFrames } from '../../src/vision/compare.ts';
import { cloneFrame, createFrame, crop } from '../../src/vision/frame.ts';
import type { Frame } from '../../src/domain.ts';
import { BLACK, WHITE, loadImage, noiseFrame, pixel, random } from './helpers.ts';

/** A 100 × 100 white frame and a copy with exactly `n` isolated black pixels. */
function withChanges(n: number): { expected: Frame; actual: Frame; spots: { x: number; y: number }[] } {
  const expected = createFrame(100, 100, WHITE);
  const actual = cloneFrame(expected);
  const spots: { x: number; y: number }[] = [];
  for (let i = 0; i < n; i++) {
    const x = 5 + (i % 10) * 9;
    const y = 5 + Math.floor(i / 10) * 9;
    spots.push({ x, y });
    actual.data.set(BLACK, (y * 100 + x) * 4);
  }
  return { expected, actual, spots };
}

describe('compareFrames', () => {
  it('passes identical frames', () => {
    const f = noiseFrame(64, 48, 1);
    const r = compareFrames(f, cloneFrame(f), null);
    expect(r).toMatchObject({ ok: true, diffPixels: 0, diffRatio: 0 });
    expect(r.message).toBe('Images match: 0 pixels are different.');
  });

  it('counts exactly the changed pixels and applies maxDiffPixels', () => {
    const { expected, actual } = withChanges(37);
    const strict = compareFrames(expected, actual, null);
    expect(strict.diffPixels).toBe(37);
    expect(strict.ok).toBe(false);
    expect(strict.message).toBe('37 pixels (ratio 0.0037 of all image pixels) are different.');
    expect(compareFrames(expected, actual, null, { maxDiffPixels: 36 }).ok).toBe(false);
    const tolerant = compareFrames(expected, actual, null, { maxDiffPixels: 37 });
    expect(tolerant.ok).toBe(true);
    expect(tolerant.diffPixels).toBe(37);
    expect(tolerant.message).toMatch(/37 pixels .* within the tolerance of 37 pixels/);
  });

  it('applies maxDiffPixelRatio of all pixels, and the stricter of two tolerances', () => {
    const { expected, actual } = withChanges(37);
    const r = compareFrames(expected, actual, null, { maxDiffPixelRatio: 0.0036 });
    expect(r.ok).toBe(false);
    expect(r.diffRatio).toBeCloseTo(0.0037, 10);
    expect(compareFrames(expected, actual, null, { maxDiffPixelRatio: 0.004 }).ok).toBe(true);
    expect(compareFrames(expected, actual, null, { maxDiffPixelRatio: 0.004, maxDiffPixels: 10 }).ok).toBe(false);
    expect(allowedDiffPixels(10_000, { maxDiffPixels: 50, maxDiffPixelRatio: 0.001 })).toBe(10);
    expect(allowedDiffPixels(10_000, {})).toBe(0);
  });

  it('hides masked pixels, painting the mask into both images', () => {
    const { expected, actual } = withChanges(37);
    // The first row of spots (10 of them) lies at y = 5.
    const partly = compareFrames(expected, actual, null, { mask: [{ x: 0, y: 0, width: 100, height: 8 }] });
    expect(partly.diffPixels).toBe(27);
    const all = compareFrames(expected, actual, null, { mask: [{ x: 0, y: 0, width: 100, height: 50 }] });
    expect(all).toMatchObject({ ok: true, diffPixels: 0 });
    expect(pixel(actual, 5, 5)).toEqual(BLACK); // the inputs are not touched
  });

  it('uses the per-pixel threshold (default 0.05)', () => {
    const expected = createFrame(10, 10, [128, 128, 128, 255]);
    const actual = createFrame(10, 10, [135, 135, 135, 255]);
    expect(compareFrames(expected, actual, null).diffPixels).toBe(0);
    // A pale green panel repainted pale pink is a regression: Playwright's 0.2 would pass it.
    const green = createFrame(10, 10, [0xdf, 0xe7, 0xd4, 255]);
    const pink = createFrame(10, 10, [0xf2, 0xc9, 0xc9, 255]);
    expect(compareFrames(green, pink, null).diffPixels).toBe(100);
    expect(compareFrames(green, pink, null, { threshold: 0.2 }).diffPixels).toBe(0);
    expect(compareFrames(expected, actual, null, { threshold: 0.01 }).diffPixels).toBe(100);
    expect(() => compareFrames(expected, actual, null, { threshold: 2 })).toThrow(RangeError);
  });

  it('draws the diff image on failure: changed pixels red, the rest faded', () => {
    const { expected, actual, spots } = withChanges(3);
    const diff = createFrame(100, 100);
    const r = compareFrames(expected, actual, diff);
    expect(r.diff).toBe(diff);
    expect(pixel(diff, spots[0]!.x, spots[0]!.y)).toEqual([255, 0, 0, 255]);
    expect(pixel(diff, 50, 99)).toEqual([255, 255, 255, 255]);
    // A passing comparison draws nothing by default, or everything with diffImage: 'always'.
    const untouched = createFrame(100, 100);
    expect(compareFrames(expected, cloneFrame(expected), untouched).diff).toBeUndefined();
    expect(pixel(untouched, 0, 0)).toEqual([0, 0, 0, 0]);
    expect(compareFrames(expected, cloneFrame(expected), untouched, { diffImage: 'always' }).diff).toBe(untouched);
    expect(pixel(untouched, 0, 0)).toEqual([255, 255, 255, 255]);
  });

  it('reports a size mismatch with numbers and a diff of the union canvas', () => {
    const expected = createFrame(10, 10, WHITE);
    const actual = createFrame(12, 10, WHITE);
    const r = compareFrames(expected, actual, createFrame(10, 10));
    expect(r.ok).toBe(false);
    expect(r.sizeMismatch).toEqual({ expected: { width: 10, height: 10 }, actual: { width: 12, height: 10 } });
    expect(r.diffPixels).toBe(20);
    expect(r.message).toBe(
      'Expected an image 10px by 10px, received 12px by 10px. 20 pixels (ratio 0.1667 of all image pixels) are different.',
    );
    expect([r.diff?.width, r.diff?.height]).toEqual([12, 10]);
    expect(pixel(r.diff!, 11, 5)).toEqual([255, 0, 0, 255]);
    expect(pixel(r.diff!, 3, 5)).toEqual([255, 255, 255, 255]);
    expect(compareFrames(expected, actual, null, { maxDiffPixels: 1000 }).ok).toBe(false);
  });

  it('counts the same as a plain pixelmatch run over the whole image (row-band optimisation)', () => {
    const expected = loadImage('galculator');
    const actual = cloneFrame(expected);
    const next = random(7);
    for (let i = 0; i < 400; i++) {
      const x = Math.floor(next() * 331);
      const y = 140 + Math.floor(next() * 60);
      actual.data[(y * 331 + x) * 4] = Math.floor(next() * 256);
    }
    const plain = pixelmatch(expected.data, actual.data, undefined, 331, 343, { threshold: 0.05 });
    expect(plain).toBeGreaterThan(0);
    expect(compareFrames(expected, actual, null).diffPixels).toBe(plain);
  });

  it('compares a real screenshot against one with a changed display', () => {
    const a = loadImage('galculator');
    const b = loadImage('galculator-84');
    const r = compareFrames(a, b, null);
    expect(r.ok).toBe(false);
    expect(r.diffPixels).toBeGreaterThan(50);
    // Masking the display makes them equal.
    expect(compareFrames(a, b, null, { mask: [{ x: 5, y: 30, width: 321, height: 56 }] }).ok).toBe(true);
    // Crops work as inputs (offset views into a larger buffer are copied by crop).
    expect(
      compareFrames(crop(a, { x: 0, y: 100, width: 331, height: 200 }), crop(b, { x: 0, y: 100, width: 331, height: 200 }), null).ok,
    ).toBe(true);
  });

  it('throws on malformed input, with numbers', () => {
    const good = createFrame(4, 4);
    expect(() => compareFrames(good, { width: 4, height: 4, data: new Uint8Array(60) }, null)).toThrow(/Expecting 64\. Got 60/);
    expect(() => compareFrames(good, good, createFrame(3, 3))).toThrow(/diffOut must be 4×4/);
  });
});
