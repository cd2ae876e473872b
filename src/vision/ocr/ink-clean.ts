/**
 * Removing ink that is not text before OCR (pure, no tesseract here). Given a gray image with
 * dark ink on a white ground (as preprocess.ts makes it), the ink is split into 8-connected
 * components; light text on dark plates (a selection, a warning bar) is made dark on the ground
 * first (plates.ts), and these are erased:
 * - frames: a ring (ink along each side of its box) that encloses another component's box and
 *   is mostly empty (a control's border around its label, the badge around "On");
 * - lines: thin and long — at least `lineTouchRatio` text heights when it touches the image's
 *   edge (a border the crop cut), at least `lineRatio` text heights inside (separators, underlines);
 * - cut frames: mostly empty components touching the edge and larger than text (a border's
 *   corner, "⊓" pieces);
 * - specks: tiny components far from any text that touch the edge or are faint (the rounded
 *   corner of a border at a crop's corner, which OCR reads as ".").
 * - marks: radio buttons, check boxes, icons, drop-down arrows and submenu triangles (marks.ts),
 *   with whatever lies inside them.
 * The text height is the 75th percentile height of the remaining glyph-like components. When
 * there is no glyph-like ink at all (a "-" or "." alone) only frames are erased.
 *
 * Borders are what OCR turns into "[", "]", "|", "{" and stray dots; without them a badge reads
 * "On" rather than "[on]" and a display's value "84" rather than "84 . .".
 */
import type { Region } from '../../domain.ts';
import { labelComponents } from '../components.ts';
import { boundingRegion } from '../frame.ts';
import type { GrayImage } from '../types.ts';
import { findAsterisks } from './asterisks.ts';
import { markNonText, type Component } from './marks.ts';
import { invertPlates } from './plates.ts';

export interface CleanOptions {
  /** Pixels darker than this are ink (0 ink .. 255 ground). @default 200 */
  readonly inkLevel?: number;
  /** A thin component inside the image is a line from this many text heights on. @default 2.5 */
  readonly lineRatio?: number;
  /** A thin component touching the image's edge is a line from this many text heights on. @default 1.4 */
  readonly lineTouchRatio?: number;
  /**
   * A gap between glyphs of a line at least this many times its tallest glyph is a word space.
   * Inside a word glyphs stand at most about 0.3 capital heights apart (two "1"s), up to 0.45
   * in small text, where a pixel of rounding counts ("n!" at 9 px); a space and the glyphs' side
   * bearings make 0.55 or more. @default 0.5
   */
  readonly spaceRatio?: number;
}

export const CLEAN_DEFAULTS = Object.freeze({ inkLevel: 200, lineRatio: 2.5, lineTouchRatio: 1.4, spaceRatio: 0.5 });

export interface CleanReport {
  /** Boxes of the erased components. */
  readonly erased: readonly Region[];
  /** Lines of the ink left, top to bottom: bands of rows holding ink, boxed with their ink. */
  readonly lines: readonly Region[];
  /**
   * Word spaces of those lines: runs of empty columns between ink at least `spaceRatio` × the
   * line's tallest glyph wide, as tall as their line.
   */
  readonly spaces: readonly Region[];
  /** Boxes of the components left (glyphs, or glyphs touching each other), in no order. */
  readonly glyphs: readonly Region[];
  /** Box of the ink left; null when there is none. */
  readonly ink: Region | null;
  /**
   * The 75th percentile height of the glyph-like components (about a capital's height), px; 0
   * when there are none.
   */
  readonly textHeight: number;
  /** Boxes of the glyphs shaped as an asterisk (asterisks.ts), which OCR misreads. */
  readonly asterisks: readonly Region[];
}

/**
 * Erases non-text ink of `gray` in place (sets it to 255, with its anti-aliased fringe) and
 * reports what was erased and how many lines of text are left.
 */
