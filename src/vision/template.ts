/**
 * Template search: where does a small image (an anchor crop) appear in a frame?
 *
 * Score: zero-mean normalised cross-correlation (ZNCC) on luma, clamped to 0..1 — 1 is a perfect
 * match, and the score does not move when brightness or contrast shift uniformly. A flat needle
 * (no texture: ZNCC is undefined) is scored by closeness of mean luma and flatness instead.
 *
 * Coarse to fine: both images are halved until the needle is about 50 pixels in area; every
 * position is scored there, the best few distinct candidates are followed down the pyramid with
 * a ±2 pixel search per level, and the final score is the exact full-resolution ZNCC.
 */
import type { Frame, Point, Region } from '../domain.ts';
import { clampRegion, crop, isEmptyRegion, scale, toGray } from './frame.ts';
import type { GrayImage } from './types.ts';

export interface TemplateOptions {
  /** Only positions where the whole needle lies inside this region are searched. @default the whole haystack */
  readonly searchRegion?: Region;
  /** Score needed for `found`, 0..1: the caller's threshold (src/brain/thresholds.ts). */
  readonly minScore: number;
  /**
   * Candidates kept from the coarsest level and refined, at least; every other coarse peak within
   * 0.15 of the best is refined too (up to 100), since look-alike controls (a keypad's keys)
   * differ only in details the coarse level blurs away. @default 8
   */
  readonly candidates?: number;
  /** Passes of a [1 2 1] low-pass over both images before scoring (`findTemplateScaled`). @default 0 */
  readonly soften?: number;
}

export const TEMPLATE_DEFAULTS = Object.freeze({
  candidates: 8,
  /**
   * A needle resized to another scale is compared softened by this many passes: a page drawn
   * at 1.25 hints its text and rounds its 2-px borders its own way, which a resized image never
   * matches pixel for pixel. Measured on the Chromium counter's "Add" at zooms 0.8 to 2: ZNCC
   * rose by 0.07–0.1 (0.87 to 0.95 at 1.25) while the runner-up stayed 0.3 below.
   */
  resizedSoften: 2,
});

export interface TemplateMatch {
  /** True when `score >= minScore`. */
  readonly found: boolean;
  /** Top-left of the best position, in haystack coordinates (also when not found). */
  readonly point: Point;
  /** The needle's box at `point`. */
  readonly box: Region;
  /** 0..1 */
  readonly score: number;
  /** Score of the best other candidate that does not overlap the best one (0 if none): near `score` means ambiguous. */
  readonly secondScore: number;
}

