/** Effect verification on in-memory frames (and crops of fixture screenshots, read by real OCR). */
import { afterAll, describe, expect, test } from 'vitest';
import type { Effect, Frame, RecordedAction, Region } from '../../src/domain.ts';
import { checkEffect, presentAsRecorded, verifyEffects, withSurroundings, type EffectCheck } from '../../src/brain/verify.ts';
import { cloneFrame, createFrame, crop, fillRegion, inflateRegion, paste } from '../../src/vision/frame.ts';
import { closeSharedTextReader, sharedTextReader } from '../../src/vision/ocr/tesseract-reader.ts';
import { drawText, glyphReader, textBox } from '../support/glyphs.ts';
import { loadImage } from '../vision/helpers.ts';

const BLUE = [30, 60, 160, 255] as const;
const blank = (): Frame => createFrame(200, 100, [255, 255, 255, 255]);
const withBlocks = (xs: readonly number[]): Frame => {
  const frame = blank();
  for (const x of xs) fillRegion(frame, { x, y: 30, width: 16, height: 24 }, BLUE);
  // A little texture, so a block is not one flat colour.
  for (const x of xs) fillRegion(frame, { x: x + 4, y: 34, width: 8, height: 4 }, [250, 200, 0, 255]);
  return frame;
};
const effectAt = (after: Frame, region: Region): { effect: Effect; image: Frame } => ({
  effect: { region, image: 'e.png' },
  image: crop(after, region),
});

describe('checkEffect', () => {
  const region = { x: 37, y: 27, width: 22, height: 30 };
  const recordedAfter = withBlocks([10, 40]);
  const { effect, image } = effectAt(recordedAfter, region);

  test('verifies an effect shown again at its recorded place', () => {
    const check = checkEffect(effect, image, withBlocks([10]), withBlocks([10, 40]), { x: 0, y: 0 });
    expect(check).toMatchObject({ verified: true, moved: false });
  });

  test('follows the target when the layout moved', () => {
    const check = checkEffect(effect, image, withBlocks([30]), withBlocks([30, 60]), { x: 20, y: 0 });
    expect(check).toMatchObject({ verified: true, moved: true, region: { x: 57, y: 27 } });
  });

  test('does not take for its effect what was on screen before the action', () => {
    // The click was swallowed: the first block looks like the missing second one.
    const before = withBlocks([10]);
    const check = checkEffect(effect, image, before, cloneFrame(before), { x: 0, y: 0 });
    expect(check.verified).toBe(false);
  });

  test('finds an effect elsewhere only where the action changed the screen', () => {
    const check = checkEffect(effect, image, withBlocks([]), withBlocks([120]), { x: 0, y: 0 });
    expect(check).toMatchObject({ verified: true, moved: true, region: { x: 117, y: 27 } });
  });

  test('finds a text by its own pixels elsewhere, however it was read when learned', () => {
    // Learned misread: what it says is never read the same again, its pixels are the text.
    const text: Effect = { ...effect, kind: 'text', text: '12+* 7 7 =' };
    expect(checkEffect(text, image, withBlocks([]), withBlocks([120]), { x: 0, y: 0 })).toMatchObject({
      verified: true,
      moved: true,
      region: { x: 117, y: 27 },
    });
    // Other pixels (another value) are left to OCR.
    const other = withBlocks([120]);
    fillRegion(other, { x: 124, y: 44, width: 8, height: 4 }, [250, 200, 0, 255]);
    expect(checkEffect(text, image, withBlocks([]), other, { x: 0, y: 0 }).verified).toBe(false);
  });
});

