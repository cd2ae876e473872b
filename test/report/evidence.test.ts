/**
 * The images a goal leaves for Allure and the storyboard: the window before and after each action
 * at its full size (a 1200-pixel window shown as a 320-pixel thumbnail hides which of two check
 * boxes changed), and a failed text expectation's window with where it read and the words boxed.
 */
import { describe, expect, test } from 'vitest';
import { GoalEvidence, judgedImage } from '../../src/runner/evidence.ts';
import { createFrame, decodePng } from '../../src/vision/frame.ts';

describe('goal evidence', () => {
  test('before and after images are the full window', () => {
    const evidence = new GoalEvidence();
    evidence.started(0, 'click "OK"');
    evidence.collect(0, createFrame(1200, 740, [250, 250, 250, 255]), createFrame(1200, 740, [20, 20, 20, 255]));
    const images = evidence.actions().get(0)?.images;
    const before = decodePng(images!.before!);
    expect([before.width, before.height]).toEqual([1200, 740]);
    expect(decodePng(images!.after!).width).toBe(1200);
    expect(decodePng(evidence.windows().get(0)!.after).width).toBe(1200);
  });

  test('a judged window boxes where it read in blue and each word read in red', () => {
    const frame = decodePng(
      judgedImage({
        frame: createFrame(200, 100, [255, 255, 255, 255]),
        region: { x: 10, y: 10, width: 100, height: 50 },
        words: [{ x: 20, y: 20, width: 30, height: 10 }],
      }),
    );
    const px = (x: number, y: number): number[] => [...frame.data.subarray((y * frame.width + x) * 4, (y * frame.width + x) * 4 + 3)];
    // Strokes lie just outside the box, so the words stay readable.
    expect(px(9, 30)).toEqual([0, 110, 255]);
    expect(px(19, 25)).toEqual([230, 0, 40]);
    expect(px(150, 80)).toEqual([255, 255, 255]);
  });
});
