/**
 * Text for the desktop in memory: a 3×5 bitmap font drawn at a fixed scale, and a reader that
 * reads it back exactly (in any colours: ink is what contrasts with the background). It lets the
 * brain's unit tests verify effects by what they say without tesseract.
 */
import type { Frame, Point, Region } from '../../src/domain.ts';
import type { OcrResult, TextBox, TextReader } from '../../src/vision/types.ts';
import { crop, fillRegion } from '../../src/vision/frame.ts';
import type { Rgba } from '../../src/vision/types.ts';

/** Pixels per font dot. */
export const DOT = 3;
const GLYPH_W = 3 * DOT;
const GLYPH_H = 5 * DOT;
const SPACING = DOT;
const SPACE = 3 * DOT;

const FONT: Readonly<Record<string, string>> = {
  '0': '### #.# #.# #.# ###',
  '1': '.#. ##. .#. .#. ###',
  '2': '### ..# ### #.. ###',
  '3': '### ..# ### ..# ###',
  '4': '#.# #.# ### ..# ..#',
  '5': '### #.. ### ..# ###',
  '6': '### #.. ### #.# ###',
  '7': '### ..# ..# ..# ..#',
  '8': '### #.# ### #.# ###',
  '9': '### #.# ### ..# ###',
  A: '.#. #.# ### #.# #.#',
  C: '### #.. #.. #.. ###',
  D: '##. #.# #.# #.# ##.',
  E: '### #.. ### #.. ###',
  N: '##. #.# #.# #.# #.#',
  O: '.#. #.# #.# #.# .#.',
  R: '##. #.# ##. #.# #.#',
  S: '.## #.. .#. ..# ##.',
  T: '### .#. .#. .#. .#.',
  U: '#.# #.# #.# #.# ###',
  ':': '... .#. ... .#. ...',
};
const BY_PATTERN = new Map(Object.entries(FONT).map(([ch, rows]) => [rows.replace(/ /g, ''), ch]));

/** The width in pixels of `text` drawn in the font. */
export const textWidth = (text: string): number =>
  [...text].reduce((w, ch, i) => w + (ch === ' ' ? SPACE : GLYPH_W) + (i > 0 ? SPACING : 0), 0);

/** The box `text` takes when drawn at `at`. */
export const textBox = (text: string, at: Point): Region => ({ x: at.x, y: at.y, width: textWidth(text), height: GLYPH_H });

/** Draws `text` (characters of the font, and spaces) with its top-left at `at`. */
export function drawText(frame: Frame, text: string, at: Point, ink: Rgba): void {
  let x = at.x;
  for (const ch of text) {
    if (ch === ' ') {
      x += SPACE + SPACING;
      continue;
    }
    const rows = FONT[ch];
    if (!rows) throw new Error(`the test font has no "${ch}"`);
    const dots = rows.replace(/ /g, '');
    for (let i = 0; i < 15; i++) {
      if (dots[i] === '#') fillRegion(frame, { x: x + (i % 3) * DOT, y: at.y + Math.floor(i / 3) * DOT, width: DOT, height: DOT }, ink);
    }
    x += GLYPH_W + SPACING;
  }
}

const luma = (d: Uint8Array, i: number): number => (d[i]! * 77 + d[i + 1]! * 150 + d[i + 2]! * 29) >> 8;

/** Reads the font back: glyphs found on a 3-pixel dot grid, words split at wide gaps. */
export function readGlyphs(frame: Frame): TextBox[] {
  const { width, height, data } = frame;
  if (width === 0 || height === 0) return [];
  const counts = new Map<number, number>();
  for (let i = 0; i < data.length; i += 4) counts.set(luma(data, i), (counts.get(luma(data, i)) ?? 0) + 1);
  const ground = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) mask[i] = Math.abs(luma(data, i * 4) - ground) > 60 ? 1 : 0;
  const ink = (x: number, y: number): boolean => x >= 0 && y >= 0 && x < width && y < height && mask[y * width + x] === 1;
  const anyDot = (x: number, y: number): boolean => {
    for (let i = 0; i < 15; i++) if (ink(x + (i % 3) * DOT, y + Math.floor(i / 3) * DOT)) return true;
    return false;
  };
  const glyphs: { ch: string; box: Region }[] = [];
  const taken = new Set<number>();
  for (let y = 0; y + GLYPH_H <= height; y++) {
    for (let x = 0; x + GLYPH_W <= width; x++) {
      if (taken.has(y * width + x) || !anyDot(x, y)) continue;
      // A glyph cell: a dot pattern of the font, with no ink right around it.
      let dots = '';
      for (let i = 0; i < 15; i++) {
        const px = x + (i % 3) * DOT;
        const py = y + Math.floor(i / 3) * DOT;
        const on = ink(px, py);
        for (let k = 0; k < DOT * DOT; k++) if (ink(px + (k % DOT), py + Math.floor(k / DOT)) !== on) dots += '?';
        dots += on ? '#' : '.';
      }
      const ch = BY_PATTERN.get(dots);
      if (!ch || !dots.includes('#')) continue;
      let clear = true;
      for (let k = -1; k <= GLYPH_W && clear; k++) clear = !ink(x + k, y - 1) && !ink(x + k, y + GLYPH_H);
      for (let k = 0; k < GLYPH_H && clear; k++) clear = !ink(x - 1, y + k) && !ink(x + GLYPH_W, y + k);
      if (!clear) continue;
      glyphs.push({ ch, box: { x, y, width: GLYPH_W, height: GLYPH_H } });
      for (let dy = 0; dy < GLYPH_H; dy++) for (let dx = 0; dx < GLYPH_W; dx++) taken.add((y + dy) * width + x + dx);
    }
  }
  glyphs.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
  const words: TextBox[] = [];
  for (const g of glyphs) {
    const last = words[words.length - 1];
    if (last && last.box.y === g.box.y && g.box.x - (last.box.x + last.box.width) <= SPACING) {
      words[words.length - 1] = { text: last.text + g.ch, box: { ...last.box, width: g.box.x + g.box.width - last.box.x }, confidence: 95 };
    } else {
      words.push({ text: g.ch, box: g.box, confidence: 95 });
    }
  }
  return words;
}

/** A TextReader that reads the test font exactly. */
export const glyphReader: TextReader = {
  read: async (frame: Frame): Promise<OcrResult> => {
    const words = readGlyphs(frame);
    const lines: TextBox[] = [];
    for (const w of words) {
      const line = lines[lines.length - 1];
      if (line && line.box.y === w.box.y) {
        lines[lines.length - 1] = {
          text: `${line.text} ${w.text}`,
          box: { ...line.box, width: w.box.x + w.box.width - line.box.x },
          confidence: 95,
        };
      } else lines.push(w);
    }
    return { text: lines.map((l) => l.text).join('\n'), words, lines };
  },
  close: async () => undefined,
};

/** Reads `region` of a frame. */
export const readAt = (frame: Frame, region: Region): string =>
  readGlyphs(crop(frame, region))
    .map((w) => w.text)
    .join(' ');
