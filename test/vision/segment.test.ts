import { describe, expect, it } from 'vitest';
import type { Region } from '../../src/domain.ts';
import { cloneFrame, createFrame, fillRegion } from '../../src/vision/frame.ts';
import { segmentControls, segmentDetailed } from '../../src/vision/segment.ts';
import { BLACK, centre, inside, iou, loadImage } from './helpers.ts';

const box = (x: number, y: number, width: number, height: number): Region => ({ x, y, width, height });

/** Every key of the galculator screenshot, measured on the image. */
const CALC_KEYS: Region[] = [
  box(160, 96, 52, 36),
  box(216, 96, 54, 36),
  box(274, 96, 52, 36), // C AC <-
  ...[142, 182, 222].flatMap((y) => [5, 70, 135, 200, 265].map((x) => box(x, y, 61, 36))), // ( ) MS MR M+ / 7 8 9 / sqrt / 4 5 6 * %
  ...[5, 70, 135, 200].map((x) => box(x, 262, 61, 36)),
  box(265, 262, 61, 76), // 1 2 3 - =
  ...[5, 70, 135, 200].map((x) => box(x, 302, 61, 36)), // 0 . +/- +
];

const KEYPAD_KEYS: Region[] = [61, 105, 149, 193, 237].flatMap((y) => [7, 65, 123, 181].map((x) => box(x, y, 54, y === 237 ? 39 : 40)));

const matchOf = (found: readonly Region[], want: Region): Region | undefined => found.find((r) => iou(r, want) >= 0.85);

describe('segmentControls', () => {
  it('finds every key of a real calculator, each with its label', () => {
    const frame = loadImage('galculator');
    const controls = segmentDetailed(frame);
    const boxes = controls.map((c) => c.box);
    expect(CALC_KEYS).toHaveLength(27);
    for (const key of CALC_KEYS) {
      const hit = controls.find((c) => iou(c.box, key) >= 0.85);
      expect(hit, `key at ${JSON.stringify(key)}`).toBeDefined();
      expect(hit!.kind).toBe('box');
      expect(hit!.labels.length, `label of ${JSON.stringify(key)}`).toBe(1);
      expect(inside(centre(hit!.labels[0]!), key)).toBe(true);
    }
    // The display field, and the menu titles as free labels.
    expect(matchOf(boxes, box(5, 30, 321, 56))).toBeDefined();
    const menus = controls.filter((c) => c.kind === 'text' && c.box.y < 24);
    expect(menus).toHaveLength(5);
    expect(boxes).toEqual(segmentControls(frame));
  });

  it('finds every key in a dark theme (the calculator, inverted)', () => {
    const dark = cloneFrame(loadImage('galculator'));
    for (let i = 0; i < dark.data.length; i++) if (i % 4 !== 3) dark.data[i] = 255 - dark.data[i]!;
    const controls = segmentDetailed(dark);
    for (const key of CALC_KEYS) {
      const hit = controls.find((c) => iou(c.box, key) >= 0.85);
      expect(hit, `key at ${JSON.stringify(key)}`).toBeDefined();
      expect(hit!.labels).toHaveLength(1);
    }
  });

  it('finds every key of a rendered keypad, "=" and "÷" included', () => {
    const controls = segmentDetailed(loadImage('keypad'));
    for (const key of KEYPAD_KEYS) {
      const hit = controls.find((c) => iou(c.box, key) >= 0.85);
      expect(hit, `key at ${JSON.stringify(key)}`).toBeDefined();
      expect(hit!.labels).toHaveLength(1);
    }
    // "÷" (a dot, a bar, a dot) and "=" (two bars) are one label each.
    const divide = controls.find((c) => iou(c.box, KEYPAD_KEYS[1]!) >= 0.85)!;
    expect(divide.labels[0]!.height).toBeGreaterThanOrEqual(8);
  });

  it('finds buttons, a toggle and free labels of a settings page', () => {
    const controls = segmentDetailed(loadImage('settings'));
    const boxes = controls.map((c) => c.box);
    expect(matchOf(boxes, box(135, 194, 82, 30))).toBeDefined(); // Apply
    expect(matchOf(boxes, box(223, 194, 82, 30))).toBeDefined(); // Cancel
    expect(matchOf(boxes, box(285, 84, 42, 22))).toBeDefined(); // the toggle, no label
    expect(matchOf(boxes, box(0, 60, 121, 32))).toBeDefined(); // the selected "Display" row
    const darkMode = controls.find((c) => c.kind === 'text' && inside({ x: 170, y: 94 }, c.box));
    expect(darkMode?.box).toEqual(box(137, 89, 76, 11)); // "Dark mode" is one label
  });

  it('finds a drawn button and a word on a synthetic frame', () => {
    const f = createFrame(200, 100, [240, 240, 240, 255]);
    fillRegion(f, box(20, 20, 60, 30), [120, 120, 120, 255]);
    fillRegion(f, box(22, 22, 56, 26), [250, 250, 250, 255]);
    fillRegion(f, box(45, 30, 2, 10), BLACK); // a "1"
    for (let i = 0; i < 4; i++) fillRegion(f, box(110 + i * 8, 40, 5, 9), BLACK); // a word of four letters
    const controls = segmentDetailed(f);
    expect(controls.map((c) => [c.kind, c.box])).toEqual([
      ['box', box(20, 20, 60, 30)],
      ['text', box(110, 40, 29, 9)],
    ]);
    expect(controls[0]!.labels).toEqual([box(45, 30, 2, 10)]);
  });

  it('keeps a bold "0" one label on its key, and a display\'s two lines apart', () => {
    const calc = loadImage('fixture-calculator-84');
    const controls = segmentDetailed(calc);
    const zeroKey = controls.find((c) => c.kind === 'box' && iou(c.box, box(12, 329, 78, 66)) > 0.9);
    expect(zeroKey?.labels).toHaveLength(1);
    expect(inside(centre(zeroKey!.labels[0]!), box(36, 345, 30, 31))).toBe(true);
    // The ring of the "0" is no control of its own.
    expect(controls.filter((c) => c.kind === 'box' && c.box.width < 30)).toEqual([]);
    const display = controls.find((c) => c.kind === 'box' && iou(c.box, box(12, 12, 336, 84)) > 0.9);
    const rows = new Set(display!.labels.map((l) => (l.y < 40 ? 'expression' : 'value')));
    expect(rows).toEqual(new Set(['expression', 'value']));
    expect(display!.labels.every((l) => l.y + l.height <= 40 || l.y >= 40)).toBe(true);
  });

  it('returns nothing for an empty or a blank frame', () => {
    expect(segmentControls(createFrame(0, 0))).toEqual([]);
    expect(segmentControls(createFrame(50, 50, [255, 255, 255, 255]))).toEqual([]);
  });
});
