/**
 * Connected components of a binary mask over a w×h grid, 8-connected: the strokes of an
 * anti-aliased glyph, a border's rounded corner or a diagonal run of changed cells often touch
 * only at a corner, and they are still one thing.
 *
 * Only boxes and pixel counts are measured here; a caller that needs more per component (the
 * darkest pixel, changed pixels per cell) reads it through `labels` afterwards, so the fill loop
 * stays free of callbacks.
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
}

/** Labels the 8-connected components of the pixels set (non-zero) in `mask`; `mask` is only read. */
export function labelComponents(mask: Uint8Array, w: number, h: number): Components {
  if (mask.length !== w * h) throw new RangeError(`a mask of ${mask.length} pixels for a ${w}×${h} grid`);
  const labels = new Int32Array(mask.length);
  const boxes: ComponentBox[] = [];
  const stack: number[] = [];
  for (let s = 0; s < mask.length; s++) {
    if (mask[s] === 0 || labels[s] !== 0) continue;
    const id = boxes.length + 1;
    const b: ComponentBox = { x0: w, y0: h, x1: -1, y1: -1, n: 0 };
    labels[s] = id;
    stack.push(s);
    while (stack.length > 0) {
      const i = stack.pop()!;
      const x = i % w;
      const y = (i - x) / w;
      b.n++;
      if (x < b.x0) b.x0 = x;
      if (x > b.x1) b.x1 = x;
      if (y < b.y0) b.y0 = y;
      if (y > b.y1) b.y1 = y;
      // The 3×3 window clipped to the grid, as index ranges: cheaper than a neighbour iterator
      // or per-neighbour bounds checks in this, the hottest loop of segmentation.
      const left = x > 0 ? -1 : 0;
      const right = x + 1 < w ? 1 : 0;
      for (let row = y > 0 ? i - w : i, last = y + 1 < h ? i + w : i; row <= last; row += w) {
        for (let j = row + left; j <= row + right; j++) {
          if (mask[j] !== 0 && labels[j] === 0) {
            labels[j] = id;
            stack.push(j);
          }
        }
      }
    }
    boxes.push(b);
  }
  return { labels, boxes };
}
