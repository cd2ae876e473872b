/** cleanInk on small drawn gray images: borders, lines and specks go, text stays. */
import { describe, expect, it } from 'vitest';
import type { Region } from '../../src/domain.ts';
import { cleanInk } from '../../src/vision/ocr/ink-clean.ts';
import type { GrayImage } from '../../src/vision/types.ts';

const white = (width: number, height: number): GrayImage => ({ width, height, data: new Uint8Array(width * height).fill(255) });

function fill(img: GrayImage, r: Region, value = 0): void {
  for (let y = r.y; y < r.y + r.height; y++) img.data.fill(value, y * img.width + r.x, y * img.width + r.x + r.width);
}

/** A 1 px rectangle outline. */
function outline(img: GrayImage, r: Region): void {
  fill(img, { x: r.x, y: r.y, width: r.width, height: 1 });
  fill(img, { x: r.x, y: r.y + r.height - 1, width: r.width, height: 1 });
  fill(img, { x: r.x, y: r.y, width: 1, height: r.height });
  fill(img, { x: r.x + r.width - 1, y: r.y, width: 1, height: r.height });
}

/** Stand-ins for glyphs: solid blocks 6 wide, `height` tall, with `gaps` px between them. */
function word(img: GrayImage, x: number, y: number, gaps: readonly number[], height = 10): void {
  let at = x;
  for (const gap of [...gaps, 0]) {
    fill(img, { x: at, y, width: 6, height });
    at += 6 + gap;
  }
}

/** A 1 px circle outline of radius r around (cx, cy). */
function circle(img: GrayImage, cx: number, cy: number, r: number): void {
  for (let a = 0; a < 360; a += 2) {
    const x = Math.round(cx + r * Math.cos((a * Math.PI) / 180));
    const y = Math.round(cy + r * Math.sin((a * Math.PI) / 180));
    img.data[y * img.width + x] = 0;
  }
}

const inkAt = (img: GrayImage, x: number, y: number): boolean => img.data[y * img.width + x]! < 200;

