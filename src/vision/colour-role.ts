/**
 * The role a text's colours give it. Applications mark an error in red (red text, or a pink box)
 * and a success in green, whatever their theme; a theme changes greys, accents and backgrounds,
 * not that. So "the same text, now styled as an error" is told apart from "the same text in a
 * darker theme": the role is read from the hue of the colours that carry it — the text's ink and
 * the box behind it — and only a clearly red or green one counts. Both are judged against the
 * crop's own ground, not absolute greys: a dark theme keeps a dark green ink that barely stands
 * off its page, and puts its page around a pale box the light theme's page hardly differed from.
 */
import type { Frame, Region } from '../domain.ts';

/** What a text's colours say about it. */
export type ColourRole = 'plain' | 'alert' | 'success';

/**
 * Ink differs from the background by at least this much luma, or — on a ground where nothing
 * stands off that far (a dark green on a dark page) — by half the largest difference there is,
 * never less than INK_MIN_CONTRAST (below, anti-aliasing and noise).
 */
const INK_CONTRAST = 60;
const INK_MIN_CONTRAST = 24;
/** A pixel this close to the background (channel difference) is the background. */
const GROUND_TOLERANCE = 12;
/** A colour this saturated (HSV, 0..1) carries a role as ink… */
const INK_SATURATION = 0.4;
/**
 * …and as a background, for an alert only: a pale pink box is what an error box looks like, while
 * pale greens and yellows are as often a display's or a panel's plain tint.
 */
const BACKGROUND_SATURATION = 0.1;
/** Colours darker than this (HSV value) have no reliable hue. */
const MIN_VALUE = 0.15;

type Rgb = readonly [number, number, number];

const luma = (c: Rgb): number => (c[0] * 77 + c[1] * 150 + c[2] * 29) >> 8;

/** Hue in degrees (0..360), saturation and value (0..1). */
function hsv([r, g, b]: Rgb): { h: number; s: number; v: number } {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  let h = 0;
  if (d > 0) {
    if (max === r) h = ((g - b) / d) % 6;
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
    h *= 60;
    if (h < 0) h += 360;
  }
  return { h, s: max === 0 ? 0 : d / max, v: max / 255 };
}

function roleOf(colour: Rgb, minSaturation: number): ColourRole {
  const { h, s, v } = hsv(colour);
  if (s < minSaturation || v < MIN_VALUE) return 'plain';
  if (h >= 335 || h < 18) return 'alert';
  if (h >= 80 && h < 165) return 'success';
  return 'plain';
}

/** The most frequent colour among the pixels of `area` `keep` accepts (colours quantised to 4 bits a channel). */
function dominant(
  frame: Frame,
  keep: (c: Rgb) => boolean,
  area: Region = { x: 0, y: 0, width: frame.width, height: frame.height },
): Rgb | undefined {
  const counts = new Map<number, { n: number; r: number; g: number; b: number }>();
  const d = frame.data;
  for (let y = area.y; y < area.y + area.height; y++) {
    for (let i = (y * frame.width + area.x) * 4, end = i + area.width * 4; i < end; i += 4) {
      const c: Rgb = [d[i]!, d[i + 1]!, d[i + 2]!];
      if (!keep(c)) continue;
      const key = ((c[0] >> 4) << 8) | ((c[1] >> 4) << 4) | (c[2] >> 4);
      const bin = counts.get(key) ?? { n: 0, r: 0, g: 0, b: 0 };
      bin.n++;
      bin.r += c[0];
      bin.g += c[1];
      bin.b += c[2];
      counts.set(key, bin);
    }
  }
  let best: { n: number; r: number; g: number; b: number } | undefined;
  for (const bin of counts.values()) if (!best || bin.n > best.n) best = bin;
  return best ? [best.r / best.n, best.g / best.n, best.b / best.n] : undefined;
}

/** The box the background's pixels span: a text's ink lies inside it, a page around its box does not. */
function groundBox(frame: Frame, ground: Rgb): Region {
  let [x0, y0, x1, y1] = [frame.width, frame.height, -1, -1];
  const d = frame.data;
  for (let y = 0; y < frame.height; y++) {
    for (let x = 0; x < frame.width; x++) {
      const i = (y * frame.width + x) * 4;
      if (Math.max(Math.abs(d[i]! - ground[0]), Math.abs(d[i + 1]! - ground[1]), Math.abs(d[i + 2]! - ground[2])) > GROUND_TOLERANCE)
        continue;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  }
  return { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

/** The luma difference that makes a pixel of `area` ink on `ground` (see INK_CONTRAST). */
function inkContrast(frame: Frame, area: Region, ground: number): number {
  let most = 0;
  for (let y = area.y; y < area.y + area.height; y++) {
    for (let i = (y * frame.width + area.x) * 4, end = i + area.width * 4; i < end; i += 4) {
      most = Math.max(most, Math.abs(luma([frame.data[i]!, frame.data[i + 1]!, frame.data[i + 2]!]) - ground));
    }
  }
  return Math.max(INK_MIN_CONTRAST, Math.min(INK_CONTRAST, most / 2));
}

/**
 * The role of the text in `frame` (a crop around it): its background is the most frequent
 * colour, its ink the most frequent colour inside the background's box that contrasts with the
 * background. An alert or success ink decides; otherwise a pink background makes it an alert.
 */
export function colourRole(frame: Frame): ColourRole {
  const background = dominant(frame, () => true);
  if (!background) return 'plain';
  const ground = luma(background);
  const area = groundBox(frame, background);
  const contrast = inkContrast(frame, area, ground);
  const ink = dominant(frame, (c) => Math.abs(luma(c) - ground) >= contrast, area);
  const byInk = ink ? roleOf(ink, INK_SATURATION) : 'plain';
  if (byInk !== 'plain') return byInk;
  return roleOf(background, BACKGROUND_SATURATION) === 'alert' ? 'alert' : 'plain';
}
