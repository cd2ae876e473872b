/**
 * What changed between two frames: a fast equality test and the boxes around changed pixels.
 * Rows are first compared natively (memcmp); only rows that differ are walked, a 32-bit word
 * (one pixel) at a time, and equal words are skipped.
 */
import type { Frame, Region } from '../domain.ts';
import { labelComponents } from './components.ts';
import { assertFrame, byteView, clampRegion, isEmptyRegion, pixelWords, regionGap, unionRegions } from './frame.ts';

export interface ChangeOptions {
  /** Regions whose pixels are never counted as changed. @default [] */
  readonly ignore?: readonly Region[];
  /** Largest per-channel difference (0..255) still counted as equal; 0 = exact. @default 0 */
  readonly tolerance?: number;
  /** Changed areas this many pixels apart or closer are merged into one box. @default 8 */
  readonly gap?: number;
  /** A box with fewer changed pixels than this is dropped (speckle filter). @default 1 */
  readonly minPixels?: number;
}

export const CHANGE_DEFAULTS = Object.freeze({ tolerance: 0, gap: 8, minPixels: 1 });

/** A changed box with the number of changed pixels inside it. */
export interface ChangedRegion extends Region {
  readonly pixels: number;
}

/**
 * True when both frames have the same size and the same pixels outside `ignore`.
 * Identical frames cost one memcmp.
 */
export function framesEqual(a: Frame, b: Frame, ignore: readonly Region[] = []): boolean {
  assertFrame(a, 'a');
  assertFrame(b, 'b');
  if (a.width !== b.width || a.height !== b.height) return false;
  const A = byteView(a);
  const B = byteView(b);
  if (ignore.length === 0) return A.equals(B);
  const rowBytes = a.width * 4;
  const spans = ignoreSpans(ignore, a);
  for (let y = 0; y < a.height; y++) {
    const row = y * rowBytes;
    if (A.compare(B, row, row + rowBytes, row, row + rowBytes) === 0) continue;
    // Compare the parts of the row outside the ignored spans.
    let x = 0;
    for (const [x0, x1] of rowSpans(spans, y)) {
      if (x0 > x && A.compare(B, row + x * 4, row + x0 * 4, row + x * 4, row + x0 * 4) !== 0) return false;
      x = Math.max(x, x1);
    }
    if (x < a.width && A.compare(B, row + x * 4, row + rowBytes, row + x * 4, row + rowBytes) !== 0) return false;
  }
  return true;
}

/**
 * How many pixels of `region` in `frame` differ in colour from the same pixel in every one of
 * `others` (frames of its size): changed from one state and not back to another, say.
 */
export function pixelsUnlikeAll(frame: Frame, others: readonly Frame[], region: Region): number {
  const r = clampRegion(region, frame.width, frame.height);
  const d = frame.data;
  let count = 0;
  for (let y = r.y; y < r.y + r.height; y++) {
    for (let x = r.x; x < r.x + r.width; x++) {
      const i = (y * frame.width + x) * 4;
      if (others.every((o) => o.data[i] !== d[i] || o.data[i + 1] !== d[i + 1] || o.data[i + 2] !== d[i + 2])) count++;
    }
  }
  return count;
}

/**
 * Boxes around the pixels that differ between `a` and `b`, clustered: changed pixels within
 * about `gap` pixels of each other share one box. Sorted top to bottom, then left to right.
 * Frames of different sizes yield one box covering both.
 */
