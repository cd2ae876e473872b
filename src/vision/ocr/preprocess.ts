/**
 * Preparing a frame for OCR (pure, no tesseract here), in two steps:
 * 1. `normalizeForOcr`: grayscale, dark text on a white ground (inverted when the ground is dark,
 *    contrast stretched so the ground is pure white; text too faint for that stretch gets one of
 *    its own, faint.ts), then light text on dark plates made dark
 *    on white and borders, lines, marks and stray specks erased (ink-clean.ts); lines in X's
 *    fixed font are read from their cells (fixed-font.ts) and
 *    erased too, and cleaning reports the lines of text left for OCR.
 * 2. `prepareNormalized`: the whole image or one area of it (a line of text) upscaled so
 *    capitals are about `targetCapPx` tall, padded with white, encoded as PGM (binary netpbm: a
 *    short text header and the raw bytes — no compression cost; Leptonica reads it).
 * `prepareForOcr` does both for the whole frame.
 */
import type { Frame, Region } from '../../domain.ts';
import { clampRegion, scaleGray, toGray } from '../frame.ts';
import { segmentDetailed } from '../segment.ts';
import type { GrayImage } from '../types.ts';
import { readFixedFont, type FixedLine } from './fixed-font.ts';
import { FAINT_STEP, restoreFaintInk, stretchBetween, stretchTable } from './faint.ts';
import { CLEAN_DEFAULTS, cleanInk, type CleanReport } from './ink-clean.ts';

export type Layout = 'block' | 'line' | 'char';

export interface NormalizeOptions {
  /** 'block' takes the most common value as the ground, 'line' and 'char' that of the edge pixels. */
  readonly layout: Layout;
  /** Erase borders, lines and stray specks before OCR (see ink-clean.ts). @default true */
  readonly clean?: boolean;
}

export interface PreprocessOptions extends NormalizeOptions {
  /**
   * Upscale factor. @default estimated: capital height from the ink height ('line', 'char') or,
   * for 'block', the text height cleaning measured (from the median label height when cleaning
   * is off), scaled to `targetCapPx`, within 1..8 (1..4 for 'block')
   */
  readonly scale?: number;
  /** Capital height the estimate aims for, px. @default 30 */
  readonly targetCapPx?: number;
  /** Largest output, in pixels; the scale is lowered to fit (OCR time grows with it). @default 8_000_000 */
  readonly maxPixels?: number;
}

/** A frame as dark ink on a white ground, cleaned. */
export interface Normalized {
  readonly frame: Frame;
  readonly gray: GrayImage;
  /** True when the input was light text on a dark ground and was inverted. */
  readonly inverted: boolean;
  /** What cleaning erased and left; null when it did not run (turned off, or no contrast). */
  readonly clean: CleanReport | null;
  /** Lines read from the cells of X's fixed font (erased from `gray`); only when cleaning ran. */
  readonly fixed: readonly FixedLine[];
}

export interface Prepared {
  /** PGM (P5) bytes. */
  readonly image: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly scale: number;
  /** Padding added on each side, in output pixels. */
  readonly pad: number;
  /** Where the prepared area starts in the input frame. */
  readonly origin: { readonly x: number; readonly y: number };
  /** True when the input was light text on a dark ground and was inverted. */
  readonly inverted: boolean;
  /** What cleaning erased and left, in input coordinates; null when it did not run. */
  readonly clean: CleanReport | null;
}

/** Luma difference from the background that counts as ink when measuring text height. */
const INK_STEP = 48;

