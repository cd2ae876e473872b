/**
 * Connected components of a binary mask over a w×h grid, 8-connected: the strokes of an
 * anti-aliased glyph, a border's rounded corner or a diagonal run of changed cells often touch
 * only at a corner, and they are still one thing.
 *
 * Only boxes and pixel counts are measured here. Callers that need more per component (the
 * darkest value, changed pixels per cell) take it in one pass over `labels` afterwards, which
 * keeps the fill loop free of callbacks.
 */

/** A component's box (both corners inclusive) and how many pixels it has. */
export interface ComponentBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  n: number;
}

export interface Components {
  /** Per pixel, row-major: 0 where the mask is clear, else 1 + the index of its component in `boxes`. */
  readonly labels: Int32Array;
  /** In the row-major order of each component's first pixel. */
  readonly boxes: ComponentBox[];
  /**
   * The set pixels' indices, component after component in the order of `boxes` (so component k
   * holds the `boxes[k].n` entries after those of the earlier ones): a caller measuring more per
   * component, or erasing some, visits only their pixels instead of the whole grid.
   */
  readonly pixels: readonly number[];
}

/**
 * Writes the indices of the (up to 8) neighbours of (x, y) that lie inside the w×h grid into
 * `out` and returns how many there are. Filling the caller's buffer instead of yielding keeps
 * per-pixel loops free of iterator objects and closures.
 */
export function neighbours8(x: number, y: number, w: number, h: number, out: Int32Array): number {
  const xa = x > 0 ? x - 1 : 0;
  const xb = x + 1 < w ? x + 1 : x;
  const ya = y > 0 ? y - 1 : 0;
  const yb = y + 1 < h ? y + 1 : y;
  let k = 0;
  for (let yy = ya; yy <= yb; yy++) {
    const row = yy * w;
    for (let xx = xa; xx <= xb; xx++) if (xx !== x || yy !== y) out[k++] = row + xx;
  }
  return k;
}

/** Labels the 8-connected components of the pixels set (non-zero) in `mask`, which is left as it is. */
export function labelComponents(mask: Uint8Array, w: number, h: number): Components {
  if (mask.length !== w * h) throw new RangeError(`a mask of ${mask.length} pixels for a ${w}×${h} grid`);
  const labels = new Int32Array(mask.length);
  const boxes: ComponentBox[] = [];
  // Breadth first, queued in `pixels` itself: each component's pixels end up side by side.
  const pixels: number[] = [];
  const near = new Int32Array(8);
  for (let s = 0; s < mask.length; s++) {
    if (mask[s] === 0 || labels[s] !== 0) continue;
    const id = boxes.length + 1;
    const b: ComponentBox = { x0: w, y0: h, x1: -1, y1: -1, n: 0 };
    labels[s] = id;
    for (let head = pixels.push(s) - 1; head < pixels.length; head++) {
      const i = pixels[head]!;
      const x = i % w;
      const y = (i - x) / w;
      b.n++;
      if (x < b.x0) b.x0 = x;
      if (x > b.x1) b.x1 = x;
      if (y < b.y0) b.y0 = y;
      if (y > b.y1) b.y1 = y;
      const k = neighbours8(x, y, w, h, near);
      for (let t = 0; t < k; t++) {
        const j = near[t]!;
        if (mask[j] !== 0 && labels[j] === 0) {
          labels[j] = id;
          pixels.push(j);
        }
      }
    }
    boxes.push(b);
  }
  return { labels, boxes, pixels };
}
