/**
 * Faint ink through normalizeForOcr: text far fainter than the image's darkest ink gets a
 * stretch of its own; faint outlines and blobs stay ground.
 */
import { describe, expect, it } from 'vitest';
import type { Frame, Region } from '../../src/domain.ts';
import { fillRegion } from '../../src/vision/frame.ts';
import { normalizeForOcr } from '../../src/vision/ocr/preprocess.ts';
import type { Rgba } from '../../src/vision/types.ts';
import { drawn } from './helpers.ts';

const PAGE: Rgba = [0x20, 0x21, 0x24, 255];
const LIGHT: Rgba = [0xe8, 0xe8, 0xe8, 255];
const GREEN: Rgba = [0x1d, 0x5a, 0x1d, 255];
/** A grey as far from the page as the green (luma 65 against 33). */
const FAINT_GREY: Rgba = [65, 65, 65, 255];

/** A stand-in for a glyph, an "E" 10 wide and 14 tall, strokes 2 px, at (x, y). */
const glyph = (x: number, y: number): Region[] => [
  { x, y, width: 2, height: 14 },
  { x, y, width: 10, height: 2 },
  { x, y: y + 6, width: 8, height: 2 },
  { x, y: y + 12, width: 10, height: 2 },
];
const word = (x: number, y: number, letters: number): Region[] => Array.from({ length: letters }, (_, i) => glyph(x + 14 * i, y)).flat();

/** A dark page with a line of light text on it (which sets the whole-image stretch). */
function page(): Frame {
  return drawn(
    240,
    120,
    PAGE,
    word(10, 10, 6).map((r) => [r, LIGHT] as const),
  );
}

const grayAt = (frame: Frame, x: number, y: number): number => {
  const n = normalizeForOcr(frame, { layout: 'block' });
  return n.gray.data[y * n.gray.width + x]!;
};

describe('faint ink', () => {
  it('turns faint letters beside light text into ink as dark as the rest', () => {
    const frame = page();
    for (const r of word(10, 60, 5)) fillRegion(frame, r, GREEN);
    const n = normalizeForOcr(frame, { layout: 'block' });
    expect(n.inverted).toBe(true);
    expect(n.gray.data[61 * 240 + 11]).toBe(0); // the green "E"'s stem
    expect(n.gray.data[64 * 240 + 22]).toBe(255); // the ground between two of them
    expect(n.clean?.lines.map((l) => l.y)).toEqual([10, 60]);
  });

  it('leaves a faint outline (a control border) and a faint filled box (a toggle track) ground', () => {
    const frame = page();
    for (const side of [
      { x: 20, y: 50, width: 100, height: 1 },
      { x: 20, y: 89, width: 100, height: 1 },
      { x: 20, y: 50, width: 1, height: 40 },
      { x: 119, y: 50, width: 1, height: 40 },
    ])
      fillRegion(frame, side, FAINT_GREY);
    fillRegion(frame, { x: 150, y: 60, width: 40, height: 20 }, FAINT_GREY);
    expect(grayAt(frame, 20, 70)).toBe(255);
    expect(grayAt(frame, 160, 70)).toBe(255);
  });
});
