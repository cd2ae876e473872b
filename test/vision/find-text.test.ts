/** findText's matching rules, with a scripted reader (no OCR engine). */
import { describe, expect, it } from 'vitest';
import type { Frame, Region } from '../../src/domain.ts';
import { createFrame } from '../../src/vision/frame.ts';
import { findText, matchKey, readText } from '../../src/vision/ocr/find-text.ts';
import type { OcrResult, ReadOptions, TextBox, TextReader } from '../../src/vision/types.ts';

const word = (text: string, x: number, y: number, width: number, confidence = 90): TextBox => ({
  text,
  box: { x, y, width, height: 12 },
  confidence,
});

/** A reader that answers every whole-frame read with the same page and records its calls. */
class ScriptedReader implements TextReader {
  readonly calls: { frame: Frame; options?: ReadOptions }[] = [];
  constructor(private readonly lines: TextBox[][]) {}
  async read(frame: Frame, options?: ReadOptions): Promise<OcrResult> {
    this.calls.push({ frame, ...(options ? { options } : {}) });
    const words = this.lines.flat();
    const lines = this.lines.map((ws) => {
      const x0 = Math.min(...ws.map((w) => w.box.x));
      const x1 = Math.max(...ws.map((w) => w.box.x + w.box.width));
      const box: Region = { x: x0, y: ws[0]!.box.y, width: x1 - x0, height: 12 };
      return { text: ws.map((w) => w.text).join(' '), box, confidence: 90 };
    });
    return { text: lines.map((l) => l.text).join('\n'), words, lines };
  }
  async close(): Promise<void> {}
}

const page = new ScriptedReader([
  [word('File', 10, 5, 20), word('Edit', 40, 5, 22)],
  [word('Settings:', 100, 40, 60)],
  [word('Dark', 100, 80, 30), word('mode', 135, 80, 35), word('on', 175, 80, 14)],
  [word('12', 100, 120, 14), word('x', 120, 120, 8), word('7', 132, 120, 8, 40)],
  [word('Darkmode', 100, 160, 64)],
]);
const blank = createFrame(300, 200, [255, 255, 255, 255]);

describe('findText (whole-frame pass)', () => {
  it('finds a word, ignoring case and punctuation at its ends', async () => {
    const hits = await findText(page, blank, 'settings', { labels: 'never' });
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ box: { x: 100, y: 40, width: 60, height: 12 }, read: 'Settings:', source: 'frame' });
    expect(hits[0]!.score).toBeCloseTo(0.96, 5); // exact, confidence 90
  });

  it('finds runs of words and boxes them together', async () => {
    const [hit] = await findText(page, blank, 'Dark  mode', { labels: 'never' });
    expect(hit?.box).toEqual({ x: 100, y: 80, width: 70, height: 12 });
    expect(hit?.read).toBe('Dark mode');
  });

  it('tolerates OCR slips on long targets only', async () => {
    expect(await findText(page, blank, 'Setings', { labels: 'never' })).toHaveLength(1);
    expect(await findText(page, blank, 'Fle', { labels: 'never' })).toHaveLength(0); // short: exact only
    const [part] = await findText(page, blank, 'Fil', { labels: 'never' }); // part of a word, scored lower
    expect(part?.box.x).toBe(10);
    expect(part!.score).toBeLessThan(0.9);
    expect(await findText(page, blank, 'Edit', { labels: 'never' })).toHaveLength(1);
  });

  it('reads "x" as a multiplication sign for "×" and "*" targets, and scores by confidence', async () => {
    for (const target of ['×', '*']) {
      const [hit] = await findText(page, blank, target, { labels: 'never' });
      expect(hit?.box.x).toBe(120);
    }
    const [seven] = await findText(page, blank, '7', { labels: 'never' });
    expect(seven?.score).toBeCloseTo(0.76, 5); // confidence 40
    expect(await findText(page, blank, '7', { labels: 'never', minScore: 0.8 })).toEqual([]);
  });

  it('finds a target inside a longer word, on a slice of its box', async () => {
    const hits = await findText(page, blank, 'mode', { labels: 'never' });
    expect(hits.map((h) => h.box.y)).toEqual([80, 160]);
    expect(hits[1]!.box).toEqual({ x: 132, y: 160, width: 32, height: 12 });
    expect(hits[1]!.score).toBeLessThan(hits[0]!.score);
  });

  it('searches a region and reports frame coordinates', async () => {
    const reader = new ScriptedReader([[word('OK', 5, 5, 20)]]);
    const [hit] = await findText(reader, blank, 'ok', { region: { x: 200, y: 100, width: 80, height: 60 }, labels: 'never' });
    expect(hit?.box).toEqual({ x: 205, y: 105, width: 20, height: 12 });
    expect([reader.calls[0]!.frame.width, reader.calls[0]!.frame.height]).toEqual([80, 60]);
  });

  it('returns nothing for an empty target or text that is not there', async () => {
    expect(await findText(page, blank, '   ')).toEqual([]);
    expect(await findText(page, blank, 'Network', { labels: 'never' })).toEqual([]);
  });

  it('matches with the same keys as the spec side', () => {
    expect(matchKey('  12 × 7 ÷ 2 − 1 ')).toBe('12 * 7 / 2 - 1');
  });
});

describe('readText', () => {
  it('returns the page text when there is nothing else to read', async () => {
    expect(await readText(page, blank)).toBe('File Edit\nSettings:\nDark mode on\n12 x 7\nDarkmode');
  });
});
