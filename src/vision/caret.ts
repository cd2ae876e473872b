/**
 * The text caret in a crop of a text: a thin solid bar of the line's full height (ascent to
 * descent), taller than any glyph beside it. Where typing ended it sits against the last glyph,
 * so a change region of typed text contains it, and OCR reads it as a letter ("alice]") — the
 * words of an effect must be read without it. A caret-only crop of a cleared field is blank.
 *
 * Told apart from a glyph by shape alone, conservatively: a bar that is not clearly taller than
 * the ink beside it ("l", "|" between words) is left alone, and so is a bar with ink on both
 * sides (a caret mid-text is rare; a glyph there is not) and one reaching the crop's top or
 * bottom (a border).
 */
import type { Frame, Region } from '../domain.ts';
import { clampRegion, cloneFrame, crop, fillRegion, paste } from './frame.ts';

export const CARET_SHAPE = Object.freeze({
  /**
   * Columns a caret is wide: 1 px in GTK and Chromium, 2 in Tk (`insertWidth`). An "l" is 2 px at
   * GTK's size too, so a 2-px bar is a caret only beside text it overreaches at both ends (no glyph
   * of a line reaches below its baseline and above its tallest letter at once); alone in a field,
   * a 2-px bar may be a typed "l" or "I", and is left alone.
   */
  maxWidth: 2,
  /** Shorter bars are punctuation. */
  minHeight: 6,
  /**
   * How much taller than the ink beside it a bar must be. A caret spans the line box, measured
   * ~1.3× the glyphs of a line with descenders ("Buy milk|": 24 px against 18) and ~1.6× one
   * without ("alice|": 24 against 15); an "l" or a "|" glyph is at most as tall as the line.
   */
  minRatio: 1.2,
  /** Channel difference from the background that makes a pixel ink (the caret is solid). */
  inkLevel: 96,
});

/** The most common colour of a frame, packed as 0xRRGGBB. */
export function background(frame: Frame): number {
  const counts = new Map<number, number>();
  let best = 0;
  let bestCount = 0;
  const d = frame.data;
  for (let i = 0; i < d.length; i += 4) {
    const c = ((d[i] ?? 0) << 16) | ((d[i + 1] ?? 0) << 8) | (d[i + 2] ?? 0);
    const n = (counts.get(c) ?? 0) + 1;
    counts.set(c, n);
    if (n > bestCount) [best, bestCount] = [c, n];
  }
  return best;
}

/** Per pixel, whether it is ink: far from the background in some channel. */
function inkMask(frame: Frame, bg: number): Uint8Array {
  const mask = new Uint8Array(frame.width * frame.height);
  const [r, g, b] = [(bg >> 16) & 255, (bg >> 8) & 255, bg & 255];
  const d = frame.data;
  for (let p = 0; p < mask.length; p++) {
    const i = p * 4;
    const diff = Math.max(Math.abs((d[i] ?? 0) - r), Math.abs((d[i + 1] ?? 0) - g), Math.abs((d[i + 2] ?? 0) - b));
    if (diff > CARET_SHAPE.inkLevel) mask[p] = 1;
  }
  return mask;
}

/** The rows a column's ink spans, when it is one solid run. */
function solidRun(mask: Uint8Array, w: number, h: number, x: number): { top: number; bottom: number } | undefined {
  let top = -1;
  let bottom = -1;
  for (let y = 0; y < h; y++) {
    if (mask[y * w + x] === 0) continue;
    if (top < 0) top = y;
    else if (bottom !== y - 1) return undefined;
    bottom = y;
  }
  return top < 0 ? undefined : { top, bottom };
}

/** Where the frame shows a caret (see the module comment): at most one region per bar. */
export function findCarets(frame: Frame): Region[] {
  const { width: w, height: h } = frame;
  const mask = inkMask(frame, background(frame));
  const inked = (x0: number, x1: number, top: number, bottom: number): { top: number; bottom: number } | undefined => {
    let t = h;
    let b = -1;
    for (let x = Math.max(0, x0); x <= Math.min(w - 1, x1); x++) {
      for (let y = top; y <= bottom; y++) {
        if (mask[y * w + x] === 0) continue;
        t = Math.min(t, y);
        b = Math.max(b, y);
      }
    }
    return b < 0 ? undefined : { top: t, bottom: b };
  };
  const carets: Region[] = [];
  for (let x = 0; x < w; x++) {
    const run = solidRun(mask, w, h, x);
    // A bar reaching the crop's edge is a border; a caret sits on a line inside its field.
    if (!run || run.top === 0 || run.bottom === h - 1 || run.bottom - run.top + 1 < CARET_SHAPE.minHeight) continue;
    // The bar's columns: this one and the next while they share its run.
    let x1 = x;
    while (x1 + 1 < w && x1 + 1 - x < CARET_SHAPE.maxWidth) {
      const next = solidRun(mask, w, h, x1 + 1);
      if (!next || next.top !== run.top || next.bottom !== run.bottom) break;
      x1++;
    }
    const right = x1 + 1 < w ? solidRun(mask, w, h, x1 + 1) : undefined;
    // Wider than a caret: a stroke of a glyph or a border.
    if (right && right.top === run.top && right.bottom === run.bottom) {
      x = x1 + 1;
      continue;
    }
    const height = run.bottom - run.top + 1;
    const before = inked(0, x - 1, run.top, run.bottom);
    const after = inked(x1 + 1, w - 1, run.top, run.bottom);
    if (before && after) {
      x = x1;
      continue;
    }
    const beside = before ?? after;
    // A lone 1-px bar is a caret in an empty field; beside a text it must be taller than the line.
    const tall = beside
      ? beside.top > run.top && beside.bottom < run.bottom && height >= CARET_SHAPE.minRatio * (beside.bottom - beside.top + 1)
      : x1 === x;
    if (tall) carets.push({ x, y: run.top, width: x1 - x + 1, height });
    x = x1;
  }
  return carets;
}

/** A copy of the frame with its carets painted over in its background colour. */
export function withoutCarets(frame: Frame): Frame {
  const carets = findCarets(frame);
  if (carets.length === 0) return frame;
  const bg = background(frame);
  const out = cloneFrame(frame);
  for (const caret of carets) fillRegion(out, caret, [(bg >> 16) & 255, (bg >> 8) & 255, bg & 255, 255]);
  return out;
}

/** The frame with the carets inside `regions` painted over (itself when there are none there). */
export function withoutCaretsIn(frame: Frame, regions: readonly Region[]): Frame {
  let out: Frame | undefined;
  for (const region of regions) {
    const area = clampRegion(region, frame);
    if (area.width <= 0 || area.height <= 0) continue;
    const part = crop(frame, area);
    const clean = withoutCarets(part);
    if (clean === part) continue;
    out ??= cloneFrame(frame);
    paste(out, clean, area);
  }
  return out ?? frame;
}
