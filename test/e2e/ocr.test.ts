/** Real OCR (tesseract.js with the shipped English data) on real screenshots. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame, Region } from '../../src/domain.ts';
import { InfrastructureError } from '../../src/errors.ts';
import { cloneFrame, crop } from '../../src/vision/frame.ts';
import { findText, readAll, readText } from '../../src/vision/ocr/find-text.ts';
import { ReadCache } from '../../src/vision/ocr/label-reads.ts';
import { TesseractReader, closeSharedTextReader, sharedTextReader } from '../../src/vision/ocr/tesseract-reader.ts';
import type { OcrResult, ReadOptions, TextReader } from '../../src/vision/types.ts';
import { centre, inside, loadImage } from '../vision/helpers.ts';

const box = (x: number, y: number, width: number, height: number): Region => ({ x, y, width, height });
const settings = loadImage('settings');
const calc = loadImage('galculator');
const calc84 = loadImage('galculator-84');
const keypad = loadImage('keypad');

let reader: TesseractReader;
beforeAll(async () => {
  reader = sharedTextReader();
  await reader.warmUp();
});
afterAll(async () => {
  await closeSharedTextReader();
});

/** Counts the reads that reach the engine. */
class Counting implements TextReader {
  reads = 0;
  constructor(private readonly inner: TextReader) {}
  read(frame: Frame, options?: ReadOptions): Promise<OcrResult> {
    this.reads++;
    return this.inner.read(frame, options);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

describe('TesseractReader', () => {
  it('is one shared instance', () => {
    expect(sharedTextReader()).toBe(reader);
  });

  it('reads a settings page with word boxes in frame coordinates', async () => {
    const page = await reader.read(settings);
    expect(page.text).toContain('Dark mode');
    expect(page.text).toContain('Result 84');
    const word = page.words.find((w) => w.text === 'Settings');
    expect(word).toBeDefined();
    expect(Math.abs(word!.box.x - 137)).toBeLessThanOrEqual(3);
    expect(Math.abs(word!.box.y - 44)).toBeLessThanOrEqual(3);
    expect(Math.abs(word!.box.width - 93)).toBeLessThanOrEqual(4);
    expect(word!.confidence).toBeGreaterThan(80);
    const line = page.lines.find((l) => l.text === 'Font size 12 pt');
    expect(line?.box.x).toBeLessThanOrEqual(140);
    expect(line!.box.x + line!.box.width).toBeGreaterThanOrEqual(320);
  });

  it('reads light text on a dark selection and a single character', async () => {
    expect((await reader.read(crop(settings, box(0, 60, 120, 32)), { layout: 'line' })).text).toBe('Display');
    expect((await reader.read(crop(calc, box(20, 188, 30, 22)), { layout: 'char' })).text).toBe('7');
  });

  it('restricts characters to a whitelist', async () => {
    const read = await reader.read(crop(settings, box(130, 150, 200, 26)), { layout: 'line', whitelist: '0123456789' });
    expect(read.text).toMatch(/^[0-9 ]*$/);
    expect(read.text).toContain('84');
  });

  it('names the missing OCR data file', async () => {
    const broken = new TesseractReader({ langPath: '/nonexistent/tessdata' });
    const error = await broken.read(calc).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as InfrastructureError).code).toBe('OCR_DATA');
    expect((error as Error).message).toContain('/nonexistent/tessdata/eng.traineddata.gz');
    await broken.close();
  });
});

describe('findText', () => {
  it('finds "Settings" and "Dark mode" on a settings page', async () => {
    const [settingsHit] = await findText(reader, settings, 'Settings');
    expect(inside(centre(settingsHit!.box), box(134, 40, 100, 27))).toBe(true);
    const [dark] = await findText(reader, settings, 'dark mode');
    expect(inside(centre(dark!.box), box(136, 86, 80, 17))).toBe(true);
    expect(await findText(reader, settings, 'Bluetooth')).toEqual([]);
  });

  it('finds single-character keys of a real calculator on their keys', async () => {
    const keys: [string, Region][] = [
      ['7', box(5, 182, 61, 36)],
      ['+', box(200, 302, 61, 36)],
      ['=', box(265, 262, 61, 76)],
      ['-', box(200, 262, 61, 36)],
      ['×', box(200, 222, 61, 36)],
      ['÷', box(200, 182, 61, 36)],
      ['C', box(160, 96, 52, 36)],
    ];
    for (const [text, key] of keys) {
      const hits = await findText(reader, calc, text);
      expect(hits.length, `hits for ${text}`).toBeGreaterThan(0);
      expect(inside(centre(hits[0]!.box), key), `"${text}" at ${JSON.stringify(hits[0]!.box)}`).toBe(true);
    }
  });

  it('finds operator keys the English model cannot read, and no "+" on the "±" key', async () => {
    const divide = await findText(reader, keypad, '÷');
    expect(inside(centre(divide[0]!.box), box(65, 61, 54, 40))).toBe(true);
    const plus = await findText(reader, keypad, '+');
    expect(plus).toHaveLength(1);
    expect(inside(centre(plus[0]!.box), box(181, 105, 54, 40))).toBe(true);
    const equals = await findText(reader, keypad, '=');
    expect(inside(centre(equals[0]!.box), box(181, 149, 54, 40))).toBe(true);
  });

  it('finds keys in a dark theme (the calculator, inverted)', async () => {
    const dark = cloneFrame(calc);
    for (let i = 0; i < dark.data.length; i++) if (i % 4 !== 3) dark.data[i] = 255 - dark.data[i]!;
    for (const [text, key] of [
      ['+', box(200, 302, 61, 36)],
      ['7', box(5, 182, 61, 36)],
      ['Calculator', box(130, 0, 80, 24)],
    ] as const) {
      const hits = await findText(reader, dark, text);
      expect(inside(centre(hits[0]!.box), key), `"${text}"`).toBe(true);
    }
  });

  it('remembers label reads: a second search on the same keys reads nothing', async () => {
    const counting = new Counting(reader);
    const cache = new ReadCache();
    await findText(counting, calc, '8', { cache });
    const first = counting.reads;
    expect(first).toBeGreaterThan(5);
    await findText(counting, calc, '9', { cache });
    expect(counting.reads - first).toBe(0);
    // Without the cache every label is read again.
    await findText(counting, calc, '9', { cache: null });
    expect(counting.reads - first).toBeGreaterThan(5);
  });
});

describe('readText', () => {
  it('reads "84" in the display', async () => {
    expect(await readText(reader, calc84, box(5, 30, 321, 56))).toBe('84');
    expect(await readText(reader, settings, box(280, 145, 60, 32))).toBe('84');
  });

  it('reads every key of the calculator, page pass plus labels', async () => {
    const all = await readAll(reader, calc);
    const tokens = new Set(all.text.split(/\s+/));
    for (const t of ['File', 'Calculator', '0', '7', '8', '9', '4', '5', '6', '1', '2', '3', '+', '=', 'sqrt', '%']) {
      expect(tokens, `token ${t} in ${JSON.stringify(all.text)}`).toContain(t);
    }
  });
});