/** Finds `needle` in `haystack`; the best position is returned even when not `found`. */
export function findTemplate(haystack: Frame, needle: Frame, options: TemplateOptions): TemplateMatch {
  const { minScore } = options;
  const area = clampRegion(options.searchRegion ?? { x: 0, y: 0, width: haystack.width, height: haystack.height }, haystack);
  const notFound = (): TemplateMatch => ({
    found: false,
    point: { x: area.x, y: area.y },
    box: { x: area.x, y: area.y, width: needle.width, height: needle.height },
    score: 0,
    secondScore: 0,
  });
  if (needle.width === 0 || needle.height === 0 || isEmptyRegion(area)) return notFound();
  if (needle.width > area.width || needle.height > area.height) return notFound();

  // Pyramids: level 0 is full resolution.
  const whole = area.x === 0 && area.y === 0 && area.width === haystack.width && area.height === haystack.height;
  const passes = options.soften ?? 0;
  const hay: GrayImage[] = [soften(toGray(whole ? haystack : crop(haystack, area)), passes)];
  const ndl: GrayImage[] = [soften(toGray(needle), passes)];
  // Texture is judged at full resolution: a faint detail averages away up the pyramid, yet it is
  // what tells the right place from any flat area of the same tone.
  const flat = needleStats(ndl[0]!).flat;
  while (hay.length < 6) {
    const n = ndl[ndl.length - 1]!;
    // Stop while the halved needle still has enough pixels to correlate (~50, sides ≥ 5) and
    // keeps some texture.
    if (((n.width + 1) >> 1) * ((n.height + 1) >> 1) < 48 || Math.min((n.width + 1) >> 1, (n.height + 1) >> 1) < 5) break;
    const half = halve(n);
    if (!flat && needleStats(half).flat) break;
    hay.push(halve(hay[hay.length - 1]!));
    ndl.push(half);
  }
  const top = hay.length - 1;

  // Coarsest level: score every position, keep the best distinct candidates.
  const keep = options.candidates ?? TEMPLATE_DEFAULTS.candidates;
  const coarse = scoreAll(hay[top]!, ndl[top]!, flat);
  const picks = pickPeaks(coarse, ndl[top]!, keep, 0.15, 100);

  // Refine each candidate down the pyramid.
  const finals: { x: number; y: number; score: number }[] = [];
  const stats = ndl.map((n, level) => (level < top ? needleStats(n, flat) : null));
  for (const pick of picks) {
    let x = pick.x;
    let y = pick.y;
    for (let level = top - 1; level >= 0; level--) {
      const h = hay[level]!;
      const n = ndl[level]!;
      let best = -2;
      let bx = x * 2;
      let by = y * 2;
      for (let dy = -2; dy <= 3; dy++) {
        for (let dx = -2; dx <= 3; dx++) {
          const px = x * 2 + dx;
          const py = y * 2 + dy;
          if (px < 0 || py < 0 || px + n.width > h.width || py + n.height > h.height) continue;
          const s = scoreDirect(h, n, stats[level]!, px, py);
          if (s > best) {
            best = s;
            bx = px;
            by = py;
          }
        }
      }
      x = bx;
      y = by;
    }
    finals.push({ x, y, score: top === 0 ? pick.score : scoreDirect(hay[0]!, ndl[0]!, stats[0]!, x, y) });
  }
  finals.sort((p, q) => q.score - p.score || p.y - q.y || p.x - q.x);
  const best = finals[0];
  if (!best) return notFound();
  const second = finals.find((f) => Math.abs(f.x - best.x) >= needle.width || Math.abs(f.y - best.y) >= needle.height);
  const score = clamp01(best.score);
  const point = { x: best.x + area.x, y: best.y + area.y };
  return {
    found: score >= minScore,
    point,
    box: { ...point, width: needle.width, height: needle.height },
    score,
    secondScore: clamp01(second?.score ?? 0),
  };
}

export interface ScaledMatch extends TemplateMatch {
  /** The factor the needle was resized by where it matched best (1: as it was). */
  readonly scale: number;
}

/**
 * Finds `needle` resized by each factor of `scales` (an image recorded at one scale, searched on
 * a window drawn at another); the best-scoring match wins, its box the resized needle's. A
 * factor that leaves the needle under 2 pixels a side is not tried.
 */
export function findTemplateScaled(haystack: Frame, needle: Frame, scales: readonly number[], options: TemplateOptions): ScaledMatch {
  let best: ScaledMatch | undefined;
  for (const factor of scales) {
    const width = Math.round(needle.width * factor);
    const height = Math.round(needle.height * factor);
    if (width < 2 || height < 2) continue;
    const resized = factor === 1 ? needle : scale(needle, width, height);
    const soft = factor === 1 ? options : { ...options, soften: options.soften ?? TEMPLATE_DEFAULTS.resizedSoften };
    const match = { ...findTemplate(haystack, resized, soft), scale: factor };
    if (!best || match.score > best.score) best = match;
  }
  return best ?? { ...findTemplate(haystack, needle, options), scale: 1 };
}

/**
 * The score (0..1) of `needle` with its top-left at `point` of `haystack`: the cheap check that
 * an anchor is still where it was recorded. 0 when the needle does not fit there.
 */
export function matchAt(haystack: Frame, needle: Frame, point: Point): number {
  const x = Math.round(point.x);
  const y = Math.round(point.y);
  if (x < 0 || y < 0 || x + needle.width > haystack.width || y + needle.height > haystack.height) return 0;
  if (needle.width === 0 || needle.height === 0) return 0;
  const h = toGray(crop(haystack, { x, y, width: needle.width, height: needle.height }));
  const n = toGray(needle);
  return clamp01(scoreDirect(h, n, needleStats(n), 0, 0));
}

// ---- scoring ---------------------------------------------------------------------------

const clamp01 = (v: number): number => Math.min(1, Math.max(0, v));

interface Integrals {
  readonly w: number;
  readonly sum: Float64Array;
  readonly sq: Float64Array;
}

