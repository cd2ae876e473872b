/** Counting the dots of a masked entry (a password field), in any font size. */
import { describe, expect, test } from 'vitest';
import type { Frame, Region } from '../../src/domain.ts';
import { maskedGlyphs } from '../../src/vision/masked.ts';
import { drawn, loadImage } from './helpers.ts';

type Rgba = [number, number, number, number];
const WHITE: Rgba = [255, 255, 255, 255];
const INK: Rgba = [17, 17, 17, 255];

/** A field of `n` square dots of `side` px, `gap` px apart, and what else `extra` draws. */
const field = (n: number, side: number, gap: number, extra: (readonly [Region, Rgba])[] = []): Frame =>
  drawn(120, 30, WHITE, [
    ...Array.from({ length: n }, (_, i) => [{ x: 4 + i * (side + gap), y: 15 - (side >> 1), width: side, height: side }, INK] as const),
    ...extra,
  ]);

describe('maskedGlyphs', () => {
  test('counts the dots of a password field, recorded and replayed in a larger font', () => {
    expect(maskedGlyphs(loadImage('masked-hunter2'))).toBe(7);
    expect(maskedGlyphs(loadImage('masked-hunter2-larger'))).toBe(7);
  });

  test('any dot size counts; a caret beside them is no dot', () => {
    expect(maskedGlyphs(field(4, 5, 4))).toBe(4);
    expect(maskedGlyphs(field(4, 8, 5))).toBe(4);
    expect(maskedGlyphs(field(3, 5, 4, [[{ x: 40, y: 4, width: 1, height: 22 }, INK]]))).toBe(3);
  });

  test('a text, a cut dot, dots of two sizes or nothing are not a masked entry', () => {
    expect(maskedGlyphs(loadImage('caret-alice'))).toBeUndefined();
    // Bold digits as round and as full as dots, with holes and gaps: "84" on the calculator's display.
    expect(maskedGlyphs(loadImage('display-84'))).toBeUndefined();
    expect(maskedGlyphs(loadImage('caret-cleared'))).toBeUndefined();
    expect(maskedGlyphs(field(0, 5, 4))).toBeUndefined();
    expect(maskedGlyphs(field(3, 5, 4, [[{ x: 60, y: 8, width: 3, height: 14 }, INK]]))).toBeUndefined();
    expect(maskedGlyphs(field(3, 5, 4, [[{ x: 60, y: 13, width: 2, height: 5 }, INK]]))).toBeUndefined();
    expect(maskedGlyphs(field(3, 5, 4, [[{ x: 60, y: 11, width: 9, height: 9 }, INK]]))).toBeUndefined();
  });
});