export function normalizeForOcr(frame: Frame, options: NormalizeOptions): Normalized {
  const gray = toGray(frame);
  const bg = options.layout === 'block' ? dominant(gray.data) : dominant(borderPixels(gray));
  const inverted = bg < 128;
  if (inverted) for (let i = 0; i < gray.data.length; i++) gray.data[i] = 255 - gray.data[i]!;
  const ground = inverted ? 255 - bg : bg;
  const contrast = stretch(gray, ground);
  if (!contrast || options.clean === false) return { frame, gray, inverted, clean: null, fixed: [] };
  let clean = cleanInk(gray);
  const fixed = readFixedFont(gray);
  if (fixed.length > 0) {
    for (const { band } of fixed) {
      for (let y = band.y; y < band.y + band.height; y++)
        gray.data.fill(255, y * gray.width + band.x, y * gray.width + band.x + band.width);
    }
    clean = { ...cleanInk(gray), erased: clean.erased };
  }
  return { frame, gray, inverted, clean, fixed };
}

/**
 * The normalized image, or the part of it in `area` (input coordinates), scaled, padded and
 * encoded. `options.layout` picks the scale estimate.
 */
export function prepareNormalized(normalized: Normalized, area: Region | null, options: Omit<PreprocessOptions, 'clean'>): Prepared {
  const { inverted, clean } = normalized;
  const box = area ? clampRegion(area, normalized.gray) : null;
  const gray = box ? cropGray(normalized.gray, box) : normalized.gray;
  const target = options.targetCapPx ?? 30;
  // The text height cleaning measured holds for any part of a block; a line is measured alone.
  const measured = box && options.layout !== 'block' ? null : clean;
  let scale = options.scale ?? estimateScale(normalized.frame, gray, options.layout, target, measured);
  const maxPixels = options.maxPixels ?? 8_000_000;
  if (gray.width * gray.height * scale * scale > maxPixels) scale = Math.max(1, Math.sqrt(maxPixels / (gray.width * gray.height)));
  const scaled = scale === 1 ? gray : scaleGray(gray, gray.width * scale, gray.height * scale, { method: 'bilinear' });
  const pad = Math.max(10, Math.round(target * 0.6));
  const padded = padImage(scaled, pad, 255);
  const origin = { x: box?.x ?? 0, y: box?.y ?? 0 };
  return {
    image: toPgm(padded),
    width: padded.width,
    height: padded.height,
    scale: scaled.width / gray.width,
    pad,
    origin,
    inverted,
    clean,
  };
}

/** normalizeForOcr and prepareNormalized of the whole frame. */
export function prepareForOcr(frame: Frame, options: PreprocessOptions): Prepared {
  return prepareNormalized(normalizeForOcr(frame, options), null, options);
}

/**
 * Contrast stretch in place: the ground becomes white (255) and the darkest ink (1st
 * percentile) black, so the padding matches the ground and faint gradients vanish; text too
 * faint for this stretch gets one of its own (faint.ts). False when there is no contrast to
 * stretch (the image is left as it is).
 */
function stretch(gray: GrayImage, ground: number): boolean {
  const hist = new Uint32Array(256);
  const d = gray.data;
  for (let i = 0; i < d.length; i++) {
    const v = d[i]!;
    hist[v] = hist[v]! + 1;
  }
  let ink = 0;
  for (let acc = 0, limit = Math.max(1, d.length * 0.01); ink < 255; ink++) {
    acc += hist[ink]!;
    if (acc >= limit) break;
  }
  if (ground - ink < FAINT_STEP) return false; // nothing on the ground worth stretching
  const span = stretchBetween(ground, ink);
  const original = { ...gray, data: d.slice() };
  const lut = stretchTable(span);
  for (let i = 0; i < d.length; i++) d[i] = lut[d[i]!]!;
  restoreFaintInk(original, gray, ground, span, CLEAN_DEFAULTS.inkLevel);
  return true;
}

/** Maps a box in the prepared image back to the input frame's coordinates (clamped). */
export function boxToFrame(
  box: { x0: number; y0: number; x1: number; y1: number },
  prepared: Prepared,
  frame: { width: number; height: number },
): Region {
  const { scale: s, pad, origin } = prepared;
  const x0 = Math.max(0, Math.floor((box.x0 - pad) / s) + origin.x);
  const y0 = Math.max(0, Math.floor((box.y0 - pad) / s) + origin.y);
  const x1 = Math.min(frame.width, Math.ceil((box.x1 - pad) / s) + origin.x);
  const y1 = Math.min(frame.height, Math.ceil((box.y1 - pad) / s) + origin.y);
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
}

