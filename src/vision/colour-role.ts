/**
 * The role a text's colours give it. Applications mark an error in red (red text, or a pink box)
 * and a success in green, whatever their theme; a theme changes greys, accents and backgrounds,
 * not that. So "the same text, now styled as an error" is told apart from "the same text in a
 * darker theme": the role is read from the hue of the colours that carry it — the text's ink and
 * the box behind it — and only a clearly red or green one counts.
 */
import type { Frame } from '../domain.ts';

/** What a text's colours say about it. */
export type ColourRole = 'plain' | 'alert' | 'success';

/** Ink differs from the background by at least this much luma. */
const INK_CONTRAST = 60;
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

/** The most frequent colour among the pixels `keep` accepts (colours quantised to 4 bits a channel). */
function dominant(frame: Frame, keep: (c: Rgb) => boolean): Rgb | undefined {
  const counts = new Map<number, { n: number; r: number; g: number; b: number }>();
  const d = frame.data;
  for (let i = 0; i < d.length; i += 4) {
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
  let best: { n: number; r: number; g: number; b: number } | undefined;
  for (const bin of counts.values()) if (!best || bin.n > best.n) best = bin;
  return best ? [best.r / best.n, best.g / best.n, best.b / best.n] : undefined;
}

/**
 * The role of the text in `frame` (a crop around it): its background is the most frequent
 * colour, its ink the most frequent colour that contrasts with the background. An alert or
 * success ink decides; otherwise a pink background makes it an alert.
 */
export function colourRole(frame: Frame): ColourRole {
  const background = dominant(frame, () => true);
  if (!background) return 'plain';
  const ground = luma(background);
  const ink = dominant(frame, (c) => Math.abs(luma(c) - ground) >= INK_CONTRAST);
  const byInk = ink ? roleOf(ink, INK_SATURATION) : 'plain';
  if (byInk !== 'plain') return byInk;
  return roleOf(background, BACKGROUND_SATURATION) === 'alert' ? 'alert' : 'plain';
}