/** Summed-area tables of values and squares, (w+1) × (h+1). */
function integrals(img: GrayImage): Integrals {
  const w = img.width + 1;
  const sum = new Float64Array(w * (img.height + 1));
  const sq = new Float64Array(w * (img.height + 1));
  for (let y = 0; y < img.height; y++) {
    let rs = 0;
    let rq = 0;
    for (let x = 0; x < img.width; x++) {
      const v = img.data[y * img.width + x]!;
      rs += v;
      rq += v * v;
      sum[(y + 1) * w + x + 1] = sum[y * w + x + 1]! + rs;
      sq[(y + 1) * w + x + 1] = sq[y * w + x + 1]! + rq;
    }
  }
  return { w, sum, sq };
}

function boxSum(t: Float64Array, w: number, x: number, y: number, bw: number, bh: number): number {
  return t[(y + bh) * w + x + bw]! - t[y * w + x + bw]! - t[(y + bh) * w + x]! + t[y * w + x]!;
}

interface NeedleStats {
  readonly n: number;
  readonly mean: number;
  /** sqrt(Σ (v - mean)²) */
  readonly norm: number;
  /** Zero-mean needle values. */
  readonly centred: Float32Array;
  readonly flat: boolean;
}

function needleStats(needle: GrayImage, flat?: boolean): NeedleStats {
  const n = needle.width * needle.height;
  let s = 0;
  for (let i = 0; i < n; i++) s += needle.data[i]!;
  const mean = s / n;
  const centred = new Float32Array(n);
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const d = needle.data[i]! - mean;
    centred[i] = d;
    ss += d * d;
  }
  const norm = Math.sqrt(ss);
  // Standard deviation under 2 luma levels: no texture to correlate.
  return { n, mean, norm, centred, flat: flat ?? norm / Math.sqrt(n) < 2 };
}

/** ZNCC (or the flat-needle score) at one position. */
function scoreAt(h: GrayImage, ii: Integrals, needle: GrayImage, st: NeedleStats, x: number, y: number): number {
  const { width: nw, height: nh } = needle;
  const s = boxSum(ii.sum, ii.w, x, y, nw, nh);
  const q = boxSum(ii.sq, ii.w, x, y, nw, nh);
  const hv = Math.max(0, q - (s * s) / st.n);
  if (st.flat) return flatScore(s / st.n, Math.sqrt(hv / st.n), st.mean);
  if (hv < 1e-6 || st.norm < 1e-6) return 0;
  let dot = 0;
  const c = st.centred;
  const hd = h.data;
  for (let j = 0, k = 0; j < nh; j++) {
    const row = (y + j) * h.width + x;
    for (let i = 0; i < nw; i++, k++) dot += hd[row + i]! * c[k]!;
  }
  return dot / (st.norm * Math.sqrt(hv));
}

/** The same score without summed-area tables: one pass over the window (for a few positions). */
function scoreDirect(h: GrayImage, needle: GrayImage, st: NeedleStats, x: number, y: number): number {
  const { width: nw, height: nh } = needle;
  const hd = h.data;
  const c = st.centred;
  let s = 0;
  let q = 0;
  let dot = 0;
  for (let j = 0, k = 0; j < nh; j++) {
    const row = (y + j) * h.width + x;
    for (let i = 0; i < nw; i++, k++) {
      const v = hd[row + i]!;
      s += v;
      q += v * v;
      dot += v * c[k]!;
    }
  }
  const hv = Math.max(0, q - (s * s) / st.n);
  if (st.flat) return flatScore(s / st.n, Math.sqrt(hv / st.n), st.mean);
  if (hv < 1e-6 || st.norm < 1e-6) return 0;
  return dot / (st.norm * Math.sqrt(hv));
}

const flatScore = (mean: number, std: number, needleMean: number): number => 1 - Math.abs(mean - needleMean) / 255 - std / 64;

interface ScoreMap {
  readonly w: number;
  readonly h: number;
  readonly scores: Float32Array;
}

function scoreAll(h: GrayImage, needle: GrayImage, flat: boolean): ScoreMap {
  const w = h.width - needle.width + 1;
  const hh = h.height - needle.height + 1;
  const scores = new Float32Array(Math.max(0, w) * Math.max(0, hh)).fill(-1);
  if (w <= 0 || hh <= 0) return { w: 0, h: 0, scores };
  const ii = integrals(h);
  const st = needleStats(needle, flat);
  for (let y = 0; y < hh; y++) for (let x = 0; x < w; x++) scores[y * w + x] = scoreAt(h, ii, needle, st, x, y);
  return { w, h: hh, scores };
}

