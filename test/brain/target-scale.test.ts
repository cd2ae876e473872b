/**
 * A target drawn at another scale (issue 24, item 6): what replay knows of it at its recorded size
 * — the anchor's crop around it, its focus ring — is mapped into its element's box now, and the
 * margins around it grow with it.
 */
import { describe, expect, test } from 'vitest';
import { drawnLarger, sameRegionIn } from '../../src/brain/elements.ts';

const recorded = { x: 18, y: 16, width: 100, height: 44 };

describe('a target drawn larger', () => {
  test("the anchor's crop around the button, recorded at scale 1, lies around the button drawn at scale 2", () => {
    const now = { x: 36, y: 32, width: 200, height: 88 };
    expect(sameRegionIn(now, recorded, { x: 16, y: 14, width: 104, height: 48 })).toEqual({ x: 32, y: 28, width: 208, height: 96 });
    expect(sameRegionIn(now, recorded, recorded)).toEqual(now);
  });

  test('moved without a change of size, a region only moves', () => {
    const now = { x: 58, y: 36, width: 100, height: 44 };
    expect(sameRegionIn(now, recorded, { x: 10, y: 8, width: 116, height: 60 })).toEqual({ x: 50, y: 28, width: 116, height: 60 });
  });

  test('how much larger: by its height; never below 1, so a smaller drawing keeps the recorded margins', () => {
    expect(drawnLarger({ x: 0, y: 0, width: 200, height: 88 }, recorded)).toBe(2);
    expect(drawnLarger({ x: 0, y: 0, width: 160, height: 66 }, recorded)).toBe(1.5);
    expect(drawnLarger({ x: 0, y: 0, width: 80, height: 35 }, recorded)).toBe(1);
    expect(drawnLarger({ x: 0, y: 0, width: 80, height: 35 }, { ...recorded, height: 0 })).toBe(1);
  });
});
