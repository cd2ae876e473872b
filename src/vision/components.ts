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
  // A scanline fill: the stack holds labelled pixels whose row run is still to be grown. It looks
  // at each pixel about three times rather than nine, and is faster than pixel-by-pixel filling
  // (this is the hottest loop of segmentation and ink cleaning).
  const stack: number[] = [];
  for (let s = 0; s < mask.length; s++) {
    if (mask[s] === 0 || labels[s] !== 0) continue;
    const id = boxes.length + 1;
    const b: ComponentBox = { x0: w, y0: h, x1: -1, y1: -1, n: 0 };
    labels[s] = id;
    stack.push(s);
    while (stack.length > 0) {
      const i = stack.pop()!;
      const y = (i / w) | 0;
      const rowStart = y * w;
      const rowEnd = rowStart + w - 1;
      let l = i;
      while (l > rowStart && mask[l - 1] !== 0 && labels[l - 1] === 0) labels[--l] = id;
      let r = i;
      while (r < rowEnd && mask[r + 1] !== 0 && labels[r + 1] === 0) labels[++r] = id;
      b.n += r - l + 1;
      if (l - rowStart < b.x0) b.x0 = l - rowStart;
      if (r - rowStart > b.x1) b.x1 = r - rowStart;
      if (y < b.y0) b.y0 = y;
      if (y > b.y1) b.y1 = y;
      // One column beyond the run on each side: diagonal neighbours connect.
      const from = l > rowStart ? l - 1 : l;
      const to = r < rowEnd ? r + 1 : r;
      if (y > 0) seedRuns(mask, labels, from - w, to - w, id, stack);
      if (y + 1 < h) seedRuns(mask, labels, from + w, to + w, id, stack);
    }
    boxes.push(b);
  }
  return { labels, boxes };
}

/**
 * Labels and stacks the first unlabelled set pixel of each run in [from, to] (within one row).
 * The rest of a run is left to that pixel's growing, which takes it even when other runs get
 * labelled in between: growing stops at labelled pixels, whose own runs then cover the gap.
 */
function seedRuns(mask: Uint8Array, labels: Int32Array, from: number, to: number, id: number, stack: number[]): void {
  let inRun = false;
  for (let j = from; j <= to; j++) {
    if (mask[j] === 0 || labels[j] !== 0) inRun = false;
    else if (!inRun) {
      labels[j] = id;
      stack.push(j);
      inRun = true;
    }
  }
}