describe('presentAsRecorded (the end of the wait after a replayed action)', () => {
  const region = { x: 37, y: 27, width: 22, height: 30 };
  const { effect, image } = effectAt(withBlocks([10, 40]), region);
  const action = (effects: Effect[]): RecordedAction => ({
    action: { kind: 'click', target: { x: 1, y: 1 } },
    before: '',
    after: '',
    effects,
    dynamic: [],
    settleMs: 10,
  });
  const images = (): Frame => image;

  test('holds only once every deciding effect shows its recorded pixels', () => {
    const ready = presentAsRecorded(
      action([effect, { region: { x: 0, y: 0, width: 10, height: 10 }, image: 'f.png', kind: 'feedback' }]),
      images,
      { x: 0, y: 0 },
    );
    expect(ready?.(withBlocks([10]))).toBe(false);
    expect(ready?.(withBlocks([10, 40]))).toBe(true);
    // Moved with the target.
    expect(presentAsRecorded(action([effect]), images, { x: 20, y: 0 })?.(withBlocks([30, 60]))).toBe(true);
  });

  test('cannot tell without an image that decides (a secret, only feedback): the wait keeps its quiet window', () => {
    expect(presentAsRecorded(action([{ region }]), images, { x: 0, y: 0 })).toBeUndefined();
    expect(presentAsRecorded(action([{ ...effect, kind: 'feedback' }]), images, { x: 0, y: 0 })).toBeUndefined();
  });
});

describe('checkEffect on a field cleared but for its caret', () => {
  const INK = [20, 20, 20, 255] as const;
  /** A white field at `x` showing a "text" (blocks) or nothing, with a caret after it or at its start. */
  const field = (x: number, text: boolean): Frame => {
    const frame = createFrame(200, 100, [240, 240, 240, 255]);
    fillRegion(frame, { x, y: 20, width: 100, height: 40 }, [255, 255, 255, 255]);
    if (text) for (let i = 0; i < 5; i++) fillRegion(frame, { x: x + 6 + 10 * i, y: 32, width: 6, height: 14 }, INK);
    fillRegion(frame, { x: text ? x + 58 : x + 4, y: 28, width: 1, height: 24 }, INK);
    return frame;
  };
  // Recorded: the field at 10 went from a text to blank with its caret.
  const region = { x: 11, y: 25, width: 60, height: 30 };
  const recorded: Effect = { region, image: 'e.png', kind: 'text' };
  const image = crop(field(10, false), region);

  test('verifies where the layout put the field, though not where the target moved', () => {
    const check = checkEffect(recorded, image, field(80, true), field(80, false), { x: 30, y: 0 });
    expect(check).toMatchObject({ verified: true, moved: true });
  });

  test('fails when the text stayed', () => {
    const before = field(80, true);
    const check = checkEffect(recorded, image, before, cloneFrame(before), { x: 30, y: 0 });
    expect(check.verified).toBe(false);
  });
});

describe('withSurroundings', () => {
  const word = (text: string, x: number, y: number) => ({ text, box: { x, y, width: 40, height: 14 }, confidence: 90 });
  // "Welcome" found elsewhere, in a message box the layout made wider than recorded.
  const found: EffectCheck = {
    effect: { region: { x: 15, y: 280, width: 120, height: 30 }, kind: 'text', text: 'Welcome' },
    verified: true,
    moved: true,
    region: { x: 27, y: 227, width: 46, height: 20 },
    diffPixels: 0,
  };
  const box = { x: 15, y: 219, width: 426, height: 47 };

  test('a changed region around a found text, showing only its words, is its effect too', () => {
    const [check] = withSurroundings([found], { changed: [box], words: [word('Welcome', 30, 230)] });
    expect(check?.covers).toEqual([box]);
  });

  test('not when the region shows another word, nor for an effect found in place', () => {
    const [other] = withSurroundings([found], { changed: [box], words: [word('Welcome', 30, 230), word('Error', 300, 230)] });
    expect(other?.covers).toBeUndefined();
    const [inPlace] = withSurroundings([{ ...found, moved: false }], { changed: [box], words: [word('Welcome', 30, 230)] });
    expect(inPlace?.covers).toBeUndefined();
  });
});

