/**
 * Real OCR on crops of real applications (images/real: xterm's bitmap font, galculator, xcalc,
 * Tk, zenity, mousepad, a chromium fixture app) against their true text, and finding targets on
 * them as the rules planner does (`click "OK"`, single-character keys).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Region } from '../../src/domain.ts';
import { findText, readText } from '../../src/vision/ocr/find-text.ts';
import { closeSharedTextReader, sharedTextReader, type TesseractReader } from '../../src/vision/ocr/tesseract-reader.ts';
import { matchText } from '../../src/vision/text-match.ts';
import { centre, inside } from '../vision/helpers.ts';
import { loadRealCrops, scoreWords, wordAccuracy, type RealCrop, type WordScore } from '../vision/real-crops.ts';

const crops = loadRealCrops();
const cropOf = (file: string): RealCrop => crops.find((c) => c.file === `${file}.png`)!;
const box = (x: number, y: number, width: number, height: number): Region => ({ x, y, width, height });
/** A key of xcalc's 5-column grid of 45×30 px cells (column, row from 0), in a crop of it. */
const xcalcKey = (column: number, row: number): Region => box(45 * column, 30 * row, 44, 28);

let reader: TesseractReader;
beforeAll(async () => {
  reader = sharedTextReader();
  await reader.warmUp();
});
afterAll(async () => {
  await closeSharedTextReader();
});

describe('readText on crops of real applications', () => {
  it('reads at least 98 % of the words exactly', async () => {
    const scores = new Map<RealCrop, WordScore>();
    for (const crop of crops) scores.set(crop, scoreWords(crop.text, await readText(reader, crop.frame, undefined, { cache: null })));
    const accuracy = wordAccuracy([...scores.values()]);
    const wrong = [...scores]
      .filter(([, s]) => s.errors > 0)
      .map(([c, s]) => `${c.file}: missed ${JSON.stringify(s.missed)}, read ${JSON.stringify(s.extra)}`);
    const words = [...scores.values()].reduce((n, s) => n + s.words, 0);
    expect(words).toBeGreaterThan(300);
    expect(accuracy, `word accuracy ${(100 * accuracy).toFixed(1)} %\n${wrong.join('\n')}`).toBeGreaterThanOrEqual(0.98);
  });

  it("reads xterm's default font and xcalc's keys exactly: the example of retrace init passes", async () => {
    for (const crop of crops.filter((c) => c.app === 'xterm' || c.app === 'xcalc')) {
      const read = await readText(reader, crop.frame, undefined, { cache: null });
      expect(scoreWords(crop.text, read), crop.file).toMatchObject({ errors: 0 });
    }
    const shell = await readText(reader, cropOf('xterm-1').frame);
    expect(matchText(shell, 'hello from retrace').ok).toBe(true);
    expect(shell.split('\n')).toEqual(['user@retrace:~$ echo hello from retrace', 'hello from retrace', 'user@retrace:~$']);
  });

  it('reads faint text beside strong text: a dark green "Saved" on a dark page (notes, theme=dark)', async () => {
    // The whole-window stretch, set by the light grey text, took the green for ground: the page
    // read lost it, and label reads made "S a\ Vv ed" of its letters.
    const crop = cropOf('chromium-2');
    const read = await readText(reader, crop.frame, undefined, { cache: null });
    expect(read.split('\n')).toContain('Save New Saved');
    expect(scoreWords(crop.text, read), read).toMatchObject({ errors: 0 });
  });
});

describe('findText on real applications', () => {
  const expectAt = async (file: string, targets: readonly (readonly [string, Region])[]): Promise<void> => {
    const frame = cropOf(file).frame;
    for (const [text, where] of targets) {
      const [best] = await findText(reader, frame, text);
      expect(best, `"${text}" on ${file}`).toBeDefined();
      expect(inside(centre(best!.box), where), `"${text}" on ${file} at ${JSON.stringify(best!.box)}`).toBe(true);
    }
  };

  it('finds the buttons of zenity dialogs', async () => {
    await expectAt('zenity-5', [['OK', box(139, 79, 84, 32)]]);
    await expectAt('zenity-1', [
      ['Yes', box(293, 79, 85, 32)],
      ['No', box(204, 79, 85, 32)],
    ]);
    await expectAt('zenity-3', [
      ['OK', box(208, 155, 85, 34)],
      ['Cancel', box(118, 155, 85, 34)],
    ]);
  });

  it("finds galculator's single-character keys", async () => {
    await expectAt('galculator-1', [
      ['7', box(5, 182, 61, 36)],
      ['C', box(160, 96, 52, 36)],
      ['+', box(200, 302, 61, 36)],
      ['-', box(200, 262, 61, 36)],
      ['=', box(265, 262, 61, 76)],
      ['*', box(200, 222, 61, 36)],
      ['.', box(70, 302, 61, 36)],
    ]);
  });

  it('finds xcalc\'s keys in its bitmap font, telling "e" from "E"', async () => {
    await expectAt('xcalc-3', [
      ['7', xcalcKey(1, 0)],
      ['*', xcalcKey(4, 0)],
      ['-', xcalcKey(4, 1)],
      ['+', xcalcKey(4, 2)],
      ['.', xcalcKey(2, 3)],
      ['=', xcalcKey(4, 3)],
    ]);
    await expectAt('xcalc-2', [
      ['e', xcalcKey(0, 1)],
      ['E', xcalcKey(2, 4)],
      ['ln', xcalcKey(3, 1)],
      ['(', xcalcKey(2, 3)],
    ]);
  });
});
