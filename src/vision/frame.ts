/**
 * Frames and regions: creation, cropping, painting, grayscale, scaling and PNG I/O.
 * Pure functions over in-memory RGBA frames; the functions that paint (`paste`, `fillRegion`)
 * write into a frame the caller passes and owns, everything else returns new memory.
 */
import pngjs from 'pngjs';
import type { Frame, Point, Region } from '../domain.ts';
import type { GrayImage, Rgba } from './types.ts';

/** Throws a RangeError unless `frame.data` holds exactly width × height × 4 bytes. */
export function assertFrame(frame: Frame, name = 'frame'): void {
  const { width, height, data } = frame;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
    throw new RangeError(`${name}: width and height must be non-negative integers. Got ${width}×${height}`);
  }
  if (data.length !== width * height * 4) {
    throw new RangeError(`${name}: data size does not match ${width}×${height}. Expecting ${width * height * 4}. Got ${data.length}`);
  }
}

/** A new frame filled with one colour. @param fill @default [0, 0, 0, 0] (transparent) */
export function createFrame(width: number, height: number, fill?: Rgba): Frame {
  const data = new Uint8Array(width * height * 4);
  const frame: Frame = { width, height, data };
  if (fill && (fill[0] || fill[1] || fill[2] || fill[3])) fillRegion(frame, { x: 0, y: 0, width, height }, fill);
  return frame;
}

/** A deep copy. */
export function cloneFrame(frame: Frame): Frame {
  return { width: frame.width, height: frame.height, data: frame.data.slice() };
}

/**
 * A Uint32Array view of the frame's pixels (one word a pixel), without copying when the
 * data is 4-byte aligned (a copy otherwise, e.g. for a Buffer slice from a pool).
 */
export function pixelWords(frame: Frame): Uint32Array {
  const { data } = frame;
  if (data.byteOffset % 4 === 0) return new Uint32Array(data.buffer, data.byteOffset, data.length >> 2);
  return new Uint32Array(data.slice().buffer);
}

/** A Buffer view of the frame's bytes (no copy), for native comparisons. */
export function byteView(frame: Frame): Buffer {
  const { data } = frame;
  return Buffer.from(data.buffer, data.byteOffset, data.length);
}

// ---- regions ---------------------------------------------------------------------------

/**
 * A region in integer pixels clamped to a canvas (a frame, or `width` and `height`); may come
 * out empty (width or height 0).
 */
