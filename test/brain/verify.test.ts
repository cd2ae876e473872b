/** Effect verification on in-memory frames. */
import { describe, expect, test } from 'vitest';
import type { Effect, Frame, RecordedAction, Region } from '../../src/domain.ts';
import { checkEffect, presentAsRecorded } from '../../src/brain/verify.ts';
import { cloneFrame, createFrame, crop, fillRegion } from '../../src/vision/frame.ts';

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
});

describe('presentAsRecorded (the end of the wait after a replayed action)', () => {
  const region = { x: 37, y: 27, width: 22, height: 30 };
  const { effect, image } = effectAt(withBlocks([10, 40]), region);
  const action = (effects: Effect[]): RecordedAction => ({ action: { kind: 'click', target: { x: 1, y: 1 } }, before: '', after: '', effects, dynamic: [], settleMs: 10 });
  const images = (): Frame => image;

  test('holds only once every deciding effect shows its recorded pixels', () => {
    const ready = presentAsRecorded(action([effect, { region: { x: 0, y: 0, width: 10, height: 10 }, image: 'f.png', kind: 'feedback' }]), images, { x: 0, y: 0 });
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