export function cleanInk(gray: GrayImage, options: CleanOptions = {}): CleanReport {
  const inkLevel = options.inkLevel ?? CLEAN_DEFAULTS.inkLevel;
  const lineRatio = options.lineRatio ?? CLEAN_DEFAULTS.lineRatio;
  const touchRatio = options.lineTouchRatio ?? CLEAN_DEFAULTS.lineTouchRatio;
  const { width: w, height: h, data } = gray;
  const n = w * h;
  if (n === 0) return { erased: [], lines: [], spaces: [], glyphs: [], ink: null, textHeight: 0, asterisks: [] };

  // Label 8-connected ink components (label 0: ground).
  const isInk = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (data[i]! < inkLevel) isInk[i] = 1;
  let { labels: label, boxes } = labelComponents(isInk, w, h);
  // Light text on dark plates becomes dark text on the ground (plates.ts): the ink changed.
  if (invertPlates(gray, label, boxes).length > 0) {
    for (let i = 0; i < n; i++) isInk[i] = data[i]! < inkLevel ? 1 : 0;
    ({ labels: label, boxes } = labelComponents(isInk, w, h));
  }
  const comps: Component[] = boxes.map((b) => ({ x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1, n: b.n, kind: 'glyph' }));
  if (comps.length === 0) return { erased: [], lines: [], spaces: [], glyphs: [], ink: null, textHeight: 0, asterisks: [] };

  const bw = (c: Component): number => c.x1 - c.x0 + 1;
  const bh = (c: Component): number => c.y1 - c.y0 + 1;
  const touches = (c: Component): boolean => c.x0 === 0 || c.y0 === 0 || c.x1 === w - 1 || c.y1 === h - 1;
  const fill = (c: Component): number => c.n / (bw(c) * bh(c));
  const thin = (c: Component): boolean => {
    const short = Math.min(bw(c), bh(c));
    return short <= 3 && Math.max(bw(c), bh(c)) >= 5 * short;
  };
  const tiny = (c: Component): boolean => bw(c) <= 2 && bh(c) <= 2;
  // Darkest value of component `id`, measured on demand: only speck candidates ask, and their
  // boxes are a few pixels, whereas tracking it while labelling would touch every ink pixel.
  const darkest = (c: Component, id: number): number => {
    let min = 255;
    for (let y = c.y0; y <= c.y1; y++) {
      for (let i = y * w + c.x0; i <= y * w + c.x1; i++) if (label[i] === id && data[i]! < min) min = data[i]!;
    }
    return min;
  };

  // A ring: ink along most of each side of its box (rounded corners allowed). A "/" whose box
  // holds the circles of a "%" is not one.
  const ringed = (c: Component, id: number): boolean => {
    const along = (from: number, step: number, count: number): boolean => {
      let n = 0;
      for (let k = 0, i = from; k < count; k++, i += step) if (label[i] === id) n++;
      return n >= 0.5 * count;
    };
    return (
      along(c.y0 * w + c.x0, 1, bw(c)) &&
      along(c.y1 * w + c.x0, 1, bw(c)) &&
      along(c.y0 * w + c.x0, w, bh(c)) &&
      along(c.y0 * w + c.x1, w, bh(c))
    );
  };

  // Frames: mostly empty rings around another component. Sorting by x0 bounds the inner loop.
  const byX = comps.map((_, i) => i).sort((a, b) => comps[a]!.x0 - comps[b]!.x0);
  for (const [ci, c] of comps.entries()) {
    if (fill(c) >= 0.35 || bw(c) < 6 || bh(c) < 6 || !ringed(c, ci + 1)) continue;
    for (const j of byX) {
      const o = comps[j]!;
      if (o.x0 > c.x1) break;
      if (o !== c && o.x0 > c.x0 && o.x1 < c.x1 && o.y0 > c.y0 && o.y1 < c.y1 && !tiny(o)) {
        c.kind = 'frame';
        break;
      }
    }
  }

  // Text height: the 75th percentile height of glyph-like components.
  const heights = comps
    .filter((c) => c.kind === 'glyph' && !thin(c) && !tiny(c))
    .map(bh)
    .sort((a, b) => a - b);
  const textHeight = heights.length === 0 ? 0 : heights[Math.min(heights.length - 1, Math.floor(heights.length * 0.75))]!;

  if (textHeight > 0) {
    const speckSide = Math.max(2, Math.round(0.12 * textHeight));
    for (const [ci, c] of comps.entries()) {
      if (c.kind !== 'glyph') continue;
      const long = Math.max(bw(c), bh(c));
      const edge = touches(c);
      const short = Math.min(bw(c), bh(c));
      if (short <= Math.max(3, Math.round(0.25 * textHeight)) && long >= 5 * short) {
        if (long >= (edge ? touchRatio : lineRatio) * textHeight) c.kind = 'line';
      } else if (edge && fill(c) < 0.3 && (bw(c) >= 2 * textHeight || bh(c) >= 1.5 * textHeight)) {
        c.kind = 'cut';
      } else if (long <= speckSide && (edge || darkest(c, ci + 1) > 100)) {
        c.kind = 'speck';
      }
    }
    markNonText(comps, label, data, w, textHeight);
    // A speck beside text, within its line, is punctuation ("3.", "a:", "it's"): keep it.
    const near = Math.max(3, Math.round(0.5 * textHeight));
    const below = Math.round(0.3 * textHeight);
    for (const c of comps) {
      if (c.kind !== 'speck') continue;
      const text = comps.some(
        (o) => o.kind === 'glyph' && o.x0 - c.x1 <= near && c.x0 - o.x1 <= near && c.y0 >= o.y0 - 2 && c.y1 <= o.y1 + below,
      );
      if (text) c.kind = 'glyph';
    }
  }

  // Erase: the component and its anti-aliased fringe (ground-ish neighbours).
  const erased: Region[] = [];
  const drop = new Uint8Array(comps.length + 1);
  comps.forEach((c, i) => {
    if (c.kind === 'glyph') return;
    drop[i + 1] = 1;
    erased.push({ x: c.x0, y: c.y0, width: bw(c), height: bh(c) });
  });
  if (erased.length > 0) {
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (drop[label[i]!] !== 1) continue;
        data[i] = 255;
        for (let dy = -1; dy <= 1; dy++) {
          const yy = y + dy;
          if (yy < 0 || yy >= h) continue;
          for (let dx = -1; dx <= 1; dx++) {
            const xx = x + dx;
            if (xx < 0 || xx >= w) continue;
            const j = yy * w + xx;
            if (label[j] === 0) data[j] = 255;
          }
        }
      }
    }
  }

  // Lines: bands of rows holding kept ink; a gap of a pixel or two inside a band is tolerated
  // (the dot of an "i" over a lower-case line). Bands lower than 3 rows only count when alone.
  const rowX0 = new Int32Array(h).fill(w);
  const rowX1 = new Int32Array(h).fill(-1);
  comps.forEach((c, i) => {
    if (drop[i + 1] === 1) return;
    for (let y = c.y0; y <= c.y1; y++) {
      if (c.x0 < rowX0[y]!) rowX0[y] = c.x0;
      if (c.x1 > rowX1[y]!) rowX1[y] = c.x1;
    }
  });
  const gapTolerated = Math.max(2, Math.round(0.15 * textHeight));
  const bands: Region[] = [];
  let start = -1;
  let last = -1;
  const close = (): void => {
    let x0 = w;
    let x1 = -1;
    for (let y = start; y <= last; y++) {
      x0 = Math.min(x0, rowX0[y]!);
      x1 = Math.max(x1, rowX1[y]!);
    }
    bands.push({ x: x0, y: start, width: x1 - x0 + 1, height: last - start + 1 });
  };
  for (let y = 0; y < h; y++) {
    if (rowX1[y]! < 0) continue;
    if (start >= 0 && y - last - 1 > gapTolerated) {
      close();
      start = -1;
    }
    if (start < 0) start = y;
    last = y;
  }
  if (start >= 0) close();
  const ink = boundingRegion(bands);
  // Without glyph-like ink (only bars and dots: "=", "÷") everything is one symbol.
  const solid = bands.filter((b) => b.height >= 3);
  const lines = textHeight === 0 && ink ? [ink] : solid.length > 0 ? solid : bands;

  // Spaces: empty column runs inside each line.
  const spaceRatio = options.spaceRatio ?? CLEAN_DEFAULTS.spaceRatio;
  const spaces: Region[] = [];
  for (const line of lines) {
    const inLine = comps.filter((c, i) => drop[i + 1] !== 1 && c.y0 >= line.y && c.y1 < line.y + line.height);
    const tallest = inLine.reduce((m, c) => Math.max(m, bh(c)), 0);
    const used = new Uint8Array(line.width);
    for (const c of inLine) used.fill(1, c.x0 - line.x, c.x1 - line.x + 1);
    for (let x = 0; x < line.width; ) {
      if (used[x] === 1) {
        x++;
        continue;
      }
      const from = x;
      while (x < line.width && used[x] === 0) x++;
      if (x - from >= spaceRatio * tallest) spaces.push({ x: line.x + from, y: line.y, width: x - from, height: line.height });
    }
  }
  const glyphs = comps.filter((_, i) => drop[i + 1] !== 1).map((c) => ({ x: c.x0, y: c.y0, width: bw(c), height: bh(c) }));
  const asterisks = findAsterisks(
    label,
    w,
    comps.map((c, i) => (drop[i + 1] === 1 ? null : c)),
  );
  return { erased, lines, spaces, glyphs, ink, textHeight, asterisks };
}
