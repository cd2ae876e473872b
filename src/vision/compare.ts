/**
 * The screenshot comparator, following Playwright's `toHaveScreenshot` rules: pixelmatch with a
 * per-pixel colour `threshold`, then a tolerance in pixels (`maxDiffPixels`) or as a share of all
 * pixels (`maxDiffPixelRatio`), with `mask` regions painted identically into both images first.
 * A mismatch is a result (`ok: false` with a message that gives numbers), never an exception;
 * exceptions are kept for malformed input (a frame whose data does not fit its size).
 *
 * Speed: byte-equal frames return after one native memcmp; otherwise pixelmatch runs only on the
 * band of rows that differ (plus two rows of context for its anti-aliasing detector, so the count
 * is the same as a full run).
 */
import pixelmatch from 'pixelmatch';
import type { Frame, Region } from '../domain.ts';
import { assertFrame, byteView, cloneFrame, createFrame, crop, fillRegion, paste, pixelWords } from './frame.ts';
import type { Rgba } from './types.ts';

export interface CompareOptions {
  /**
   * Per-pixel colour distance (YIQ, as pixelmatch) above which a pixel counts as different,
   * 0 (exact) to 1 (anything matches). Stricter than Playwright's 0.2 and pixelmatch's 0.1:
   * a desktop app renders the same pixels run after run, and at 0.1 a panel repainted from pale
   * green to pale pink (a YIQ distance of about 0.09) still passes. Anti-aliased pixels are
   * ignored separately (`includeAA`), so 0.05 does not make text edges flaky.
   * @default 0.05
   */
  readonly threshold?: number;
  /**
   * How many different pixels are tolerated. When neither tolerance is given no pixel may
   * differ; when both are given the stricter one applies (as Playwright).
   * @default 0
   */
  readonly maxDiffPixels?: number;
  /** Tolerated share of different pixels, 0..1, of all pixels of the image. @default 0 */
  readonly maxDiffPixelRatio?: number;
  /** Regions (in image coordinates) painted with `maskColor` in both images before diffing. @default [] */
  readonly mask?: readonly Region[];
  /** Colour of the masks, also visible in the diff image. @default [255, 0, 255, 255] (magenta) */
  readonly maskColor?: Rgba;
  /**
   * Count anti-aliased pixels as differences. Playwright and pixelmatch detect anti-aliasing
   * and do not count it. @default false
   */
  readonly includeAA?: boolean;
  /** Opacity of the expected image drawn (faded, gray) under the diff marks, 0..1. @default 0.1 */
  readonly alpha?: number;
  /** Colour of different pixels in the diff image. @default [255, 0, 0] */
  readonly diffColor?: readonly [number, number, number];
  /** Colour of anti-aliased (uncounted) pixels in the diff image. @default [255, 255, 0] */
  readonly aaColor?: readonly [number, number, number];
  /**
   * When `diffOut` is drawn: 'on-failure' (as Playwright, which makes a diff image only for a
   * failed comparison): drawn whenever more pixels differ at all than are tolerated — every
   * failure, and the rare pass that anti-aliasing or the threshold forgave — and otherwise left
   * untouched at no drawing cost; or 'always'. @default 'on-failure'
   */
  readonly diffImage?: 'on-failure' | 'always';
}

export const COMPARE_DEFAULTS = Object.freeze({
  threshold: 0.05,
  maskColor: [255, 0, 255, 255] as Rgba,
  includeAA: false,
  alpha: 0.1,
  diffColor: [255, 0, 0] as readonly [number, number, number],
  aaColor: [255, 255, 0] as readonly [number, number, number],
  diffImage: 'on-failure' as 'on-failure' | 'always',
});

export interface FrameSize {
  readonly width: number;
  readonly height: number;
}

export interface CompareResult {
  /** True when the images have the same size and no more pixels differ than tolerated. */
  readonly ok: boolean;
  /**
   * Pixels counted as different. When the sizes differ: the differences in the common top-left
   * area plus every pixel of the union canvas outside it.
   */
  readonly diffPixels: number;
  /** diffPixels / all pixels of the compared canvas, unrounded. */
  readonly diffRatio: number;
  /** The tolerance that applied, in pixels (may be fractional when given as a ratio). */
  readonly allowedDiffPixels: number;
  /** Present when the images differ in size; such a comparison never passes. */
  readonly sizeMismatch?: { readonly expected: FrameSize; readonly actual: FrameSize };
  /** One sentence with the numbers, e.g. "1204 pixels (ratio 0.0118 of all image pixels) are different." */
  readonly message: string;
  /**
   * The frame the diff image was drawn into: `diffOut` itself, or — when the sizes differ and
   * `diffOut` is not of the union size — a new frame of the union size (the area outside the
   * common part painted in `diffColor`). Absent when `diffOut` was null or nothing was drawn
   * (a passing comparison with `diffImage: 'on-failure'`).
   */
  readonly diff?: Frame;
}