describe("a key's own label is not its effect (galculator: the display shows the 8 late)", () => {
  const INK = [0, 0, 0, 255] as const;
  const key = { x: 20, y: 50, width: 40, height: 30 };
  const shown = { x: 160, y: 14 };
  const calculator = (display: string, pressed: boolean): Frame => {
    const frame = blank();
    fillRegion(frame, key, pressed ? [170, 170, 170, 255] : [220, 220, 220, 255]);
    drawText(frame, '8', { x: 35, y: 57 }, INK);
    drawText(frame, display, shown, INK);
    return frame;
  };
  const learnedAfter = calculator('8', false);
  const region = inflateRegion(textBox('8', shown), 2);
  const recorded: RecordedAction = {
    action: { kind: 'click', target: { text: '8' } },
    before: 'before.png',
    after: 'after.png',
    effects: [{ region, image: 'e.png', text: '8', kind: 'text' }],
    dynamic: [],
    settleMs: 40,
  };
  const input = (after: Frame, target?: Region) => ({
    reader: glyphReader,
    recorded,
    image: () => crop(learnedAfter, region),
    before: calculator('7', false),
    after,
    offset: { x: 0, y: 0 },
    ignore: [],
    ...(target && { target }),
  });

  test('the pressed key still showing "8" while the display shows "7" does not verify', async () => {
    const [check] = await verifyEffects(input(calculator('7', true), key));
    expect(check?.verified).toBe(false);
    // Without knowing the target, its label would have passed as the effect, moved.
    const [blind] = await verifyEffects(input(calculator('7', true)));
    expect(blind).toMatchObject({ verified: true, moved: true });
  });

  test('the display showing "8" verifies, in place', async () => {
    const [check] = await verifyEffects(input(calculator('8', true), key));
    expect(check).toMatchObject({ verified: true, moved: false });
  });
});

describe('a picked item whose label is drawn larger (the list fixture, font=larger; real OCR)', () => {
  const region = { x: 21, y: 183, width: 254, height: 46 };
  /** A window with one list item, as cropped from a screenshot of the list fixture, at its place. */
  const window = (item: string): Frame => {
    const frame = createFrame(300, 260, [255, 255, 255, 255]);
    paste(frame, loadImage(item), region);
    return frame;
  };
  const input = (recorded: string, before: string, after: string, text = 'Cherry') => ({
    reader: sharedTextReader(),
    recorded: {
      action: { kind: 'click', target: { text: 'Cherry' } },
      before: 'before.png',
      after: 'after.png',
      effects: [{ region, image: 'e.png', kind: 'look', text }],
      dynamic: [],
      settleMs: 40,
    } satisfies RecordedAction,
    image: () => loadImage(recorded),
    before: window(before),
    after: window(after),
    offset: { x: 0, y: 0 },
    ignore: [],
  });
  afterAll(() => closeSharedTextReader());

  test('verifies: the same item shows picked the same way, its label in another size', async () => {
    const [check] = await verifyEffects(input('list-cherry-selected', 'list-cherry-unselected-larger', 'list-cherry-selected-larger'));
    expect(check).toMatchObject({ verified: true, moved: true });
  });

  test('fails when the item was not picked, or its label says something else', async () => {
    const [unpicked] = await verifyEffects(input('list-cherry-selected', 'list-cherry-unselected-larger', 'list-cherry-unselected-larger'));
    expect(unpicked?.verified).toBe(false);
    const [other] = await verifyEffects(
      input('list-cherry-selected', 'list-cherry-unselected-larger', 'list-cherry-selected-larger', 'Banana'),
    );
    expect(other?.verified).toBe(false);
  });

  test('fails for a look that is only its label restyled: nothing around the text tells', async () => {
    const [check] = await verifyEffects(input('list-cherry-unselected', 'list-cherry-unselected', 'list-cherry-unselected-larger'));
    expect(check?.verified).toBe(false);
  });
});
