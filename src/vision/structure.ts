/**
 * The structure of an image, apart from its colours: where its edges are and how strong the
 * faint ones are. Two renderings of the same content in another colour theme (dark text on light
 * turned light on dark, a blue accent turned green) have the same structure; a different glyph,
 * a check mark that appeared or a highlight that moved do not.
 *
 * The map is the gradient magnitude of the luma (|dx| + |dy|, capped), box-blurred and halved,
 * so a one pixel shift of anti-aliased text barely moves it. Two maps are compared by their
 * zero-mean normalised cross-correlation, which ignores how strong the edges are overall (the
 * contrast of the theme) and keeps where they are. The gradient magnitude does not change sign
 * when a theme inverts light and dark, so neither does the score.
 */
import type { Frame, Region } from '../domain.ts';
import { toGray } from './frame.ts';
import type { GrayImage } from './types.ts';

/** Edge strength below this (in luma levels per pixel, summed over x and y) is noise. */
const EDGE_FLOOR = 6;
/**
 * Edge strength above this counts as this: a theme changes how strongly each edge stands off
 * (a dark theme's selection border by 40 levels and its text by 180, where the light theme had
 * both near 150), not where the edges are.
 */
const EDGE_CAP = 48;

/** The structure map of a frame: gradient magnitude, blurred and at half size. */
export function structureMap(frame: Frame): GrayImage {
  const gray = toGray(frame);
  const { width: w, height: h, data } = gray;
  const grad = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const v = data[i]!;
      const dx = x + 1 < w ? Math.abs(data[i + 1]! - v) : 0;
      const dy = y + 1 < h ? Math.abs(data[i + w]! - v) : 0;
      const g = dx + dy;
      grad[i] = g < EDGE_FLOOR ? 0 : Math.min(g, EDGE_CAP);
    }
  }
  // 3×3 box blur, then every other pixel.
  const hw = Math.max(1, (w + 1) >> 1);
  const hh = Math.max(1, (h + 1) >> 1);
  const out = new Uint8Array(hw * hh);
  for (let y = 0; y < hh; y++) {
    for (let x = 0; x < hw; x++) {
      let sum = 0;
      let n = 0;
      for (let dy = -1; dy <= 1; dy++) {
        const sy = 2 * y + dy;
        if (sy < 0 || sy >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const sx = 2 * x + dx;
          if (sx < 0 || sx >= w) continue;
          sum += grad[sy * w + sx]!;
          n++;
        }
      }
      out[y * hw + x] = Math.min(255, Math.round(sum / Math.max(1, n)));
    }
  }
  return { width: hw, height: hh, data: out };
}

/**
 * How alike the structure of two frames of the same size is, 0..1 (1: the same edges in the same
 * proportions, whatever the colours). Two frames without any edge are alike (1); one with edges
 * and one without are not (0). Frames of different sizes score 0.
 * @param ignore areas left out of the comparison (frame pixels), with the edges at their rims
 */
export function structureSimilarity(a: Frame, b: Frame, ignore: readonly Region[] = []): number {
  if (a.width !== b.width || a.height !== b.height) return 0;
  const A = structureMap(a);
  const B = structureMap(b);
  const keep = keptCells(A.width, A.height, ignore);
  let n = 0;
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < A.data.length; i++) {
    if (!keep[i]) continue;
    n++;
    sa += A.data[i]!;
    sb += B.data[i]!;
  }
  const ma = sa / Math.max(1, n);
  const mb = sb / Math.max(1, n);
  let cov = 0;
  let va = 0;
  let vb = 0;
  for (let i = 0; i < A.data.length; i++) {
    if (!keep[i]) continue;
    const da = A.data[i]! - ma;
    const db = B.data[i]! - mb;
    cov += da * db;
    va += da * da;
    vb += db * db;
  }
  const flatA = sa === 0 || va === 0;
  const flatB = sb === 0 || vb === 0;
  if (flatA || flatB) return flatA && flatB ? 1 : 0;
  return Math.max(0, Math.min(1, cov / Math.sqrt(va * vb)));
}

/**
 * Which cells of a structure map of `w`×`h` lie clear of `ignore`: a cell sums the 3×3 pixels
 * around its source pixel (2x, 2y), so one that reaches into an ignored area is left out.
 */
function keptCells(w: number, h: number, ignore: readonly Region[]): Uint8Array {
  const keep = new Uint8Array(w * h).fill(1);
  for (const r of ignore) {
    const x0 = Math.max(0, Math.ceil((r.x - 1) / 2));
    const y0 = Math.max(0, Math.ceil((r.y - 1) / 2));
    const x1 = Math.min(w - 1, Math.floor((r.x + r.width) / 2));
    const y1 = Math.min(h - 1, Math.floor((r.y + r.height) / 2));
    for (let y = y0; y <= y1; y++) keep.fill(0, y * w + x0, x1 >= x0 ? y * w + x1 + 1 : y * w + x0);
  }
  return keep;
}
