/**
 * Region reads on screenshots of retrace's own fixture apps (Xvfb + chromium, see
 * images/README.md): what the `text:` assertions of a spec see. Borders around or cut by a
 * region must not come out as brackets, bars or dots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Region } from '../../src/domain.ts';
import { findText, readText } from '../../src/vision/ocr/find-text.ts';
import { closeSharedTextReader, sharedTextReader, type TesseractReader } from '../../src/vision/ocr/tesseract-reader.ts';
import { matchText } from '../../src/vision/text-match.ts';
import { centre, inside, loadImage } from '../vision/helpers.ts';

const box = (x: number, y: number, width: number, height: number): Region => ({ x, y, width, height });
/** Settings app, Display screen, dark theme: "Dark mode" with an "On" badge. */
const settings = loadImage('fixture-settings-dark');
/** Calculator after "12*7" Enter: "12 * 7 =" over "84". */
const calc84 = loadImage('fixture-calculator-84');
/** Calculator after "7+8": "7 +" over "8". */
const calc78 = loadImage('fixture-calculator-7-plus-8');
/** "12 * 7 =" over "84" in the theme=dark and font=larger variants; "12 *" over "12" in font=larger. */
const calc84Dark = loadImage('fixture-calculator-84-dark');
const calc84Larger = loadImage('fixture-calculator-84-larger');
const calc12TimesLarger = loadImage('fixture-calculator-12-times-larger');

/** Regions of the calculator (fixtures/apps/apps.json at the default size). */
const CALC = {
  display: box(12, 12, 336, 84),
  value: box(14, 40, 332, 54),
  expression: box(14, 14, 332, 28),
};
const KEYS: readonly [string, Region][] = [
  ['7', box(12, 108, 78, 66)],
  ['8', box(98, 108, 78, 66)],
  ['9', box(184, 108, 78, 66)],
  ['/', box(270, 108, 78, 66)],
  ['4', box(12, 182, 78, 66)],
  ['5', box(98, 182, 78, 66)],
  ['6', box(184, 182, 78, 66)],
  ['*', box(270, 182, 78, 66)],
  ['1', box(12, 255, 78, 66)],
  ['2', box(98, 255, 78, 66)],
  ['3', box(184, 255, 78, 66)],
  ['-', box(270, 255, 78, 66)],
  ['0', box(12, 329, 78, 66)],
  ['.', box(98, 329, 78, 66)],
  ['=', box(184, 329, 78, 66)],
  ['+', box(270, 329, 78, 66)],
  ['C', box(12, 402, 336, 66)],
];

let reader: TesseractReader;
beforeAll(async () => {
  reader = sharedTextReader();
  await reader.warmUp();
});
afterAll(async () => {
  await closeSharedTextReader();
});

describe('readText on regions of the fixture apps', () => {
  it('reads a bordered badge as "On", whether the region is its border or around it', async () => {
    expect(await readText(reader, settings, box(247, 76, 53, 32))).toBe('On'); // exactly the border
    expect(await readText(reader, settings, box(240, 70, 70, 44))).toBe('On'); // the border inside
    expect(await readText(reader, settings, box(240, 85, 70, 20))).toBe('On'); // cuts the border's sides
    expect(await readText(reader, settings, box(250, 80, 40, 24))).toBe('On'); // inside the border
    expect(await readText(reader, settings, box(18, 64, 300, 56))).toBe('Dark mode On'); // the whole toggle
  });

  it('reads the calculator value without the display border corners', async () => {
    const value = await readText(reader, calc84, CALC.value);
    expect(value).toBe('84');
    expect(matchText(value, '84', 'exact').ok).toBe(true);
    expect(await readText(reader, calc78, CALC.value)).toBe('8');
  });

  it('reads the expression line and the whole display, line by line', async () => {
    expect(await readText(reader, calc78, CALC.expression)).toBe('7 +');
    expect(await readText(reader, calc78, CALC.display)).toBe('7 +\n8');
    expect(await readText(reader, calc84, CALC.display)).toBe('12 * 7 =\n84');
  });

  it('reads the small raised "*" of "12 * 7 =" the same in every theme and font size', async () => {
    // As effects are recorded and verified: the changed region, padded. The model read its
    // asterisk as "+", "*%" or "#" depending on the scale and the theme's anti-aliasing.
    const expression = box(257, 19, 80, 19);
    for (const frame of [calc84, calc84Dark, calc84Larger]) expect(await readText(reader, frame, expression)).toBe('12 * 7 =');
    expect(await readText(reader, calc84Dark, CALC.display)).toBe('12 * 7 =\n84');
    expect(await readText(reader, calc84Larger, CALC.display)).toBe('12 * 7 =\n84');
    // The box the model gave "12" reached over the "*", whose label read then replaced it.
    expect(await readText(reader, calc12TimesLarger, box(295, 19, 42, 19))).toBe('12 *');
  });

  it('reads each key region as its label, "." and "=" included', async () => {
    for (const [label, key] of KEYS) expect(await readText(reader, calc78, key), `key ${label}`).toBe(label);
  });
});

describe('readText and findText on whole fixture windows', () => {
  it('reads the windows label by label', async () => {
    expect(await readText(reader, settings)).toBe('Display\nDark mode On\nBack');
    expect(await readText(reader, calc78)).toBe('7 +\n8\n7 8 9 /\n4 5 6 *\n1 2 3 -\n0 . = +\nC');
    const lines = (await readText(reader, calc84)).split('\n');
    expect(lines.slice(1)).toEqual(['84', '7 8 9 /', '4 5 6 *', '1 2 3 -', '0 . = +', 'C']);
  });

  it('finds single keys on their keys', async () => {
    for (const [label, key] of KEYS) {
      if (!['7', '=', '-', '.', '+', '*', '/', 'C', '0'].includes(label)) continue;
      const hits = await findText(reader, calc78, label);
      expect(
        hits.some((h) => inside(centre(h.box), key)),
        `"${label}" in ${JSON.stringify(hits.map((h) => h.box))}`,
      ).toBe(true);
    }
  });
});
