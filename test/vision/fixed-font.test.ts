/**
 * readFixedFont on in-memory gray images drawn with the glyph table (the table itself is checked
 * against real xterm and xcalc screenshots in test/e2e/ocr-real.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { FIXED_CELL } from '../../src/vision/ocr/fixed-font-glyphs.ts';
import { fixedGlyphRows, readFixedFont } from '../../src/vision/ocr/fixed-font.ts';
import type { GrayImage } from '../../src/vision/types.ts';

const white = (width: number, height: number): GrayImage => ({ width, height, data: new Uint8Array(width * height).fill(255) });

/** Draws `text` in the fixed font with its first cell's top left corner at (x, y). */
function write(img: GrayImage, x: number, y: number, text: string, options: { inverted?: number } = {}): void {
  [...text].forEach((ch, i) => {
    const rows = fixedGlyphRows(ch);
    for (let r = 0; r < FIXED_CELL.height; r++) {
      for (let c = 0; c < FIXED_CELL.width; c++) {
        let on = (rows[r]! >> (FIXED_CELL.width - 1 - c)) & 1;
        if (options.inverted === i) on ^= 1;
        if (on) img.data[(y + r) * img.width + x + i * FIXED_CELL.width + c] = 0;
      }
    }
  });
}

const texts = (img: GrayImage): string[] => readFixedFont(img).map((l) => l.words.map((w) => w.text).join(' '));

describe('readFixedFont', () => {
  it('reads lines of the font wherever its cell grid lies, with word boxes', () => {
    const img = white(200, 40);
    write(img, 7, 3, 'user@retrace:~$ echo 10:30;');
    write(img, 7, 16, 'Q3 report.  (B-12) %d\\n');
    const lines = readFixedFont(img);
    expect(lines.map((l) => l.words.map((w) => w.text).join(' '))).toEqual(['user@retrace:~$ echo 10:30;', 'Q3 report. (B-12) %d\\n']);
    expect(lines[0]!.words[1]!.box).toEqual({ x: 7 + 16 * 6, y: 3, width: 4 * 6, height: 13 });
  });

  it('leaves out the block cursor, and reads the glyph under it', () => {
    const img = white(120, 30);
    write(img, 2, 2, '$  ', { inverted: 2 });
    write(img, 2, 15, 'echo', { inverted: 3 });
    expect(texts(img)).toEqual(['$', 'echo']);
  });

  it('reads a lone bar as "-", and as "_" where the line puts it', () => {
    const alone = white(40, 30);
    write(alone, 10, 5, '-');
    expect(texts(alone)).toEqual(['-']);
    const inLine = white(80, 30);
    write(inLine, 2, 5, 'a _ b');
    expect(texts(inLine)).toEqual(['a _ b']);
  });

  it('reads nothing of anti-aliased text or other ink, and leaves a line it cannot read whole', () => {
    const grey = white(100, 20);
    write(grey, 2, 2, 'hello');
    for (let i = 0; i < grey.data.length; i++) if (grey.data[i] === 0 && i % 3 === 0) grey.data[i] = 128;
    expect(readFixedFont(grey)).toEqual([]);
    const mixed = white(100, 20);
    write(mixed, 2, 2, 'hello');
    for (let y = 4; y < 12; y++) mixed.data.fill(0, y * 100 + 60, y * 100 + 70); // a block, not a glyph
    expect(readFixedFont(mixed)).toEqual([]);
  });
});
