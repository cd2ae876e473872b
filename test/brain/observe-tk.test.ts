/**
 * What learning records on the Tk order form of the toolkit corpus (no tree: pixels and OCR
 * decide), on real frames of it (test/vision/images: the corpus' Tk app on Xvfb).
 */
import { afterAll, describe, expect, test } from 'vitest';
import { makeEffects, ringsOnly } from '../../src/brain/observe.ts';
import { closeSharedTextReader, sharedTextReader } from '../../src/vision/ocr/tesseract-reader.ts';
import { createFrame, fillRegion } from '../../src/vision/frame.ts';
import { blindReader } from '../support/fake-desktop.ts';
import { loadImage } from '../vision/helpers.ts';

describe('typing "3" into Count after "Tea" into Item, the field just above (real OCR)', () => {
  afterAll(() => closeSharedTextReader());

  const effectsOf = (before: string, after: string) =>
    makeEffects({
      before: loadImage(before),
      after: loadImage(after),
      dynamic: [],
      secret: false,
      sink: new Map(),
      reader: sharedTextReader(),
      // The Count label, clicked to focus its field.
      target: { x: 10, y: 80, width: 47, height: 14 },
      known: { typed: '3' },
    });

  test.each([
    ['light', 'tk-tea', 'tk-tea-3'],
    ['dark', 'tk-dark-tea', 'tk-dark-tea-3'],
  ])('%s: the field the focus left is its feedback; the typed text is "3", in Count alone', async (_, before, after) => {
    const effects = await effectsOf(before, after);
    const text = effects.filter((e) => e.kind === 'text');
    expect(text.map((e) => e.text)).toEqual(['3']);
    // Count's field lies below y 72, Item's above it.
    expect(text[0]!.region.y).toBeGreaterThanOrEqual(70);
    const item = effects.filter((e) => e.region.y + e.region.height <= 75);
    expect(item.map((e) => [e.kind, e.text])).toEqual([['feedback', 'Tea']]);
  });
});

describe('replayed on reordered fields (Count above Item): what the focus moving changed', () => {
  const [before, after] = [loadImage('tk-reordered-tea'), loadImage('tk-reordered-tea-3')];

  test("Item's ring going, its inside as it was but for the caret, is only a ring; Count's, with the 3 typed, is not", () => {
    expect(ringsOnly(before, after, { x: 83, y: 45, width: 307, height: 23 })).toBe(true);
    expect(ringsOnly(before, after, { x: 83, y: 14, width: 307, height: 23 })).toBe(false);
    expect(ringsOnly(before, after, { x: 83, y: 14, width: 307, height: 54 })).toBe(false);
  });

  test('the right ends of both rings, one change over both fields (a window drawn wider), are only rings', () => {
    expect(ringsOnly(before, after, { x: 300, y: 11, width: 93, height: 60 })).toBe(true);
  });
});

describe('a selection moving to the next row of a list', () => {
  // Two rows 26 px tall, 2 px apart: one change over both. Their texts' edges stay where they
  // were, but the fill behind them moved: no row is a ring, and the change stays one look.
  const list = (selected: number) => {
    const frame = createFrame(200, 100, [255, 255, 255, 255]);
    for (const [i, y] of [20, 48].entries()) {
      fillRegion(frame, { x: 20, y, width: 160, height: 26 }, i === selected ? [53, 132, 228, 255] : [250, 250, 250, 255]);
      fillRegion(frame, { x: 28, y: y + 8, width: 40, height: 10 }, [30, 30, 30, 255]);
    }
    return frame;
  };

  test('is no focus ring: the rows are one look', async () => {
    const effects = await makeEffects({
      before: list(0),
      after: list(1),
      dynamic: [],
      secret: false,
      sink: new Map(),
      reader: blindReader,
    });
    expect(effects.map((e) => e.kind)).toEqual(['look']);
  });
});
