/**
 * Faint ink (pure): text far closer to the ground than the image's darkest ink, such as a dark
 * green "Saved" on a dark grey page beside light grey text. Normalizing (preprocess.ts)
 * stretches the whole image between its ground and its darkest ink, and treats what lies within
 * a fifth of that span of the ground as ground: such text vanishes. Each faint component gets a
 * stretch of its own instead: between the ground around it and its own darkest pixel.
 *
 * A faint component is an 8-connected component of pixels at least FAINT_STEP darker than the
 * ground that the whole-image stretch would still leave lighter than ink (the ink level of
 * cleaning, ink-clean.ts), touching no darker pixel. The anti-aliased rim of ordinary text is
 * no such component: it touches its glyph's dark core. Only glyph-like
 * components are restored: no taller than large text, neither an outline (a control's faint
 * border) nor a filled blob (a toggle's track, a shaded panel); those stay ground, as before.
 * Whether a restored component is a letter, a line or a mark is left to cleaning, as for any
 * other ink.
 */
import { labelComponents, type ComponentBox } from '../components.ts';
import type { GrayImage } from '../types.ts';

/** Darker than the ground by at least this much, a pixel may be faint ink (0..255 luma). */
export const FAINT_STEP = 16;

/** A faint component taller than this is no text: a shaded area (px). */
const MAX_HEIGHT_PX = 64;

/** …nor one wider than this many times its height (a faint rule, an underline of a whole row). */
const MAX_ASPECT = 30;

/** …nor an outline: ink on less than this part of its box (a control's border, a ring). */
const MIN_FILL = 0.15;

/** …nor a blob: ink on more than this part of its box (a toggle's track, a shaded button)… */
const MAX_FILL = 0.8;

/** …unless it is a stroke or a dot, this thin (l, I, -, .), px. */
const STROKE_PX = 6;

/** A stretch: `ink` becomes black, `white` and lighter the ground, linear in between. */
export interface Stretch {
  readonly ink: number;
  readonly white: number;
}

/** The look-up table of a stretch. */
export function stretchTable({ ink, white }: Stretch): Uint8Array {
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) lut[v] = Math.max(0, Math.min(255, Math.round(((v - ink) * 255) / (white - ink))));
  return lut;
}

/** The stretch from `ground` to `ink`: values within a fifth of the way from the ground are ground. */
export const stretchBetween = (ground: number, ink: number): Stretch => ({ ink, white: ground - 0.2 * (ground - ink) });

/**
 * Stretches each faint component of `original` (dark ink on a light `ground`, not yet
 * stretched) into `out` (the same image after the whole-image `stretch`), in place, so that it
 * reaches black like other ink. `inkLevel`: stretched values below it are ink.
 * Returns the boxes of the components restored.
 */
export function restoreFaintInk(original: GrayImage, out: GrayImage, ground: number, stretch: Stretch, inkLevel: number): ComponentBox[] {
  const { width: w, height: h, data } = original;
  const n = w * h;
  const level = ground - FAINT_STEP;
  // The darkest original value the whole-image stretch leaves lighter than ink.
  const visible = stretch.ink + (inkLevel * (stretch.white - stretch.ink)) / 255;
  // Components of the pixels between the two: faint ink, and the anti-aliased rims of stronger
  // ink, which touch a stronger pixel. Labelling only these, rather than all ink, keeps the cost
  // low where the ink is large (a light window on a dark screen is all ink).
  const mask = new Uint8Array(n);
  let any = false;
  for (let i = 0; i < n; i++) {
    const v = data[i]!;
    if (v <= level && v > visible) {
      mask[i] = 1;
      any = true;
    }
  }
  if (!any) return [];
  const { labels, boxes } = labelComponents(mask, w, h);
  const restored: ComponentBox[] = [];
  boxes.forEach((b, index) => {
    const id = index + 1;
    const bw = b.x1 - b.x0 + 1;
    const bh = b.y1 - b.y0 + 1;
    if (bh > MAX_HEIGHT_PX || bw > MAX_ASPECT * bh) return;
    const fill = b.n / (bw * bh);
    if (fill < MIN_FILL || (fill > MAX_FILL && Math.min(bw, bh) > STROKE_PX)) return;
    const darkest = faintDarkest(original, labels, id, b, visible);
    if (darkest === null) return;
    // Its own stretch, from the ground around it, over its box and a pixel more (its anti-aliased edge).
    const x0 = Math.max(0, b.x0 - 1);
    const y0 = Math.max(0, b.y0 - 1);
    const x1 = Math.min(w - 1, b.x1 + 1);
    const y1 = Math.min(h - 1, b.y1 + 1);
    const local = localGround(original, labels, x0, y0, x1, y1) ?? ground;
    if (local - darkest < FAINT_STEP) return;
    const lut = stretchTable(stretchBetween(local, darkest));
    for (let y = y0; y <= y1; y++) {
      for (let i = y * w + x0; i <= y * w + x1; i++) {
        const l = labels[i]!;
        if (l === id || l === 0) out.data[i] = Math.min(out.data[i]!, lut[data[i]!]!);
      }
    }
    restored.push(b);
  });
  return restored;
}

/**
 * The darkest value of component `id` (box `b`), or null when it is the rim of darker ink: one
 * of its pixels has an 8-neighbour at most `visible`.
 */
function faintDarkest(gray: GrayImage, labels: Int32Array, id: number, b: ComponentBox, visible: number): number | null {
  const { width: w, height: h, data } = gray;
  let darkest = 255;
  for (let y = b.y0; y <= b.y1; y++) {
    for (let x = b.x0; x <= b.x1; x++) {
      const i = y * w + x;
      if (labels[i] !== id) continue;
      if (data[i]! < darkest) darkest = data[i]!;
      for (let yy = Math.max(0, y - 1); yy <= Math.min(h - 1, y + 1); yy++) {
        for (let xx = Math.max(0, x - 1); xx <= Math.min(w - 1, x + 1); xx++) if (data[yy * w + xx]! <= visible) return null;
      }
    }
  }
  return darkest;
}

/** The most common value of the unlabelled pixels in the box; null when there are none. */
function localGround(gray: GrayImage, labels: Int32Array, x0: number, y0: number, x1: number, y1: number): number | null {
  const hist = new Uint32Array(256);
  let count = 0;
  for (let y = y0; y <= y1; y++) {
    for (let i = y * gray.width + x0; i <= y * gray.width + x1; i++) {
      if (labels[i] !== 0) continue;
      hist[gray.data[i]!]!++;
      count++;
    }
  }
  if (count === 0) return null;
  let best = 0;
  for (let v = 1; v < 256; v++) if (hist[v]! > hist[best]!) best = v;
  return best;
}