/** The canvas a comparison of two frames is drawn on: the larger width and the larger height. */
export const diffCanvasSize = (expected: FrameSize, actual: FrameSize): FrameSize => ({
  width: Math.max(expected.width, actual.width),
  height: Math.max(expected.height, actual.height),
});

/**
 * Compares `actual` against `expected`.
 * @param diffOut a frame of the canvas size to draw the diff into, or null to skip the diff image.
 *   When drawn (see `diffImage`) its previous content is overwritten.
 */
export function compareFrames(expected: Frame, actual: Frame, diffOut: Frame | null, options: CompareOptions = {}): CompareResult {
  assertFrame(expected, 'expected');
  assertFrame(actual, 'actual');
  const threshold = options.threshold ?? COMPARE_DEFAULTS.threshold;
  if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`threshold must be within 0..1. Got ${threshold}`);
  const mask = options.mask ?? [];
  const maskColor = options.maskColor ?? COMPARE_DEFAULTS.maskColor;

  const canvas = diffCanvasSize(expected, actual);
  const sameSize = expected.width === actual.width && expected.height === actual.height;
  let diff: Frame | undefined;
  if (diffOut) {
    assertFrame(diffOut, 'diffOut');
    if (diffOut.width === canvas.width && diffOut.height === canvas.height) diff = diffOut;
    else if (sameSize) {
      throw new RangeError(`diffOut must be ${canvas.width}×${canvas.height} like the images. Got ${diffOut.width}×${diffOut.height}`);
    } else diff = createFrame(canvas.width, canvas.height);
  }

  // Different sizes: compare the common top-left area; every pixel outside it counts as different.
  const common = { x: 0, y: 0, width: Math.min(expected.width, actual.width), height: Math.min(expected.height, actual.height) };
  let a = sameSize ? expected : crop(expected, common);
  let b = sameSize ? actual : crop(actual, common);
  if (mask.length > 0) {
    if (sameSize) {
      a = cloneFrame(a);
      b = cloneFrame(b);
    }
    for (const r of mask) {
      fillRegion(a, r, maskColor);
      fillRegion(b, r, maskColor);
    }
  }
  const commonDiff = diff && !sameSize ? createFrame(common.width, common.height) : (diff ?? null);

  const total = canvas.width * canvas.height;
  const outside = total - common.width * common.height;
  const allowed = allowedDiffPixels(total, options);
  // 'on-failure': draw only when the comparison can fail — when more pixels differ at all (an
  // upper bound of what pixelmatch counts) than are tolerated. One pixelmatch pass either way.
  const always = (options.diffImage ?? COMPARE_DEFAULTS.diffImage) === 'always';
  const drawn = diff !== undefined && (always || !sameSize || unequalPixels(a, b) + outside > allowed);
  const diffPixels = countDiffPixels(a, b, drawn ? commonDiff : null, threshold, options) + outside;
  if (drawn && diff && commonDiff && commonDiff !== diff) {
    const [r, g, bl] = options.diffColor ?? COMPARE_DEFAULTS.diffColor;
    fillRegion(diff, { x: 0, y: 0, width: canvas.width, height: canvas.height }, [r, g, bl, 255]);
    paste(diff, commonDiff, { x: 0, y: 0 });
  }
  if (!drawn) diff = undefined;
  const diffRatio = total === 0 ? 0 : diffPixels / total;
  const counted = `${diffPixels} pixels (ratio ${formatRatio(diffRatio)} of all image pixels) are different.`;

  if (!sameSize) {
    return {
      ok: false,
      diffPixels,
      diffRatio,
      allowedDiffPixels: allowed,
      sizeMismatch: {
        expected: { width: expected.width, height: expected.height },
        actual: { width: actual.width, height: actual.height },
      },
      message:
        `Expected an image ${expected.width}px by ${expected.height}px, ` + `received ${actual.width}px by ${actual.height}px. ${counted}`,
      ...(diff ? { diff } : {}),
    };
  }
  const ok = diffPixels <= allowed;
  let message: string;
  if (diffPixels === 0) message = 'Images match: 0 pixels are different.';
  else if (ok) message = `${counted.slice(0, -1)}, within the tolerance of ${formatCount(allowed)} pixels.`;
  else message = allowed > 0 ? `${counted} At most ${formatCount(allowed)} may differ.` : counted;
  return { ok, diffPixels, diffRatio, allowedDiffPixels: allowed, message, ...(diff ? { diff } : {}) };
}