describe('cleanInk', () => {
  it('erases a frame around text and keeps the text', () => {
    const img = white(60, 30);
    outline(img, { x: 2, y: 2, width: 56, height: 26 });
    word(img, 12, 10, [2, 2]);
    const report = cleanInk(img);
    expect(report.erased).toEqual([{ x: 2, y: 2, width: 56, height: 26 }]);
    expect(inkAt(img, 2, 15)).toBe(false);
    expect(inkAt(img, 14, 15)).toBe(true);
    expect(report.lines).toEqual([{ x: 12, y: 10, width: 22, height: 10 }]);
    expect(report.textHeight).toBe(10);
  });

  it('erases a border the crop cut (a bar along an edge) but not a short stroke like "l"', () => {
    const img = white(60, 20);
    fill(img, { x: 0, y: 0, width: 2, height: 20 }); // a cut border: touches the edges, 2 text heights
    word(img, 10, 5, [2]);
    fill(img, { x: 26, y: 4, width: 2, height: 11 }); // an "l"
    const report = cleanInk(img);
    expect(report.erased).toEqual([{ x: 0, y: 0, width: 2, height: 20 }]);
    expect(inkAt(img, 26, 8)).toBe(true);
  });

  it('erases long separators and underlines inside the image', () => {
    const img = white(80, 30);
    word(img, 4, 4, [2, 2]);
    fill(img, { x: 2, y: 20, width: 70, height: 2 }); // an underline 7 text heights long
    const report = cleanInk(img);
    expect(report.erased).toEqual([{ x: 2, y: 20, width: 70, height: 2 }]);
    expect(report.lines).toHaveLength(1);
  });

  it('erases specks at the edge far from text, keeps a dot beside text and a dot alone', () => {
    const img = white(100, 24);
    word(img, 60, 6, [2], 12);
    img.data[23 * 100 + 0] = 120; // a border's rounded corner at the crop's corner
    img.data[23 * 100 + 99] = 120;
    fill(img, { x: 82, y: 16, width: 2, height: 2 }); // a full stop after the word
    const report = cleanInk(img);
    expect(report.erased).toHaveLength(2);
    expect(inkAt(img, 0, 23)).toBe(false);
    expect(inkAt(img, 82, 16)).toBe(true);

    const dot = white(20, 20);
    fill(dot, { x: 9, y: 9, width: 2, height: 2 }); // the "." key, nothing else
    expect(cleanInk(dot).erased).toEqual([]);
  });

  it('erases a faint speck far from text inside the image, keeps a dark one', () => {
    const img = white(60, 20);
    word(img, 10, 5, [2]);
    fill(img, { x: 45, y: 10, width: 2, height: 2 }, 150); // faint: darkest pixel lighter than 100
    fill(img, { x: 45, y: 3, width: 2, height: 2 }, 150);
    img.data[3 * 60 + 46] = 40; // one dark pixel makes this one dark
    const report = cleanInk(img);
    expect(report.erased).toEqual([{ x: 45, y: 10, width: 2, height: 2 }]);
    expect(inkAt(img, 45, 3)).toBe(true);
  });

  it('finds lines and word spaces', () => {
    const img = white(100, 50);
    word(img, 10, 5, [2, 2, 8, 2]); // two words: a 2 px gap inside, 8 px between
    word(img, 10, 30, [2], 14);
    const report = cleanInk(img);
    expect(report.lines.map((l) => [l.y, l.height])).toEqual([
      [5, 10],
      [30, 14],
    ]);
    expect(report.spaces).toEqual([{ x: 32, y: 5, width: 8, height: 10 }]);
  });

  it('keeps a glyph whose box holds other glyphs but is no ring (the slash of a "%")', () => {
    const img = white(40, 40);
    for (let i = 0; i < 30; i++) fill(img, { x: 33 - i, y: 5 + i, width: 2, height: 1 }); // "/"
    fill(img, { x: 8, y: 8, width: 6, height: 6 });
    fill(img, { x: 24, y: 24, width: 6, height: 6 });
    expect(cleanInk(img).erased).toEqual([]);
  });

  it('erases marks taller than the text with nothing as tall beside them: a radio ring with its dot, an icon in light shades', () => {
    const img = white(120, 60);
    circle(img, 10, 12, 8); // a radio button, 17 px across, beside 9 px text
    fill(img, { x: 8, y: 10, width: 5, height: 5 });
    word(img, 24, 8, [2, 2, 2], 9);
    fill(img, { x: 10, y: 30, width: 18, height: 24 }, 150); // an icon's grey body
    word(img, 40, 38, [2, 2], 9);
    const report = cleanInk(img);
    expect(report.erased).toEqual([
      { x: 2, y: 4, width: 17, height: 17 },
      { x: 8, y: 10, width: 5, height: 5 },
      { x: 10, y: 30, width: 18, height: 24 },
    ]);
    expect(inkAt(img, 26, 12)).toBe(true);
  });

  it('keeps a big letter of a heading: its word stands beside it', () => {
    const img = white(120, 40);
    circle(img, 12, 16, 10); // an "O", 21 px
    word(img, 26, 8, [2, 2], 18); // "pen", about as tall
    word(img, 60, 14, [2, 2, 2, 2, 2], 9); // small text after it sets the text height
    word(img, 60, 28, [2, 2, 2, 2, 2], 9);
    expect(cleanInk(img).erased).toEqual([]);
  });

  it('erases a drop-down arrow and a submenu triangle beside text, keeps letters shaped like them', () => {
    const img = white(160, 40);
    word(img, 4, 10, [2, 2], 9);
    for (let k = 0; k < 6; k++) fill(img, { x: 30 + k, y: 13 + k, width: 2, height: 1 }); // ⌄: left arm
    for (let k = 0; k < 6; k++) fill(img, { x: 41 - k, y: 13 + k, width: 2, height: 1 }); // right arm
    for (let k = 0; k < 6; k++) fill(img, { x: 60 + k, y: 10 + k, width: 1, height: 10 - 2 * k }); // ▶
    word(img, 80, 10, [2, 2], 9);
    fill(img, { x: 120, y: 10, width: 9, height: 2 }); // "T": a bar over a stem
    fill(img, { x: 123, y: 12, width: 3, height: 7 });
    const report = cleanInk(img);
    expect(report.erased).toEqual([
      { x: 60, y: 10, width: 5, height: 10 },
      { x: 30, y: 13, width: 13, height: 6 },
    ]);
  });

  it('reports nothing on an empty image', () => {
    const report = cleanInk(white(10, 10));
    expect(report).toMatchObject({ erased: [], lines: [], spaces: [], ink: null, textHeight: 0 });
  });
});
