/**
 * Asterisks told by their shape (asterisks.ts, reported by cleanInk): drawn in memory beside
 * other glyphs, and on screenshots of the calculator fixture, whose display shows "12 * 7 =".
 */
import { describe, expect, it } from 'vitest';
import type { Region } from '../../src/domain.ts';
import { crop } from '../../src/vision/frame.ts';
import { cleanInk } from '../../src/vision/ocr/ink-clean.ts';
import { normalizeForOcr } from '../../src/vision/ocr/preprocess.ts';
import type { GrayImage } from '../../src/vision/types.ts';
import { loadImage } from './helpers.ts';
import { loadRealCrops } from './real-crops.ts';

const white = (width: number, height: number): GrayImage => ({ width, height, data: new Uint8Array(width * height).fill(255) });
const dot = (img: GrayImage, x: number, y: number): void => {
  img.data[y * img.width + x] = 0;
};
/** A digit stand-in: a bar 4 wide. */
const bar = (img: GrayImage, x: number, y: number, height: number): void => {
  for (let k = 0; k < height; k++) for (const dx of [0, 1, 2, 3]) dot(img, x + dx, y + k);
};
/** Draws a pattern of rows ("#" ink) with its top-left at (x, y). */
const draw = (img: GrayImage, x: number, y: number, rows: readonly string[]): void =>
  rows.forEach((row, dy) => [...row].forEach((c, dx) => c === '#' && dot(img, x + dx, y + dy)));
/** A six-armed asterisk, 9×9 (DejaVu Sans draws one a little smaller). */
const STAR = ['....#....', '#...#...#', '.##.#.##.', '...###...', '....#....', '...###...', '.##.#.##.', '#...#...#', '....#....'];
/** A plus, 9×9: four arms. */
const PLUS = ['....#....', '....#....', '....#....', '....#....', '#########', '....#....', '....#....', '....#....', '....#....'];

describe('findAsterisks (through cleanInk)', () => {
  it('finds an asterisk standing raised between two digits', () => {
    const img = white(60, 30);
    bar(img, 10, 6, 16); // "1"
    draw(img, 22, 6, STAR);
    bar(img, 40, 6, 16); // "7"
    expect(cleanInk(img).asterisks).toEqual([{ x: 22, y: 6, width: 9, height: 9 }]);
  });

  it('leaves a raised plus, an asterisk on the baseline and one alone to OCR', () => {
    const raisedPlus = white(60, 30);
    bar(raisedPlus, 10, 6, 16);
    draw(raisedPlus, 22, 6, PLUS);
    bar(raisedPlus, 40, 6, 16);
    expect(cleanInk(raisedPlus).asterisks).toEqual([]);
    const low = white(60, 30);
    bar(low, 10, 6, 16);
    draw(low, 22, 13, STAR);
    bar(low, 40, 6, 16);
    expect(cleanInk(low).asterisks).toEqual([]);
    const alone = white(30, 30);
    draw(alone, 10, 10, STAR);
    expect(cleanInk(alone).asterisks).toEqual([]);
  });

  const asterisksIn = (file: string, region: Region): readonly Region[] => {
    const normalized = normalizeForOcr(crop(loadImage(file), region), { layout: 'block' });
    return normalized.clean?.asterisks ?? [];
  };

  it("finds the display's asterisk in every theme and font size, not the key's", () => {
    const expression = { x: 257, y: 19, width: 80, height: 19 };
    for (const file of ['fixture-calculator-84', 'fixture-calculator-84-dark', 'fixture-calculator-84-larger']) {
      const found = asterisksIn(file, expression);
      expect(found, file).toHaveLength(1);
      expect(found[0]!.x, file).toBeGreaterThan(25);
      expect(found[0]!.x, file).toBeLessThan(35);
    }
    expect(asterisksIn('fixture-calculator-84', { x: 270, y: 182, width: 78, height: 66 })).toEqual([]);
  });

  it('finds none on the real apps: letters, digits and keys are not asterisks', () => {
    for (const c of loadRealCrops()) expect(normalizeForOcr(c.frame, { layout: 'block' }).clean?.asterisks ?? [], c.file).toEqual([]);
  });
});
