/**
 * X hands out pixels as BGRA (little-endian 0xAARRGGBB words) with an undefined alpha byte, or
 * at depth 16 as 16-bit words; a Frame is RGBA with opaque alpha. BGRA is one pass over 32-bit
 * words: at 1280×800 this takes about 2 ms, a byte-wise loop about four times that.
 */

/**
 * Converts `height` rows of `width` BGRA pixels, `strideBytes` apart in `src`, to tightly
 * packed RGBA in `out` (allocated when null; may be `src` itself when the stride is
 * `width * 4`). Returns `out`.
 */
export const bgraToRgba = (src: Uint8Array, width: number, height: number, strideBytes: number, out: Uint8Array | null): Uint8Array => {
  const rowBytes = width * 4;
  if (strideBytes < rowBytes || src.length < strideBytes * (height - 1) + rowBytes) {
    throw new RangeError(
      `BGRA buffer too small: ${width}x${height} at stride ${strideBytes} needs ` +
        `${strideBytes * (height - 1) + rowBytes} bytes. Got ${src.length}`,
    );
  }
  const target = out ?? new Uint8Array(rowBytes * height);
  if (target.length !== rowBytes * height) {
    throw new RangeError(`Expecting an output of ${rowBytes * height} bytes. Got ${target.length}`);
  }
  const aligned = src.byteOffset % 4 === 0 && target.byteOffset % 4 === 0 && strideBytes % 4 === 0;
  if (!aligned) {
    for (let y = 0; y < height; y++) {
      let s = y * strideBytes;
      let d = y * rowBytes;
      for (let x = 0; x < width; x++, s += 4, d += 4) {
        const b = src[s] as number;
        target[d] = src[s + 2] as number;
        target[d + 1] = src[s + 1] as number;
        target[d + 2] = b;
        target[d + 3] = 255;
      }
    }
    return target;
  }
  const s32 = new Uint32Array(src.buffer, src.byteOffset, (strideBytes * (height - 1) + rowBytes) >> 2);
  const d32 = new Uint32Array(target.buffer, target.byteOffset, width * height);
  const strideWords = strideBytes >> 2;
  for (let y = 0; y < height; y++) {
    let s = y * strideWords;
    const end = s + width;
    let d = y * width;
    for (; s < end; s++, d++) {
      const v = s32[s] as number;
      // Swap bytes 0 and 2 (B and R), keep G, force A to 0xff.
      d32[d] = 0xff000000 | ((v & 0xff) << 16) | (v & 0xff00) | ((v >>> 16) & 0xff);
    }
  }
  return target;
};

/** Where each colour sits in a pixel word: the X visual's masks. */
export interface ColourMasks {
  readonly red: number;
  readonly green: number;
  readonly blue: number;
}

/** X's usual 16-bit TrueColor layout: 5 bits of red, 6 of green, 5 of blue. */
export const RGB565: ColourMasks = Object.freeze({ red: 0xf800, green: 0x07e0, blue: 0x001f });

/** A channel's value scaled to 8 bits (5 bits: 31 → 255, 0 → 0). */
const channel = (word: number, mask: number): number => {
  const shift = 31 - Math.clz32(mask & -mask);
  const max = mask >>> shift;
  return Math.round((((word & mask) >>> shift) * 255) / max);
};

/**
 * Converts `height` rows of `width` little-endian 16-bit pixels, `strideBytes` apart, to RGBA,
 * each channel read through its mask and widened to 8 bits. The conversion of a display of
 * depth 16, which nut-js hands over as the server stored it.
 */
export const rgb16ToRgba = (
  src: Uint8Array,
  width: number,
  height: number,
  strideBytes: number,
  masks: ColourMasks = RGB565,
): Uint8Array => {
  const rowBytes = width * 2;
  if (strideBytes < rowBytes || src.length < strideBytes * (height - 1) + rowBytes) {
    throw new RangeError(
      `16-bit buffer too small: ${width}x${height} at stride ${strideBytes} needs ` +
        `${strideBytes * (height - 1) + rowBytes} bytes. Got ${src.length}`,
    );
  }
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0, s = y * strideBytes, d = y * width * 4; x < width; x++, s += 2, d += 4) {
      const word = (src[s] as number) | ((src[s + 1] as number) << 8);
      out[d] = channel(word, masks.red);
      out[d + 1] = channel(word, masks.green);
      out[d + 2] = channel(word, masks.blue);
      out[d + 3] = 255;
    }
  }
  return out;
};
