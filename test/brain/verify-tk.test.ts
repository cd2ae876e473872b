/**
 * Effects learned on the Tk order form of the toolkit corpus (no tree: pixels and OCR decide),
 * verified on real frames of its dark variant (test/vision/images: the corpus' Tk app on Xvfb).
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { Effect, Frame, RecordedAction } from '../../src/domain.ts';
import { verifyEffects } from '../../src/brain/verify.ts';
import { createFrame, crop, fillRegion } from '../../src/vision/frame.ts';
import { closeSharedTextReader, sharedTextReader } from '../../src/vision/ocr/tesseract-reader.ts';
import { loadImage } from '../vision/helpers.ts';

/** What verifying one recorded effect needs, its image and the frames around the action given. */
const verifying = (action: RecordedAction['action'], effect: Effect, image: Frame, before: Frame, after: Frame) => ({
  reader: sharedTextReader(),
  recorded: { action, before: 'before.png', after: 'after.png', effects: [effect], dynamic: [], settleMs: 40 } satisfies RecordedAction,
  image: () => image,
  before,
  after,
  offset: { x: 0, y: 0 },
  ignore: [],
});

describe('the Tk form in its dark colours, learned in its light ones (real OCR)', () => {
  afterAll(() => closeSharedTextReader());

  // Typing "3" into Count moved the focus from Item above it: one change over both fields, read
  // line by line, with the caret of Count in a column that crosses Item's borders.
  const afterTyping = (after: string) =>
    verifying(
      { kind: 'type', text: '3', into: { text: 'Count' } },
      { region: { x: 80, y: 42, width: 313, height: 60 }, kind: 'text', image: 'e.png', text: 'Tea\n3' },
      loadImage('caret-tk-two-fields'),
      loadImage('tk-dark-tea'),
      loadImage(after),
    );

  test('the typed "3" reads as recorded, its caret not read', async () => {
    const [check] = await verifyEffects(afterTyping('tk-dark-tea-3'));
    expect(check).toMatchObject({ verified: true, moved: true });
  });

  test('a "4" typed instead does not verify', async () => {
    const [check] = await verifyEffects(afterTyping('tk-dark-tea-4'));
    expect(check?.verified).toBe(false);
  });

  // Clicking Express took the dot off Standard: learned as a look, the empty radio in light colours.
  const afterClick = (after: string) =>
    verifying(
      { kind: 'click', target: { text: 'Express' } },
      { region: { x: 21, y: 109, width: 10, height: 10 }, kind: 'look', image: 'e.png' },
      loadImage('radio-tk-cleared'),
      loadImage('tk-dark'),
      loadImage(after),
    );

  test("Standard's dot gone, its radio drawn in dark colours, verifies", async () => {
    const [check] = await verifyEffects(afterClick('tk-dark-express'));
    expect(check).toMatchObject({ verified: true, moved: true });
  });

  test("Standard's dot still there does not verify", async () => {
    const [check] = await verifyEffects(afterClick('tk-dark'));
    expect(check?.verified).toBe(false);
  });
});

describe('the Tk form with every text 2 px larger, learned at its own size (real OCR)', () => {
  afterAll(() => closeSharedTextReader());

  // Clicking Gift wrap, the pointer left Express: one change over both, learned with the radio's
  // dot read as "+". The larger font moves it otherwise than the target.
  const afterClick = (text: string) => ({
    ...verifying(
      { kind: 'click', target: { text: 'Gift wrap' } },
      { region: { x: 105, y: 101, width: 183, height: 27 }, kind: 'text', image: 'e.png', text },
      loadImage('gift-wrap-tk-checked'),
      loadImage('tk-font-express'),
      loadImage('tk-font-gift-wrap'),
    ),
    offset: { x: 43, y: 11 },
    target: { x: 260, y: 117, width: 78, height: 20 },
  });

  test('the change, read on its own as learning read it, says what was recorded', async () => {
    const [check] = await verifyEffects(afterClick('+ Express Gift wrap'));
    expect(check).toMatchObject({ verified: true, moved: true });
  });

  test('a text the change does not say is not found there', async () => {
    const [check] = await verifyEffects(afterClick('+ Express Gift box'));
    expect(check?.verified).toBe(false);
  });
});

describe('a look whose change is a flat colour', () => {
  const GREY = [200, 200, 200, 255] as const;
  const region = { x: 7, y: 7, width: 14, height: 14 };
  const light = (colour: readonly [number, number, number, number], framed = false) => {
    const frame = createFrame(40, 40, GREY);
    if (framed) fillRegion(frame, { x: 8, y: 8, width: 12, height: 12 }, [0, 0, 0, 255]);
    fillRegion(frame, { x: framed ? 9 : 10, y: framed ? 9 : 10, width: framed ? 10 : 8, height: framed ? 10 : 8 }, GREY);
    fillRegion(frame, { x: 10, y: 10, width: 8, height: 8 }, colour);
    return frame;
  };
  const input = (after: Frame) =>
    verifying(
      { kind: 'click', target: { text: 'Go' } },
      { region, kind: 'look', image: 'e.png' },
      crop(light([0, 160, 0, 255]), region),
      light([120, 120, 120, 255]),
      after,
    );
  afterAll(() => closeSharedTextReader());

  test('a light turned red in a new frame is not the light turned green: a flat change is no mark gone', async () => {
    const [check] = await verifyEffects(input(light([220, 0, 0, 255], true)));
    expect(check?.verified).toBe(false);
  });
});
