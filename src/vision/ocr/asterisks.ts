/**
 * Asterisks in a line of text (pure). Tesseract's English model reads a small asterisk, raised
 * as it is drawn beside digits ("12 * 7 =" on a calculator's display), as "*%", "+", "%" or "#",
 * and which one changes with a pixel of scale or a theme's anti-aliasing: a text verified by
 * what it says must read the same each time. The shape tells it apart from anything else: one
 * ink component about as wide as tall, inked at its centre, with five or six arms (its box's
 * outline crosses ink that many times), standing raised beside its neighbours: as high as they
 * start, ending well above their baseline. "+" and "x" have four arms and stand lower, "#" has
 * eight, "^" and "°" fewer and no ink at the centre; letters and digits stand on the baseline.
 * A symbol alone (a key's label) has no neighbour to stand raised beside: it is left to OCR,
 * which reads it alone right.
 */
import type { Region } from '../../domain.ts';
import type { ComponentBox } from '../components.ts';

/** An asterisk has this many arms: five (Liberation Sans) or six (DejaVu Sans)… */
const MIN_ARMS = 5;
const MAX_ARMS = 6;
/** …is about as wide as tall… */
const MIN_ASPECT = 0.7;
const MAX_ASPECT = 1.6;
/**
 * …and stands raised beside its neighbours (the nearest glyph on each side, within this many of
 * its heights): they are this much taller…
 */
const NEIGHBOUR_REACH = 2;
const MIN_NEIGHBOUR_RATIO = 1.3;
/** …and reach below it by at least this share of their height (to the baseline)… */
const MIN_BELOW = 0.3;
/** …while their tops are no further than this share of their height from its top. */
const MAX_TOP_OFFSET = 0.25;
/** Fewer pixels than this across cannot show its arms apart. */
const MIN_SIDE_PX = 5;

/**
 * The boxes of the components of `label` (component `i` has id `i + 1`; null: erased, not
 * text) shaped as an asterisk beside other glyphs.
 */
export function findAsterisks(label: Int32Array, w: number, comps: readonly (ComponentBox | null)[]): Region[] {
  const out: Region[] = [];
  comps.forEach((c, i) => {
    if (!c) return;
    const bw = c.x1 - c.x0 + 1;
    const bh = c.y1 - c.y0 + 1;
    if (Math.min(bw, bh) < MIN_SIDE_PX || bw < MIN_ASPECT * bh || bw > MAX_ASPECT * bh) return;
    if (!label[((c.y0 + c.y1) >> 1) * w + ((c.x0 + c.x1) >> 1)]) return;
    const arms = outlineCrossings(label, w, c, i + 1);
    // Its neighbours last: looking for them goes through every component.
    if (arms >= MIN_ARMS && arms <= MAX_ARMS && raised(c, comps)) out.push({ x: c.x0, y: c.y0, width: bw, height: bh });
  });
  return out;
}

/**
 * Whether `c` stands raised between its nearest neighbours on its line: each is clearly taller,
 * starts about where it starts and reaches well below it. Without a neighbour nothing tells.
 */
function raised(c: ComponentBox, comps: readonly (ComponentBox | null)[]): boolean {
  const h = c.y1 - c.y0 + 1;
  const reach = NEIGHBOUR_REACH * h;
  let left: ComponentBox | undefined;
  let right: ComponentBox | undefined;
  for (const o of comps) {
    if (!o || o === c || o.y0 > c.y1 || o.y1 < c.y0) continue;
    if (o.x1 < c.x0 && c.x0 - o.x1 <= reach && (!left || o.x1 > left.x1)) left = o;
    if (o.x0 > c.x1 && o.x0 - c.x1 <= reach && (!right || o.x0 < right.x0)) right = o;
  }
  const beside = [left, right].filter((o): o is ComponentBox => o !== undefined);
  return (
    beside.length > 0 &&
    beside.every((o) => {
      const oh = o.y1 - o.y0 + 1;
      return oh >= MIN_NEIGHBOUR_RATIO * h && o.y1 - c.y1 >= MIN_BELOW * oh && Math.abs(o.y0 - c.y0) <= MAX_TOP_OFFSET * oh;
    })
  );
}

/** How many runs of component `id`'s pixels lie along the outline of its box, walked round once. */
function outlineCrossings(label: Int32Array, w: number, c: ComponentBox, id: number): number {
  const ring: boolean[] = [];
  const at = (x: number, y: number): boolean => label[y * w + x] === id;
  for (let x = c.x0; x < c.x1; x++) ring.push(at(x, c.y0));
  for (let y = c.y0; y < c.y1; y++) ring.push(at(c.x1, y));
  for (let x = c.x1; x > c.x0; x--) ring.push(at(x, c.y1));
  for (let y = c.y1; y > c.y0; y--) ring.push(at(c.x0, y));
  let runs = 0;
  ring.forEach((on, k) => {
    if (on && !ring[(k + ring.length - 1) % ring.length]) runs++;
  });
  return runs === 0 && ring.length > 0 && ring[0] ? 1 : runs;
}