export function changedRegions(a: Frame, b: Frame, options: ChangeOptions = {}): ChangedRegion[] {
  assertFrame(a, 'a');
  assertFrame(b, 'b');
  if (a.width !== b.width || a.height !== b.height) {
    const width = Math.max(a.width, b.width);
    const height = Math.max(a.height, b.height);
    return [{ x: 0, y: 0, width, height, pixels: width * height }];
  }
  const ignore = options.ignore ?? [];
  const tolerance = options.tolerance ?? CHANGE_DEFAULTS.tolerance;
  const gap = Math.max(0, options.gap ?? CHANGE_DEFAULTS.gap);
  const minPixels = options.minPixels ?? CHANGE_DEFAULTS.minPixels;
  const { width, height } = a;
  const A = byteView(a);
  const B = byteView(b);
  if (A.equals(B)) return [];

  // Pass 1: changed pixels accumulated into cells of about gap/2 pixels.
  const cell = Math.max(1, Math.ceil(gap / 2));
  const gw = Math.ceil(width / cell);
  const gh = Math.ceil(height / cell);
  const count = new Int32Array(gw * gh);
  const changed = new Uint8Array(gw * gh);
  const minX = new Int32Array(gw * gh);
  const maxX = new Int32Array(gw * gh);
  const minY = new Int32Array(gw * gh);
  const maxY = new Int32Array(gw * gh);
  const wa = pixelWords(a);
  const wb = pixelWords(b);
  const da = a.data;
  const db = b.data;
  const spans = ignoreSpans(ignore, a);
  const rowBytes = width * 4;
  for (let y = 0; y < height; y++) {
    const row = y * rowBytes;
    if (A.compare(B, row, row + rowBytes, row, row + rowBytes) === 0) continue;
    const ignored = spans.length > 0 ? rowSpans(spans, y) : NO_SPANS;
    const cy = ((y / cell) | 0) * gw;
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (wa[i] === wb[i]) continue;
      if (tolerance > 0) {
        const p = i * 4;
        if (
          Math.abs(da[p]! - db[p]!) <= tolerance &&
          Math.abs(da[p + 1]! - db[p + 1]!) <= tolerance &&
          Math.abs(da[p + 2]! - db[p + 2]!) <= tolerance &&
          Math.abs(da[p + 3]! - db[p + 3]!) <= tolerance
        )
          continue;
      }
      if (ignored.length > 0 && inSpans(ignored, x)) continue;
      const c = cy + ((x / cell) | 0);
      const n = count[c]!;
      count[c] = n + 1;
      if (n === 0) {
        changed[c] = 1;
        minX[c] = x;
        maxX[c] = x;
        minY[c] = y;
        maxY[c] = y;
      } else {
        if (x < minX[c]!) minX[c] = x;
        if (x > maxX[c]!) maxX[c] = x;
        maxY[c] = y;
      }
    }
  }

  // Pass 2: 8-connected components of changed cells, boxed by the changed pixels in them (not
  // by the whole cells).
  const { labels, boxes: parts } = labelComponents(changed, gw, gh);
  const boxes = parts.map(() => ({ x0: width, y0: height, x1: -1, y1: -1, pixels: 0 }));
  for (let c = 0; c < labels.length; c++) {
    const id = labels[c]!;
    if (id === 0) continue;
    const b = boxes[id - 1]!;
    b.pixels += count[c]!;
    if (minX[c]! < b.x0) b.x0 = minX[c]!;
    if (maxX[c]! > b.x1) b.x1 = maxX[c]!;
    if (minY[c]! < b.y0) b.y0 = minY[c]!;
    if (maxY[c]! > b.y1) b.y1 = maxY[c]!;
  }

  // Pass 3: merge boxes that overlap or lie within `gap` of each other.
  const regions = boxes.map((b) => ({ x: b.x0, y: b.y0, width: b.x1 - b.x0 + 1, height: b.y1 - b.y0 + 1, pixels: b.pixels }));
  const merged = mergeRegions(regions, gap).filter((r) => r.pixels >= minPixels);
  return merged.sort((p, q) => p.y - q.y || p.x - q.x);
}

/**
 * Merges boxes that overlap or lie `gap` pixels apart or closer, until none do.
 * Pixel counts add up.
 */
export function mergeRegions<T extends Region & { readonly pixels?: number }>(regions: readonly T[], gap: number): ChangedRegion[] {
  let boxes: ChangedRegion[] = regions.map((r) => ({
    x: r.x,
    y: r.y,
    width: r.width,
    height: r.height,
    pixels: r.pixels ?? r.width * r.height,
  }));
  let changed = true;
  while (changed && boxes.length > 1) {
    changed = false;
    const next: ChangedRegion[] = [];
    for (const box of boxes) {
      let cur = box;
      for (let i = 0; i < next.length; i++) {
        const other = next[i]!;
        if (regionGap(cur, other) <= gap) {
          cur = { ...unionRegions(cur, other), pixels: cur.pixels + other.pixels };
          next.splice(i, 1);
          i = -1;
          changed = true;
        }
      }
      next.push(cur);
    }
    boxes = next;
  }
  return boxes;
}

// ---- ignore spans ----------------------------------------------------------------------

type Span = readonly [number, number];
const NO_SPANS: readonly Span[] = [];

interface IgnoreSpan {
  readonly y0: number;
  readonly y1: number;
  readonly x0: number;
  readonly x1: number;
}

function ignoreSpans(ignore: readonly Region[], frame: Frame): IgnoreSpan[] {
  const out: IgnoreSpan[] = [];
  for (const region of ignore) {
    const r = clampRegion(region, frame);
    if (!isEmptyRegion(r)) out.push({ y0: r.y, y1: r.y + r.height, x0: r.x, x1: r.x + r.width });
  }
  return out;
}

/** The ignored [x0, x1) spans of row y, sorted by x0. */
function rowSpans(spans: readonly IgnoreSpan[], y: number): Span[] {
  const out: Span[] = [];
  for (const s of spans) if (y >= s.y0 && y < s.y1) out.push([s.x0, s.x1]);
  return out.sort((p, q) => p[0] - q[0]);
}

function inSpans(spans: readonly Span[], x: number): boolean {
  for (const [x0, x1] of spans) if (x >= x0 && x < x1) return true;
  return false;
}
