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
  /**
   * How far above and below a bar, as a share of its height, nothing but a rule may be: the dot of
   * an "i" or a "j" sits a pixel or two off its stem (a quarter of it at most); a caret spans its
   * line, and the next ink in its column is its field's border or another line.
   */
  lineGapShare: 0.5,
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

interface Run {
  readonly top: number;
  readonly bottom: number;
}

/** The solid runs of ink down column x, top to bottom. */
function runsOf(mask: Uint8Array, w: number, h: number, x: number): Run[] {
  const runs: Run[] = [];
  let top = -1;
  for (let y = 0; y <= h; y++) {
    const ink = y < h && mask[y * w + x] === 1;
    if (ink && top < 0) top = y;
    else if (!ink && top >= 0) {
      runs.push({ top, bottom: y - 1 });
      top = -1;
    }
  }
  return runs;
}

const sameRun = (runs: readonly Run[] | undefined, run: Run): boolean =>
  runs?.some((r) => r.top === run.top && r.bottom === run.bottom) ?? false;

/**
 * Where the frame shows a caret (see the module comment): at most one region per bar. A caret is
 * a bar within one line of text, so each solid run down a column is a candidate of its own: the
 * caret's column may also cross the field's border, or the line of another field above it.
 */
export function findCarets(frame: Frame): Region[] {
  const { width: w, height: h } = frame;
  const mask = inkMask(frame, background(frame));
  const columns = Array.from({ length: w }, (_, x) => runsOf(mask, w, h, x));
  // The ink of the line between rows top and bottom, in columns x0..x1: only runs lying within
  // those rows, since a run going on past them (a field's border, a taller bar) is no glyph of it.
  const inked = (x0: number, x1: number, top: number, bottom: number): Run | undefined => {
    let t = h;
    let b = -1;
    for (let x = Math.max(0, x0); x <= Math.min(w - 1, x1); x++) {
      for (const run of columns[x]!) {
        if (run.bottom < top || run.top > bottom || run.top < top || run.bottom > bottom) continue;
        t = Math.min(t, run.top);
        b = Math.max(b, run.bottom);
      }
    }
    return b < 0 ? undefined : { top: t, bottom: b };
  };
  const carets: Region[] = [];
  for (let x = 0; x < w; x++) {
    for (const run of columns[x]!) {
      // A bar reaching the crop's edge is a border; a caret sits on a line inside its field. A run
      // the column before shares belongs to a bar looked at from there, or to a wider stroke.
      if (run.top === 0 || run.bottom === h - 1 || run.bottom - run.top + 1 < CARET_SHAPE.minHeight || sameRun(columns[x - 1], run))
        continue;
      // The bar's columns: this one and the next while they share its run.
      let x1 = x;
      while (x1 + 1 < w && x1 + 1 - x < CARET_SHAPE.maxWidth && sameRun(columns[x1 + 1], run)) x1++;
      // Wider than a caret: a stroke of a glyph or a border.
      if (sameRun(columns[x1 + 1], run) || !alone(mask, w, x, x1, run)) continue;
      const height = run.bottom - run.top + 1;
      const before = inked(0, x - 1, run.top, run.bottom);
      const after = inked(x1 + 1, w - 1, run.top, run.bottom);
      if (before && after) continue;
      const beside = before ?? after;
      // A lone 1-px bar is a caret in an empty field; beside a text it must be taller than the line.
      const tall = beside
        ? beside.top > run.top && beside.bottom < run.bottom && height >= CARET_SHAPE.minRatio * (beside.bottom - beside.top + 1)
        : x1 === x;
      if (tall) carets.push({ x, y: run.top, width: x1 - x + 1, height });
    }
  }
  return carets;
}

/**
 * Whether the bar in columns x0..x1 stands alone in its line: the ink just above and below it,
 * within `lineGapShare` of its height, is none, or a rule running on past it on both sides (the
 * field's border). A dot there ("i", "j", "!") makes it a glyph's stem.
 */
function alone(mask: Uint8Array, w: number, x0: number, x1: number, run: Run): boolean {
  const reach = Math.ceil(CARET_SHAPE.lineGapShare * (run.bottom - run.top + 1));
  const h = mask.length / w;
  const rule = (y: number): boolean => {
    for (let x = x0 - CARET_SHAPE.maxWidth; x <= x1 + CARET_SHAPE.maxWidth; x++) if (x < 0 || x >= w || mask[y * w + x] === 0) return false;
    return true;
  };
  for (let d = 1; d <= reach; d++) {
    for (const y of [run.top - d, run.bottom + d]) {
      if (y < 0 || y >= h) continue;
      let ink = false;
      for (let x = x0; x <= x1; x++) ink ||= mask[y * w + x] === 1;
      if (ink && !rule(y)) return false;
    }
  }
  return true;
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