export function clampRegion(region: Region, bounds: { readonly width: number; readonly height: number }): Region;
export function clampRegion(region: Region, width: number, height: number): Region;
export function clampRegion(
  region: Region,
  boundsOrWidth: { readonly width: number; readonly height: number } | number,
  height?: number,
): Region {
  const bounds = typeof boundsOrWidth === 'number' ? { width: boundsOrWidth, height: height ?? 0 } : boundsOrWidth;
  const x0 = Math.max(0, Math.min(bounds.width, Math.floor(region.x)));
  const y0 = Math.max(0, Math.min(bounds.height, Math.floor(region.y)));
  const x1 = Math.max(x0, Math.min(bounds.width, Math.ceil(region.x + region.width)));
  const y1 = Math.max(y0, Math.min(bounds.height, Math.ceil(region.y + region.height)));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

export const regionArea = (r: Region): number => Math.max(0, r.width) * Math.max(0, r.height);

export const isEmptyRegion = (r: Region): boolean => r.width <= 0 || r.height <= 0;

/** True when the two regions share at least one pixel. */
export function regionsIntersect(a: Region, b: Region): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The common part of two regions, or null when they do not intersect. */
export function intersectRegions(a: Region, b: Region): Region | null {
  const x0 = Math.max(a.x, b.x);
  const y0 = Math.max(a.y, b.y);
  const x1 = Math.min(a.x + a.width, b.x + b.width);
  const y1 = Math.min(a.y + a.height, b.y + b.height);
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

/** What of `a` lies outside `b`, as up to four regions (bands above and below, then left and right). */
export function subtractRegion(a: Region, b: Region): Region[] {
  const cut = intersectRegions(a, b);
  if (!cut) return [a];
  const bands: Region[] = [
    { x: a.x, y: a.y, width: a.width, height: cut.y - a.y },
    { x: a.x, y: cut.y + cut.height, width: a.width, height: a.y + a.height - cut.y - cut.height },
    { x: a.x, y: cut.y, width: cut.x - a.x, height: cut.height },
    { x: cut.x + cut.width, y: cut.y, width: a.x + a.width - cut.x - cut.width, height: cut.height },
  ];
  return bands.filter((r) => r.width > 0 && r.height > 0);
}

/** The bounding box of two regions. */
export function unionRegions(a: Region, b: Region): Region {
  const x0 = Math.min(a.x, b.x);
  const y0 = Math.min(a.y, b.y);
  const x1 = Math.max(a.x + a.width, b.x + b.width);
  const y1 = Math.max(a.y + a.height, b.y + b.height);
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** The bounding box of several regions, or null for none. */
export function boundingRegion(regions: readonly Region[]): Region | null {
  let out: Region | null = null;
  for (const r of regions) out = out ? unionRegions(out, r) : r;
  return out;
}

/** Pixels of empty space between two regions along the farther axis; 0 when they touch or overlap. */
export function regionGap(a: Region, b: Region): number {
  const dx = Math.max(0, Math.max(a.x, b.x) - Math.min(a.x + a.width, b.x + b.width));
  const dy = Math.max(0, Math.max(a.y, b.y) - Math.min(a.y + a.height, b.y + b.height));
  return Math.max(dx, dy);
}

export function containsPoint(r: Region, p: Point): boolean {
  return p.x >= r.x && p.x < r.x + r.width && p.y >= r.y && p.y < r.y + r.height;
}

export const regionCenter = (r: Region): Point => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });

/** Moves a region by (dx, dy). */
export const offsetRegion = (r: Region, dx: number, dy: number): Region => ({
  x: r.x + dx,
  y: r.y + dy,
  width: r.width,
  height: r.height,
});

/** Grows a region by `by` pixels on every side (shrinks for negative values). */
export const inflateRegion = (r: Region, by: number): Region => ({
  x: r.x - by,
  y: r.y - by,
  width: Math.max(0, r.width + 2 * by),
  height: Math.max(0, r.height + 2 * by),
});

// ---- pixels ----------------------------------------------------------------------------

/** A copy of the part of `frame` inside `region`, clamped to the frame (possibly 0×0). */
export function crop(frame: Frame, region: Region): Frame {
  const r = clampRegion(region, frame);
  const out = new Uint8Array(r.width * r.height * 4);
  const rowBytes = r.width * 4;
  for (let y = 0; y < r.height; y++) {
    const src = ((r.y + y) * frame.width + r.x) * 4;
    out.set(frame.data.subarray(src, src + rowBytes), y * rowBytes);
  }
  return { width: r.width, height: r.height, data: out };
}

/** Copies `src` into `dst` with its top-left at `at`, clipped to `dst`. Writes into `dst`. */
export function paste(dst: Frame, src: Frame, at: Point): void {
  const x0 = Math.max(0, Math.round(at.x));
  const y0 = Math.max(0, Math.round(at.y));
  const sx0 = x0 - Math.round(at.x);
  const sy0 = y0 - Math.round(at.y);
  const w = Math.min(dst.width - x0, src.width - sx0);
  const h = Math.min(dst.height - y0, src.height - sy0);
  if (w <= 0 || h <= 0) return;
  for (let y = 0; y < h; y++) {
    const s = ((sy0 + y) * src.width + sx0) * 4;
    dst.data.set(src.data.subarray(s, s + w * 4), ((y0 + y) * dst.width + x0) * 4);
  }
}

/** Paints `region` (clamped) of `frame` with one colour. Writes into `frame`. */
export function fillRegion(frame: Frame, region: Region, color: Rgba): void {
  const r = clampRegion(region, frame);
  if (isEmptyRegion(r)) return;
  const row = new Uint8Array(r.width * 4);
  for (let i = 0; i < row.length; i += 4) {
    row[i] = color[0];
    row[i + 1] = color[1];
    row[i + 2] = color[2];
    row[i + 3] = color[3];
  }
  for (let y = r.y; y < r.y + r.height; y++) frame.data.set(row, (y * frame.width + r.x) * 4);
}

/**
 * Draws the outline of `region`, `width` pixels thick, just outside it (so what it boxes stays
 * visible), clamped to the frame. Writes into `frame`.
 */
export function strokeRegion(frame: Frame, region: Region, color: Rgba, width = 2): void {
  const outer = inflateRegion(region, width);
  fillRegion(frame, { x: outer.x, y: outer.y, width: outer.width, height: width }, color);
  fillRegion(frame, { x: outer.x, y: region.y + region.height, width: outer.width, height: width }, color);
  fillRegion(frame, { x: outer.x, y: outer.y, width, height: outer.height }, color);
  fillRegion(frame, { x: region.x + region.width, y: outer.y, width, height: outer.height }, color);
}

/** A copy of `frame` with every region painted `color`. @param color @default [255, 0, 255, 255] */
export function maskRegions(frame: Frame, regions: readonly Region[], color: Rgba = [255, 0, 255, 255]): Frame {
  const out = cloneFrame(frame);
  for (const r of regions) fillRegion(out, r, color);
  return out;
}

/**
 * Luma (ITU-R BT.601 weights, integer arithmetic) of every pixel; alpha is ignored.
 * @param out a buffer of width × height bytes to write into, or null to allocate one
 */
export function toGray(frame: Frame, out: Uint8Array | null = null): GrayImage {
  const n = frame.width * frame.height;
  const data = out ?? new Uint8Array(n);
  if (data.length !== n) throw new RangeError(`toGray: out must hold ${n} bytes. Got ${data.length}`);
  const src = frame.data;
  for (let i = 0, p = 0; i < n; i++, p += 4) {
    data[i] = (src[p]! * 77 + src[p + 1]! * 150 + src[p + 2]! * 29 + 128) >> 8;
  }
  return { width: frame.width, height: frame.height, data };
}

/** An RGBA frame (opaque) showing a gray image. */
export function grayToFrame(gray: GrayImage): Frame {
  const n = gray.width * gray.height;
  const data = new Uint8Array(n * 4);
  for (let i = 0, p = 0; i < n; i++, p += 4) {
    const v = gray.data[i]!;
    data[p] = v;
    data[p + 1] = v;
    data[p + 2] = v;
    data[p + 3] = 255;
  }
  return { width: gray.width, height: gray.height, data };
}

export interface ScaleOptions {
  /** 'nearest' copies pixels (crisp, fast); 'bilinear' interpolates (smooth). @default 'bilinear' */
  readonly method?: 'nearest' | 'bilinear';
}

/** A resized copy of an RGBA frame. Width and height are rounded and at least 1. */
export function scale(frame: Frame, width: number, height: number, options: ScaleOptions = {}): Frame {
  const out = resample(frame.data, frame.width, frame.height, 4, width, height, options.method ?? 'bilinear');
  return { width: out.width, height: out.height, data: out.data };
}

/** A resized copy of a gray image. Width and height are rounded and at least 1. */
export function scaleGray(gray: GrayImage, width: number, height: number, options: ScaleOptions = {}): GrayImage {
  return resample(gray.data, gray.width, gray.height, 1, width, height, options.method ?? 'bilinear');
}

function resample(
  src: Uint8Array,
  sw: number,
  sh: number,
  channels: number,
  width: number,
  height: number,
  method: 'nearest' | 'bilinear',
): GrayImage {
  const dw = Math.max(1, Math.round(width));
  const dh = Math.max(1, Math.round(height));
  const out = new Uint8Array(dw * dh * channels);
  if (sw === 0 || sh === 0) return { width: dw, height: dh, data: out };
  const fx = sw / dw;
  const fy = sh / dh;
  if (method === 'nearest') {
    const xs = new Int32Array(dw);
    for (let x = 0; x < dw; x++) xs[x] = Math.min(sw - 1, Math.floor((x + 0.5) * fx)) * channels;
    for (let y = 0; y < dh; y++) {
      const row = Math.min(sh - 1, Math.floor((y + 0.5) * fy)) * sw * channels;
      let o = y * dw * channels;
      for (let x = 0; x < dw; x++, o += channels) {
        const s = row + xs[x]!;
        for (let c = 0; c < channels; c++) out[o + c] = src[s + c]!;
      }
    }
    return { width: dw, height: dh, data: out };
  }
  // Bilinear on pixel centres, edges clamped.
  const x0s = new Int32Array(dw);
  const x1s = new Int32Array(dw);
  const wxs = new Float32Array(dw);
  for (let x = 0; x < dw; x++) {
    const sx = Math.max(0, Math.min(sw - 1, (x + 0.5) * fx - 0.5));
    const ix = Math.floor(sx);
    x0s[x] = ix * channels;
    x1s[x] = Math.min(sw - 1, ix + 1) * channels;
    wxs[x] = sx - ix;
  }
  for (let y = 0; y < dh; y++) {
    const sy = Math.max(0, Math.min(sh - 1, (y + 0.5) * fy - 0.5));
    const iy = Math.floor(sy);
    const wy = sy - iy;
    const r0 = iy * sw * channels;
    const r1 = Math.min(sh - 1, iy + 1) * sw * channels;
    let o = y * dw * channels;
    for (let x = 0; x < dw; x++, o += channels) {
      const wx = wxs[x]!;
      const a = x0s[x]!;
      const b = x1s[x]!;
      for (let c = 0; c < channels; c++) {
        const top = src[r0 + a + c]! + (src[r0 + b + c]! - src[r0 + a + c]!) * wx;
        const bottom = src[r1 + a + c]! + (src[r1 + b + c]! - src[r1 + a + c]!) * wx;
        out[o + c] = Math.round(top + (bottom - top) * wy);
      }
    }
  }
  return { width: dw, height: dh, data: out };
}

// ---- PNG -------------------------------------------------------------------------------

/** Encodes a frame as an RGBA PNG. */
export function encodePng(frame: Frame): Buffer {
  assertFrame(frame);
  const png = new pngjs.PNG({ width: frame.width, height: frame.height });
  png.data = Buffer.from(frame.data.buffer, frame.data.byteOffset, frame.data.length);
  return pngjs.PNG.sync.write(png, { colorType: 6 });
}

/** Decodes a PNG (any colour type) into an RGBA frame. Throws on a corrupt file. */
export function decodePng(buffer: Uint8Array): Frame {
  const png = pngjs.PNG.sync.read(Buffer.from(buffer.buffer, buffer.byteOffset, buffer.length));
  // Copy into fresh, aligned memory: pngjs may hand back a pooled Buffer slice.
  const data = new Uint8Array(png.width * png.height * 4);
  data.set(png.data);
  return { width: png.width, height: png.height, data };
}