/** A region of the input frame as a box in the prepared image: boxToFrame's inverse. */
export function frameToBox(region: Region, prepared: Prepared): { x0: number; y0: number; x1: number; y1: number } {
  const { scale: s, pad, origin } = prepared;
  return {
    x0: Math.round((region.x - origin.x) * s + pad),
    y0: Math.round((region.y - origin.y) * s + pad),
    x1: Math.round((region.x + region.width - origin.x) * s + pad),
    y1: Math.round((region.y + region.height - origin.y) * s + pad),
  };
}

function estimateScale(frame: Frame, gray: GrayImage, layout: Layout, target: number, clean: CleanReport | null): number {
  let cap: number;
  if (layout === 'block' && clean && clean.textHeight >= 4) {
    cap = clean.textHeight;
  } else if (layout === 'block') {
    // Median label height (ascender to descender, ~1.3 × capital height) over the frame.
    const heights = segmentDetailed(frame)
      .flatMap((c) => c.labels.map((l) => l.height))
      .filter((h) => h >= 4)
      .sort((a, b) => a - b);
    if (heights.length === 0) return 2;
    cap = heights[heights.length >> 1]! / 1.3;
  } else {
    cap = inkHeight(gray, 255);
    if (cap === 0) return 2;
    if (layout === 'line') cap /= 1.15;
  }
  return Math.max(1, Math.min(layout === 'block' ? 4 : 8, target / cap));
}

/** Rows from the first to the last that hold ink (a pixel far from the ground). */
function inkHeight(gray: GrayImage, ground: number): number {
  let first = -1;
  let last = -1;
  for (let y = 0; y < gray.height; y++) {
    const row = y * gray.width;
    for (let x = 0; x < gray.width; x++) {
      if (Math.abs(gray.data[row + x]! - ground) >= INK_STEP) {
        if (first < 0) first = y;
        last = y;
        break;
      }
    }
  }
  return first < 0 ? 0 : last - first + 1;
}

function borderPixels(gray: GrayImage): Uint8Array {
  const { width: w, height: h, data } = gray;
  if (w < 3 || h < 3) return data;
  const out = new Uint8Array(2 * w + 2 * (h - 2));
  let k = 0;
  for (let x = 0; x < w; x++) {
    out[k++] = data[x]!;
    out[k++] = data[(h - 1) * w + x]!;
  }
  for (let y = 1; y < h - 1; y++) {
    out[k++] = data[y * w]!;
    out[k++] = data[y * w + w - 1]!;
  }
  return out;
}

/** The most common value. */
function dominant(values: Uint8Array): number {
  if (values.length === 0) return 255;
  const hist = new Uint32Array(256);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    hist[v] = hist[v]! + 1;
  }
  let best = 0;
  for (let v = 1; v < 256; v++) if (hist[v]! > hist[best]!) best = v;
  return best;
}

function cropGray(img: GrayImage, r: Region): GrayImage {
  const out = new Uint8Array(r.width * r.height);
  for (let y = 0; y < r.height; y++) {
    const from = (r.y + y) * img.width + r.x;
    out.set(img.data.subarray(from, from + r.width), y * r.width);
  }
  return { width: r.width, height: r.height, data: out };
}

function padImage(img: GrayImage, pad: number, value: number): GrayImage {
  const w = img.width + 2 * pad;
  const h = img.height + 2 * pad;
  const out = new Uint8Array(w * h).fill(value);
  for (let y = 0; y < img.height; y++) out.set(img.data.subarray(y * img.width, (y + 1) * img.width), (y + pad) * w + pad);
  return { width: w, height: h, data: out };
}

function toPgm(img: GrayImage): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${img.width} ${img.height}\n255\n`);
  const out = new Uint8Array(header.length + img.data.length);
  out.set(header);
  out.set(img.data, header.length);
  return out;
}
