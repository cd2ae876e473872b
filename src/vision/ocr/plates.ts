/**
 * Light text on dark plates inside a light image (pure): a selected entry's text (white on
 * blue), a warning bar (white on red), a highlighted row. Normalizing (preprocess.ts) makes the
 * image's ground white and its ink dark; such a plate then is one big block of "ink" with the
 * letters as holes, which OCR reads badly and whose glyph heights nothing can measure
 * ("yOu are using the rOOt acCOunt"). Each plate is turned into ground with dark letters;
 * ink cleaning (ink-clean.ts) does it first, on the ink components it labels anyway.
 */
import type { Region } from '../../domain.ts';
import type { ComponentBox } from '../components.ts';
import type { GrayImage } from '../types.ts';

/** A plate is at least this tall, px: lower bars are lines and underlines. */
const MIN_HEIGHT = 8;
/** …at least this many times as wide as tall (an icon, a big glyph or a key is not a plate)… */
const MIN_ASPECT = 2.5;
/** Rows of a plate's rounded corners, px. */
const CORNER = 3;
/** …and fills at least this much of its box (letters cut holes into it). */
const MIN_FILL = 0.6;

/**
 * Inverts, in place, each plate among the ink components of `gray` (`labels` and `boxes` as
 * components.ts gives them) within its rows' extent: the plate's own level becomes white,
 * lighter pixels (its letters) dark, darker ones white. Returns the plates' boxes; the
 * components no longer describe `gray` when there are any.
 */
export function invertPlates(gray: GrayImage, labels: Int32Array, boxes: readonly ComponentBox[]): Region[] {
  const { width: w, height: h, data } = gray;
  const plates: Region[] = [];
  boxes.forEach((b, index) => {
    const bw = b.x1 - b.x0 + 1;
    const bh = b.y1 - b.y0 + 1;
    if (bh < MIN_HEIGHT || bw < MIN_ASPECT * bh || b.n < MIN_FILL * bw * bh) return;
    const id = index + 1;
    const level = medianOf(data, labels, w, id, b);
    const lut = new Uint8Array(256);
    for (let v = 0; v < 256; v++) lut[v] = v <= level ? 255 : Math.round(255 - ((v - level) * 255) / (255 - level));
    for (let y = b.y0; y <= b.y1; y++) {
      let x0 = b.x0;
      let x1 = b.x1;
      // Rows near the top and bottom keep to the plate (rounded corners); the others span its
      // box, since a letter at its end may cut the plate's edge.
      if (y - b.y0 < CORNER || b.y1 - y < CORNER) {
        while (x0 <= x1 && labels[y * w + x0] !== id) x0++;
        while (x1 >= x0 && labels[y * w + x1] !== id) x1--;
      }
      for (let i = y * w + x0; i <= y * w + x1; i++) data[i] = lut[data[i]!]!;
    }
    // The plate's anti-aliased rim, lighter than the plate, would stay as a faint frame that
    // touches the letters: it becomes ground too.
    for (let y = Math.max(0, b.y0 - 1); y <= Math.min(h - 1, b.y1 + 1); y++) {
      for (let x = Math.max(0, b.x0 - 1); x <= Math.min(w - 1, b.x1 + 1); x++) {
        const i = y * w + x;
        if (labels[i] === 0 && data[i]! > level && nextTo(labels, w, h, x, y, id)) data[i] = 255;
      }
    }
    plates.push({ x: b.x0, y: b.y0, width: bw, height: bh });
  });
  return plates;
}

/** Pixel (x, y) touches a pixel of component `id` (8-neighbourhood). */
function nextTo(labels: Int32Array, w: number, h: number, x: number, y: number, id: number): boolean {
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      const xx = x + dx;
      const yy = y + dy;
      if (xx >= 0 && yy >= 0 && xx < w && yy < h && labels[yy * w + xx] === id) return true;
    }
  }
  return false;
}

/** The median value of the pixels of component `id` (box `b`) in a `w` wide image. */
function medianOf(data: Uint8Array, labels: Int32Array, w: number, id: number, b: ComponentBox): number {
  const hist = new Uint32Array(256);
  let n = 0;
  for (let y = b.y0; y <= b.y1; y++) {
    for (let i = y * w + b.x0; i <= y * w + b.x1; i++) {
      if (labels[i] !== id) continue;
      hist[data[i]!]!++;
      n++;
    }
  }
  let v = 0;
  for (let acc = 0; v < 255; v++) {
    acc += hist[v]!;
    if (acc >= n / 2) break;
  }
  return v;
}