/** The tolerance in pixels for a canvas of `total` pixels, by Playwright's rule. */
export function allowedDiffPixels(total: number, options: Pick<CompareOptions, 'maxDiffPixels' | 'maxDiffPixelRatio'>): number {
  const byCount = options.maxDiffPixels;
  const byRatio = options.maxDiffPixelRatio === undefined ? undefined : options.maxDiffPixelRatio * total;
  if (byCount !== undefined && byRatio !== undefined) return Math.min(byCount, byRatio);
  return byCount ?? byRatio ?? 0;
}

/** Ratio rounded up to 4 decimals, so a non-zero share never prints as 0. */
const formatRatio = (ratio: number): string => (Math.ceil(ratio * 1e4) / 1e4).toFixed(4);

const formatCount = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(1));

function countDiffPixels(a: Frame, b: Frame, out: Frame | null, threshold: number, options: CompareOptions): number {
  const { width, height } = a;
  const alpha = options.alpha ?? COMPARE_DEFAULTS.alpha;
  const A = byteView(a);
  const B = byteView(b);
  if (A.equals(B)) {
    if (out) drawGrayRows(a, out, 0, height, alpha);
    return 0;
  }
  const rowBytes = width * 4;
  let first = 0;
  while (first < height && A.compare(B, first * rowBytes, (first + 1) * rowBytes, first * rowBytes, (first + 1) * rowBytes) === 0) first++;
  let last = height - 1;
  while (last > first && A.compare(B, last * rowBytes, (last + 1) * rowBytes, last * rowBytes, (last + 1) * rowBytes) === 0) last--;
  // Two rows of context keep pixelmatch's anti-aliasing detector exact at the band's edges.
  const y0 = Math.max(0, first - 2);
  const y1 = Math.min(height, last + 3);
  const band = (f: Frame): Uint8Array => f.data.subarray(y0 * rowBytes, y1 * rowBytes);
  const count = pixelmatch(alignedBand(a, y0, y1), alignedBand(b, y0, y1), out ? band(out) : undefined, width, y1 - y0, {
    threshold,
    includeAA: options.includeAA ?? COMPARE_DEFAULTS.includeAA,
    alpha,
    diffColor: [...(options.diffColor ?? COMPARE_DEFAULTS.diffColor)] as [number, number, number],
    aaColor: [...(options.aaColor ?? COMPARE_DEFAULTS.aaColor)] as [number, number, number],
  });
  if (out) {
    drawGrayRows(a, out, 0, y0, alpha);
    drawGrayRows(a, out, y1, height, alpha);
  }
  return count;
}

/** Pixels whose bytes differ at all (equal rows skipped natively). */
function unequalPixels(a: Frame, b: Frame): number {
  const A = byteView(a);
  const B = byteView(b);
  if (A.equals(B)) return 0;
  const rowBytes = a.width * 4;
  const wa = pixelWords(a);
  const wb = pixelWords(b);
  let count = 0;
  for (let y = 0; y < a.height; y++) {
    const row = y * rowBytes;
    if (A.compare(B, row, row + rowBytes, row, row + rowBytes) === 0) continue;
    for (let i = y * a.width, end = i + a.width; i < end; i++) if (wa[i] !== wb[i]) count++;
  }
  return count;
}

/** pixelmatch takes Uint32Array views: hand it 4-byte aligned memory (copy only when misaligned). */
function alignedBand(f: Frame, y0: number, y1: number): Uint8Array {
  const band = f.data.subarray(y0 * f.width * 4, y1 * f.width * 4);
  return band.byteOffset % 4 === 0 ? band : band.slice();
}

/** Rows [y0, y1) of the image, faded to gray, as pixelmatch draws unchanged pixels. */
function drawGrayRows(img: Frame, out: Frame, y0: number, y1: number, alpha: number): void {
  const src = img.data;
  const dst = out.data;
  for (let p = y0 * img.width * 4, end = y1 * img.width * 4; p < end; p += 4) {
    const v = 255 + ((src[p]! * 0.29889531 + src[p + 1]! * 0.58662247 + src[p + 2]! * 0.11448223 - 255) * alpha * src[p + 3]!) / 255;
    dst[p] = v;
    dst[p + 1] = v;
    dst[p + 2] = v;
    dst[p + 3] = 255;
  }
}
