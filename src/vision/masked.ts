/**
 * A masked entry: a password field shows one dot (or bullet) per typed character, whatever it
 * typed. What such a field says is how many characters it holds; the dots' size follows the
 * font, so a larger font draws the same entry in other pixels. `maskedGlyphs` counts them.
 */
import type { Frame } from '../domain.ts';
import { background, withoutCarets } from './caret.ts';
import { labelComponents } from './components.ts';

/** Channel difference from the background that makes a pixel a dot's (anti-aliased rims aside). */
const INK_LEVEL = 64;
/** A dot is about round: its box this close to square, and this much of its box filled (a disc: 0.79). */
const MAX_ASPECT = 1.5;
const MIN_FILL = 0.55;
/** Dots of one entry are alike: their sides within this share of the median's. */
const SIZE_TOLERANCE = 0.3;
/** Smallest dot side, px: smaller specks are noise or punctuation of a text. */
const MIN_SIDE = 3;
/**
 * A dot is solid: the middle half of its box (inside a disc, corners included) all ink. Bold
 * digits are as round and as full ("84" on a calculator's display), but have holes or gaps there.
 */
const MIN_SOLID_CORE = 0.95;

/**
 * How many masked characters `frame` (a crop of an entry) shows: a single row of alike round
 * dots and nothing else (a caret aside); undefined when it shows anything else.
 */
export function maskedGlyphs(frame: Frame): number | undefined {
  const clean = withoutCarets(frame);
  const { width: w, height: h, data } = clean;
  const bg = background(clean);
  const [r, g, b] = [(bg >> 16) & 255, (bg >> 8) & 255, bg & 255];
  const mask = new Uint8Array(w * h);
  for (let p = 0; p < mask.length; p++) {
    const i = p * 4;
    if (Math.max(Math.abs(data[i]! - r), Math.abs(data[i + 1]! - g), Math.abs(data[i + 2]! - b)) > INK_LEVEL) mask[p] = 1;
  }
  const solidCore = (x0: number, y0: number, x1: number, y1: number): boolean => {
    const [cx0, cx1] = [Math.round(x0 + (x1 - x0) / 4), Math.round(x1 - (x1 - x0) / 4)];
    const [cy0, cy1] = [Math.round(y0 + (y1 - y0) / 4), Math.round(y1 - (y1 - y0) / 4)];
    let ink = 0;
    for (let y = cy0; y <= cy1; y++) for (let x = cx0; x <= cx1; x++) ink += mask[y * w + x]!;
    return ink >= MIN_SOLID_CORE * (cx1 - cx0 + 1) * (cy1 - cy0 + 1);
  };
  const dots = labelComponents(mask, w, h).boxes.map((b) => ({
    w: b.x1 - b.x0 + 1,
    h: b.y1 - b.y0 + 1,
    n: b.n,
    cy: (b.y0 + b.y1) / 2,
    x0: b.x0,
    x1: b.x1,
    solid: solidCore(b.x0, b.y0, b.x1, b.y1),
  }));
  if (dots.length === 0) return undefined;
  const sides = dots.map((d) => Math.max(d.w, d.h)).sort((a, b) => a - b);
  const median = sides[sides.length >> 1]!;
  const row = dots.map((d) => d.cy).sort((a, b) => a - b)[dots.length >> 1]!;
  const round = dots.every(
    (d) =>
      Math.min(d.w, d.h) >= MIN_SIDE &&
      Math.max(d.w, d.h) <= MAX_ASPECT * Math.min(d.w, d.h) &&
      d.n >= MIN_FILL * d.w * d.h &&
      d.solid &&
      Math.abs(Math.max(d.w, d.h) - median) <= SIZE_TOLERANCE * median &&
      Math.abs(d.cy - row) <= median / 2,
  );
  return round ? dots.length : undefined;
}