/**
 * Local maxima, each at least half a needle away from a better one: the best `k`, plus any
 * within `margin` of the best, at most `max` in all.
 */
function pickPeaks(map: ScoreMap, needle: GrayImage, k: number, margin: number, max: number): { x: number; y: number; score: number }[] {
  const { w, h, scores } = map;
  const order: number[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const v = scores[i]!;
      if (
        v <= 0 ||
        (x > 0 && scores[i - 1]! > v) ||
        (x < w - 1 && scores[i + 1]! > v) ||
        (y > 0 && scores[i - w]! > v) ||
        (y < h - 1 && scores[i + w]! > v)
      )
        continue;
      order.push(i);
    }
  }
  if (order.length === 0 && scores.length > 0) {
    let best = 0;
    for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[best]!) best = i;
    order.push(best);
  }
  order.sort((a, b) => scores[b]! - scores[a]! || a - b);
  const picks: { x: number; y: number; score: number }[] = [];
  const rx = Math.max(1, needle.width / 2);
  const ry = Math.max(1, needle.height / 2);
  const bar = (scores[order[0] ?? 0] ?? 0) - margin;
  for (const i of order) {
    if (picks.length >= max || (picks.length >= k && scores[i]! < bar)) break;
    const x = i % map.w;
    const y = (i - x) / map.w;
    if (picks.some((p) => Math.abs(p.x - x) < rx && Math.abs(p.y - y) < ry)) continue;
    picks.push({ x, y, score: map.scores[i]! });
  }
  return picks;
}

/** `passes` rounds of the separable [1 2 1] / 4 low-pass, edges clamped. */
function soften(img: GrayImage, passes: number): GrayImage {
  const { width: w, height: h } = img;
  let data = img.data;
  for (let p = 0; p < passes; p++) {
    const tmp = new Uint16Array(w * h);
    for (let y = 0; y < h; y++) {
      const row = y * w;
      for (let x = 0; x < w; x++) tmp[row + x] = data[row + Math.max(0, x - 1)]! + 2 * data[row + x]! + data[row + Math.min(w - 1, x + 1)]!;
    }
    const out = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) {
      const up = Math.max(0, y - 1) * w;
      const down = Math.min(h - 1, y + 1) * w;
      for (let x = 0; x < w; x++) out[y * w + x] = (tmp[up + x]! + 2 * tmp[y * w + x]! + tmp[down + x]! + 8) >> 4;
    }
    data = out;
  }
  return { width: w, height: h, data };
}

/**
 * Half size (rounded up), low-passed with the separable binomial kernel [1 3 3 1] / 8 before
 * taking every other pixel: less aliasing than a 2 × 2 average, so a needle cut at an odd offset
 * still looks like its place in the haystack at coarse levels.
 */
function halve(img: GrayImage): GrayImage {
  const sw = img.width;
  const sh = img.height;
  const w = Math.max(1, (sw + 1) >> 1);
  const h = Math.max(1, (sh + 1) >> 1);
  const clampX = (x: number): number => (x < 0 ? 0 : x >= sw ? sw - 1 : x);
  const clampY = (y: number): number => (y < 0 ? 0 : y >= sh ? sh - 1 : y);
  // Horizontal pass: sh rows × w columns, kept ×8.
  const tmp = new Uint16Array(w * sh);
  for (let y = 0; y < sh; y++) {
    const row = y * sw;
    for (let x = 0; x < w; x++) {
      const c = 2 * x;
      tmp[y * w + x] =
        img.data[row + clampX(c - 1)]! + 3 * img.data[row + c]! + 3 * img.data[row + clampX(c + 1)]! + img.data[row + clampX(c + 2)]!;
    }
  }
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const c = 2 * y;
    const r0 = clampY(c - 1) * w;
    const r1 = clampY(c) * w;
    const r2 = clampY(c + 1) * w;
    const r3 = clampY(c + 2) * w;
    for (let x = 0; x < w; x++) {
      out[y * w + x] = (tmp[r0 + x]! + 3 * tmp[r1 + x]! + 3 * tmp[r2 + x]! + tmp[r3 + x]! + 32) >> 6;
    }
  }
  return { width: w, height: h, data: out };
}
