/** Structure (edges, not colours) of real screenshots, and the colour role of a text. */
import { describe, expect, test } from 'vitest';
import type { Frame } from '../../src/domain.ts';
import { structureSimilarity } from '../../src/vision/structure.ts';
import { colourRole } from '../../src/vision/colour-role.ts';
import { crop, createFrame } from '../../src/vision/frame.ts';
import { EFFECT_THRESHOLDS } from '../../src/brain/thresholds.ts';
import { drawn, loadImage } from './helpers.ts';

/** Repaints a frame in another theme: light turns dark, and everything gets a warm tint. */
function retheme(frame: Frame): Frame {
  const out = createFrame(frame.width, frame.height);
  for (let i = 0; i < frame.data.length; i += 4) {
    const l = (frame.data[i]! * 77 + frame.data[i + 1]! * 150 + frame.data[i + 2]! * 29) >> 8;
    const v = 255 - l;
    out.data[i] = Math.min(255, 20 + v * 0.9);
    out.data[i + 1] = Math.min(255, 24 + v * 0.8);
    out.data[i + 2] = Math.min(255, 30 + v * 0.6);
    out.data[i + 3] = 255;
  }
  return out;
}

describe('structureSimilarity', () => {
  const calc84 = loadImage('fixture-calculator-84');
  const calc8 = loadImage('fixture-calculator-7-plus-8');
  const display = { x: 12, y: 12, width: 336, height: 84 };

  test('the same display in another theme (light and dark swapped, tinted) has the same structure', () => {
    expect(structureSimilarity(crop(calc84, display), retheme(crop(calc84, display)))).toBeGreaterThanOrEqual(0.95);
  });

  test("a selected list item in a dark theme has the selection's structure, the item unselected not", () => {
    const selected = loadImage('list-cherry-selected');
    expect(structureSimilarity(selected, loadImage('list-cherry-selected-dark'))).toBeGreaterThanOrEqual(EFFECT_THRESHOLDS.structureMin);
    expect(structureSimilarity(selected, loadImage('list-cherry-unselected'))).toBeLessThan(0.8);
  });

  test('a selected list item in a larger font: its structure differs, around its label it is the same', () => {
    const selected = loadImage('list-cherry-selected');
    const larger = loadImage('list-cherry-selected-larger');
    // "Cherry" in either size, with the margin effects are padded by.
    const label = [{ x: 11, y: 7, width: 75, height: 33 }];
    expect(structureSimilarity(selected, larger)).toBeLessThan(EFFECT_THRESHOLDS.structureMin);
    expect(structureSimilarity(selected, larger, label)).toBeGreaterThanOrEqual(EFFECT_THRESHOLDS.structureMin);
    expect(structureSimilarity(selected, loadImage('list-cherry-unselected-larger'), label)).toBeLessThan(0.5);
    // Left out where either frame has edges, the rest compares flat to flat.
    expect(structureSimilarity(loadImage('list-cherry-unselected'), loadImage('list-cherry-unselected-larger'), label)).toBe(1);
  });

  test('another value in the display does not', () => {
    expect(structureSimilarity(crop(calc84, display), crop(calc8, display))).toBeLessThan(0.8);
  });

  test('look-alike keys (their frames alike, their labels not) stay below the effect threshold', () => {
    const key = (x: number, y: number): Frame => crop(calc84, { x, y, width: 78, height: 66 });
    expect(structureSimilarity(key(12, 108), key(98, 108))).toBeLessThan(EFFECT_THRESHOLDS.structureMin);
    expect(structureSimilarity(key(184, 182), key(12, 329))).toBeLessThan(EFFECT_THRESHOLDS.structureMin);
  });

  test('flat frames are alike; a flat and a drawn one are not', () => {
    const flat = drawn(20, 10, [250, 250, 250, 255]);
    expect(structureSimilarity(flat, drawn(20, 10, [30, 30, 30, 255]))).toBe(1);
    expect(structureSimilarity(flat, drawn(20, 10, [250, 250, 250, 255], [[{ x: 5, y: 2, width: 6, height: 6 }, [0, 0, 0, 255]]]))).toBe(0);
  });
});

describe('colourRole', () => {
  const text = (ground: [number, number, number], ink: [number, number, number]): Frame =>
    drawn(
      60,
      20,
      [...ground, 255],
      [
        [{ x: 6, y: 4, width: 3, height: 12 }, [...ink, 255]],
        [{ x: 14, y: 4, width: 8, height: 3 }, [...ink, 255]],
        [{ x: 26, y: 4, width: 3, height: 12 }, [...ink, 255]],
      ],
    );

  test('dark or light text on greys is plain, whatever the theme', () => {
    expect(colourRole(text([255, 255, 255], [17, 17, 17]))).toBe('plain');
    expect(colourRole(text([32, 33, 36], [232, 232, 232]))).toBe('plain');
    expect(colourRole(crop(loadImage('fixture-calculator-84'), { x: 12, y: 12, width: 336, height: 84 }))).toBe('plain');
  });

  test('red ink, or a pink box, is an alert; green ink a success', () => {
    expect(colourRole(text([255, 255, 255], [180, 20, 20]))).toBe('alert');
    expect(colourRole(text([247, 218, 218], [92, 13, 13]))).toBe('alert');
    expect(colourRole(text([242, 201, 201], [17, 17, 17]))).toBe('alert');
    expect(colourRole(text([216, 239, 216], [15, 61, 15]))).toBe('success');
  });

  /** A box of `box` colour with the text inside, on a page of `page` colour around it (3 px). */
  const boxed = (page: [number, number, number], box: [number, number, number], ink: [number, number, number]): Frame =>
    drawn(
      66,
      26,
      [...page, 255],
      [
        [{ x: 3, y: 3, width: 60, height: 20 }, [...box, 255]],
        [{ x: 9, y: 7, width: 3, height: 12 }, [...ink, 255]],
        [{ x: 17, y: 7, width: 8, height: 3 }, [...ink, 255]],
      ],
    );

  test('a dark theme keeps the role: a dark green on a dark page, a message box on a dark page', () => {
    expect(colourRole(text([32, 33, 36], [29, 90, 29]))).toBe('success');
    expect(colourRole(boxed([32, 33, 36], [216, 239, 216], [15, 61, 15]))).toBe('success');
    expect(colourRole(boxed([32, 33, 36], [247, 218, 218], [92, 13, 13]))).toBe('alert');
    expect(colourRole(boxed([32, 33, 36], [43, 45, 49], [232, 232, 232]))).toBe('plain');
    // Nothing stands off the ground: no ink, whatever its faint hue.
    expect(colourRole(text([32, 33, 36], [40, 52, 40]))).toBe('plain');
  });

  test('a pale green or yellow box alone is a plain tint', () => {
    expect(colourRole(text([223, 231, 212], [17, 17, 17]))).toBe('plain');
    expect(colourRole(text([255, 243, 196], [58, 47, 0]))).toBe('plain');
  });
});
