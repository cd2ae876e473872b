/**
 * Fingerprints of screen states, for the navigation graph: a short text per frame that stays the
 * same under tiny noise (a caret, an anti-aliasing flicker, a changed digit moves a cell by at
 * most one level) and differs for a different screen (another page, a dialog, a menu).
 *
 * Format: `fp1:<W>x<H>:<tone>:<detail>`. The frame is cut into a 16 × 16 grid; for every cell,
 * `tone` holds its mean luma and `detail` its density of edges (layout: where text, borders and
 * controls are), one hex digit (0..f) each, row by row. A cell mostly covered by `ignore` regions
 * is written `x` and skipped by the distance. Frames over 250 000 pixels are sampled every other
 * row and column.
 */
import type { Frame, Region } from '../domain.ts';
import { assertFrame, clampRegion, isEmptyRegion } from './frame.ts';

/** Cells per side. */
const GRID = 16;
/** Luma step that makes a pixel an edge pixel. */
const EDGE_STEP = 32;

export interface FingerprintParts {
  readonly width: number;
  readonly height: number;
  /** GRID×GRID levels 0..15, or -1 for an ignored cell. */
  readonly tone: Int8Array;
  readonly detail: Int8Array;
}

/** The fingerprint of a frame; pixels inside `ignore` do not count. */
export function fingerprint(frame: Frame, ignore: readonly Region[] = []): string {
  assertFrame(frame);
  const { width, height, data } = frame;
  const cells = GRID * GRID;
  // Large frames are sampled every other row and column (4× faster; the grid is still ≥ 20 samples a side).
  const step = width * height > 250_000 ? 2 : 1;
  const cols = Math.ceil(width / step);
  const sum = new Float64Array(cells);
  const edges = new Float64Array(cells);
  const counted = new Float64Array(cells);
  const area = new Float64Array(cells);
  const cellOfCol = new Int32Array(cols);
  for (let i = 0; i < cols; i++) cellOfCol[i] = Math.min(GRID - 1, Math.floor((i * step * GRID) / width));
  const spans = ignore.map((r) => clampRegion(r, frame)).filter((r) => !isEmptyRegion(r));
  const prevRow = new Uint8Array(cols);
  const row = new Uint8Array(cols);
  const skip = new Uint8Array(cols);
  for (let y = 0; y < height; y += step) {
    const cy = Math.min(GRID - 1, Math.floor((y * GRID) / height)) * GRID;
    for (let i = 0, p = y * width * 4; i < cols; i++, p += 4 * step) {
      row[i] = (data[p]! * 77 + data[p + 1]! * 150 + data[p + 2]! * 29 + 128) >> 8;
    }
    let skipping = false;
    for (const r of spans) {
      if (y < r.y || y >= r.y + r.height) continue;
      if (!skipping) skip.fill(0);
      skipping = true;
      skip.fill(1, Math.ceil(r.x / step), Math.ceil((r.x + r.width) / step));
    }
    for (let i = 0; i < cols; i++) {
      const c = cy + cellOfCol[i]!;
      area[c] = area[c]! + 1;
      if (skipping && skip[i]) continue;
      const v = row[i]!;
      sum[c] = sum[c]! + v;
      counted[c] = counted[c]! + 1;
      if ((i > 0 && Math.abs(v - row[i - 1]!) >= EDGE_STEP) || (y > 0 && Math.abs(v - prevRow[i]!) >= EDGE_STEP)) {
        edges[c] = edges[c]! + 1;
      }
    }
    prevRow.set(row);
  }
  let tone = '';
  let detail = '';
  for (let c = 0; c < cells; c++) {
    if (counted[c]! === 0 || counted[c]! < area[c]! / 2) {
      tone += 'x';
      detail += 'x';
      continue;
    }
    tone += Math.min(15, Math.floor(sum[c]! / counted[c]! / 16)).toString(16);
    // sqrt spreads the small densities of borders and sparse labels over several levels.
    detail += Math.min(15, Math.round(Math.sqrt(edges[c]! / counted[c]!) * 24)).toString(16);
  }
  return `fp1:${width}x${height}:${tone}:${detail}`;
}

/** Parses a fingerprint; null when it is not one. */
export function parseFingerprint(fp: string): FingerprintParts | null {
  const m = /^fp1:(\d+)x(\d+):([0-9a-fx]{256}):([0-9a-fx]{256})$/.exec(fp);
  if (!m) return null;
  const levels = (s: string): Int8Array => Int8Array.from(s, (ch) => (ch === 'x' ? -1 : parseInt(ch, 16)));
  return { width: Number(m[1]), height: Number(m[2]), tone: levels(m[3]!), detail: levels(m[4]!) };
}

/**
 * How different two fingerprints are, 0 (same) .. 1: the share of cells (known in both) whose
 * tone or detail moved by 2 levels or more. Different sizes, or an unparsable fingerprint, give 1.
 */
export function fingerprintDistance(a: string, b: string): number {
  if (a === b) return 0;
  const pa = parseFingerprint(a);
  const pb = parseFingerprint(b);
  if (!pa || !pb || pa.width !== pb.width || pa.height !== pb.height) return 1;
  let known = 0;
  let differ = 0;
  for (let c = 0; c < GRID * GRID; c++) {
    const ta = pa.tone[c]!;
    const tb = pb.tone[c]!;
    if (ta < 0 || tb < 0) continue;
    known++;
    if (Math.abs(ta - tb) >= 2 || Math.abs(pa.detail[c]! - pb.detail[c]!) >= 2) differ++;
  }
  return known === 0 ? 0 : differ / known;
}

/**
 * True when two fingerprints (or frames) show the same screen state.
 * @param tolerance largest distance still the same state, 0..1 @default 0.04 (about 10 of 256 cells)
 */
export function sameState(a: string | Frame, b: string | Frame, tolerance = 0.04): boolean {
  const fa = typeof a === 'string' ? a : fingerprint(a);
  const fb = typeof b === 'string' ? b : fingerprint(b);
  return fingerprintDistance(fa, fb) <= tolerance;
}
