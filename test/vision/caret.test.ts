import { describe, expect, test } from 'vitest';
import { findCarets, withoutCarets, withoutCaretsIn } from '../../src/vision/caret.ts';
import { crop } from '../../src/vision/frame.ts';
import { BLACK, WHITE, drawn, loadImage, pixel } from './helpers.ts';

/** A line of "glyphs" (bars 2 px wide, `glyph` rows tall from row 8) and maybe a caret. */
const line = (glyph: number, caret?: { x: number; top: number; height: number; width?: number }) =>
  drawn(60, 32, WHITE, [
    [{ x: 4, y: 8, width: 2, height: glyph }, BLACK],
    [{ x: 10, y: 12, width: 5, height: glyph - 4 }, BLACK],
    [{ x: 18, y: 8, width: 2, height: glyph }, BLACK],
    ...(caret ? ([[{ x: caret.x, y: caret.top, width: caret.width ?? 1, height: caret.height }, BLACK]] as const) : []),
  ]);

describe('findCarets', () => {
  test('a bar after the text, taller than the line, is the caret', () => {
    expect(findCarets(line(15, { x: 22, top: 4, height: 24 }))).toEqual([{ x: 22, y: 4, width: 1, height: 24 }]);
  });

  test('a bar no taller than the text beside it is a glyph ("l", "|"), kept', () => {
    expect(findCarets(line(15, { x: 22, top: 8, height: 15 }))).toEqual([]);
    expect(findCarets(line(18, { x: 22, top: 7, height: 20 }))).toEqual([]);
  });

  test('a bar with text on both sides, a wide bar or one reaching the crop edge is not a caret', () => {
    expect(findCarets(line(15, { x: 8, top: 4, height: 24 }))).toEqual([]);
    expect(findCarets(line(15, { x: 22, top: 4, height: 24, width: 3 }))).toEqual([]);
    expect(findCarets(line(15, { x: 22, top: 0, height: 32 }))).toEqual([]);
  });

  test('a lone bar is the caret of an empty field; a frame without ink has none', () => {
    const empty = drawn(40, 30, WHITE, [[{ x: 3, y: 3, width: 1, height: 24 }, BLACK]]);
    expect(findCarets(empty)).toEqual([{ x: 3, y: 3, width: 1, height: 24 }]);
    expect(findCarets(drawn(40, 30, WHITE))).toEqual([]);
  });

  test("a 2-px bar (Tk's caret) after the text it overreaches is the caret; alone it may be an l, kept", () => {
    expect(findCarets(line(15, { x: 22, top: 4, height: 24, width: 2 }))).toEqual([{ x: 22, y: 4, width: 2, height: 24 }]);
    expect(findCarets(line(15, { x: 22, top: 8, height: 15, width: 2 }))).toEqual([]);
    expect(findCarets(drawn(40, 30, WHITE, [[{ x: 3, y: 3, width: 2, height: 24 }, BLACK]]))).toEqual([]);
  });

  test("a bar with a dot just above it is an i's stem, not a caret; a border above or below it is no dot", () => {
    const i = drawn(40, 40, WHITE, [
      [{ x: 10, y: 12, width: 1, height: 2 }, BLACK],
      [{ x: 10, y: 16, width: 1, height: 12 }, BLACK],
    ]);
    expect(findCarets(i)).toEqual([]);
    const framed = drawn(40, 40, WHITE, [
      [{ x: 2, y: 10, width: 36, height: 1 }, BLACK],
      [{ x: 10, y: 12, width: 1, height: 20 }, BLACK],
      [{ x: 2, y: 34, width: 36, height: 1 }, BLACK],
    ]);
    expect(findCarets(framed)).toEqual([{ x: 10, y: 12, width: 1, height: 20 }]);
  });

  test('a caret whose column crosses the line of text above it is found within its own line', () => {
    const twoLines = drawn(60, 64, WHITE, [
      [{ x: 20, y: 8, width: 2, height: 15 }, BLACK],
      [{ x: 4, y: 40, width: 2, height: 15 }, BLACK],
      [{ x: 20, y: 36, width: 1, height: 24 }, BLACK],
    ]);
    expect(findCarets(twoLines)).toEqual([{ x: 20, y: 36, width: 1, height: 24 }]);
  });

  test('light on dark: ink is what differs from the background', () => {
    const dark = drawn(60, 32, BLACK, [
      [{ x: 4, y: 8, width: 2, height: 15 }, WHITE],
      [{ x: 22, y: 4, width: 1, height: 24 }, WHITE],
    ]);
    expect(findCarets(dark)).toEqual([{ x: 22, y: 4, width: 1, height: 24 }]);
  });

  test('real typed texts: the caret after "alice" and after "Buy milk" (touching the k), not the l', () => {
    expect(findCarets(loadImage('caret-alice'))).toEqual([{ x: 49, y: 3, width: 1, height: 24 }]);
    expect(findCarets(loadImage('caret-buy-milk'))).toEqual([{ x: 89, y: 3, width: 1, height: 24 }]);
    expect(findCarets(loadImage('caret-cleared'))).toHaveLength(1);
  });

  test('real Tk entries: its 2-px caret after a typed "Tea 3", light and dark', () => {
    expect(findCarets(loadImage('caret-tk-light'))).toEqual([{ x: 36, y: 1, width: 2, height: 17 }]);
    expect(findCarets(loadImage('caret-tk-dark'))).toEqual([{ x: 38, y: 3, width: 2, height: 17 }]);
  });

  test('real Tk effect of typing "3" into Count: the field left above, the caret between the borders of its own', () => {
    expect(findCarets(loadImage('caret-tk-two-fields'))).toEqual([{ x: 14, y: 37, width: 2, height: 17 }]);
    const dark = crop(loadImage('tk-dark-tea-3'), { x: 80, y: 42, width: 313, height: 60 });
    expect(findCarets(dark)).toEqual([{ x: 14, y: 37, width: 2, height: 17 }]);
  });
});

describe('withoutCarets', () => {
  test('paints the caret in the background and leaves the glyphs', () => {
    const frame = line(15, { x: 22, top: 4, height: 24 });
    const clean = withoutCarets(frame);
    expect(pixel(clean, 22, 10)).toEqual([255, 255, 255, 255]);
    expect(pixel(clean, 4, 10)).toEqual([0, 0, 0, 255]);
    expect(pixel(frame, 22, 10)).toEqual([0, 0, 0, 255]);
  });

  test('a frame without a caret is returned as it is', () => {
    const frame = line(15);
    expect(withoutCarets(frame)).toBe(frame);
  });
});

describe('withoutCaretsIn', () => {
  test('paints the carets inside the regions only, on a copy', () => {
    const frame = drawn(120, 32, WHITE, [
      [{ x: 4, y: 8, width: 2, height: 15 }, BLACK],
      [{ x: 10, y: 4, width: 1, height: 24 }, BLACK],
      [{ x: 64, y: 8, width: 2, height: 15 }, BLACK],
      [{ x: 70, y: 4, width: 1, height: 24 }, BLACK],
    ]);
    const clean = withoutCaretsIn(frame, [{ x: 0, y: 2, width: 40, height: 28 }]);
    expect(pixel(clean, 10, 10)).toEqual([255, 255, 255, 255]);
    expect(pixel(clean, 70, 10)).toEqual([0, 0, 0, 255]);
    expect(pixel(frame, 10, 10)).toEqual([0, 0, 0, 255]);
    expect(withoutCaretsIn(frame, [{ x: 60, y: 0, width: 8, height: 32 }])).toBe(frame);
  });
});
