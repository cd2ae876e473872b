/**
 * Marks drawn among text that are not text (pure): radio buttons, check boxes, icons, drop-down
 * arrows and submenu triangles. OCR reads them as "(O", "[V)", "©", "wv" or "»"; ink cleaning
 * (ink-clean.ts) erases them.
 */
import type { ComponentBox } from '../components.ts';

/** An ink component and what cleaning took it for. */
export interface Component extends ComponentBox {
  kind: 'glyph' | 'frame' | 'line' | 'cut' | 'speck' | 'mark';
}

/** A mark is at least this many text heights tall… */
const MARK_MIN_RATIO = 1.4;
/** …and at most this many (an icon; not a panel or a window). */
const MARK_MAX_RATIO = 8;
/** …and no glyph beside it is this close to its height (a big letter has letters beside it). */
const MARK_NEIGHBOUR_RATIO = 0.75;

/**
 * Marks `comps` that are not text but drawn among it, in place: drop-down arrows and solid
 * triangles (isChevron, isTriangle), and components clearly taller than
 * the text, with no glyph of about their height beside them (a letter of a heading has its
 * word beside it), that are either an outline about as wide as tall (a radio button's ring, a
 * check box) or drawn in light shades (an icon's gradient: text is drawn solid). OCR reads them
 * as "(O", "[V)", "©" or "Q". What lies inside a mark's box goes with it (the radio's dot, the
 * check, the "?" of a question icon).
 */
export function markNonText(comps: Component[], label: Int32Array, data: Uint8Array, w: number, textHeight: number): void {
  const bw = (c: Component): number => c.x1 - c.x0 + 1;
  const bh = (c: Component): number => c.y1 - c.y0 + 1;
  const marks: Component[] = [];
  comps.forEach((c, i) => {
    if (c.kind === 'glyph' && (isChevron(c, i + 1, label, w, textHeight) || isTriangle(c, i + 1, label, w))) {
      marks.push(c);
      return;
    }
    if (c.kind !== 'glyph' || bh(c) < MARK_MIN_RATIO * textHeight || bh(c) > MARK_MAX_RATIO * textHeight) return;
    const aspect = bw(c) / bh(c);
    if (aspect < 0.5 || aspect > 2) return;
    const reach = 2 * bh(c);
    const beside = comps.some(
      (o) =>
        o !== c &&
        o.kind === 'glyph' &&
        bh(o) >= MARK_NEIGHBOUR_RATIO * bh(c) &&
        o.y0 < c.y1 &&
        c.y0 < o.y1 &&
        o.x0 - c.x1 <= reach &&
        c.x0 - o.x1 <= reach,
    );
    if (beside) return;
    const outline = c.n < 0.5 * bw(c) * bh(c) && aspect >= 0.8 && aspect <= 1.25 && closed(c, i + 1, label, w);
    if (outline || medianInk(c, i + 1, label, data, w) > 90) marks.push(c);
  });
  for (const m of marks) {
    m.kind = 'mark';
    for (const o of comps) if (o.kind === 'glyph' && o.x0 >= m.x0 && o.x1 <= m.x1 && o.y0 >= m.y0 && o.y1 <= m.y1) o.kind = 'mark';
  }
}

/**
 * A drop-down arrow (⌄ beside "MS" or "con" on a key, read as "v" or "wv"): lower than the text,
 * at least 1.5 times as wide as tall, its top row inked at both ends but not in the middle, its
 * bottom row only in the middle. A "v" is about as wide as tall; a "w" reaches up in the middle.
 */
function isChevron(c: Component, id: number, label: Int32Array, w: number, textHeight: number): boolean {
  const cw = c.x1 - c.x0 + 1;
  const ch = c.y1 - c.y0 + 1;
  if (ch > textHeight || ch < 3 || cw < 1.5 * ch) return false;
  const third = Math.floor(cw / 3);
  const inked = (y: number, from: number, to: number): boolean => {
    for (let x = from; x <= to; x++) if (label[y * w + x] === id) return true;
    return false;
  };
  const left = [c.x0, c.x0 + third - 1] as const;
  const middle = [c.x0 + third, c.x1 - third] as const;
  const right = [c.x1 - third + 1, c.x1] as const;
  return (
    inked(c.y0, ...left) &&
    inked(c.y0, ...right) &&
    !inked(c.y0, ...middle) &&
    inked(c.y1, ...middle) &&
    !inked(c.y1, ...left) &&
    !inked(c.y1, ...right)
  );
}

/**
 * A solid triangle (a submenu's ▶, a combo box's ▼, read as "»" or "4"): across one axis every
 * line of it is one run of ink, the runs shrink steadily from a full side to a point, and it
 * fills about half its box. No letter is solid like that.
 */
function isTriangle(c: Component, id: number, label: Int32Array, w: number): boolean {
  const cw = c.x1 - c.x0 + 1;
  const ch = c.y1 - c.y0 + 1;
  const fill = c.n / (cw * ch);
  if (cw < 4 || ch < 4 || fill < 0.35 || fill > 0.7) return false;
  // Per column (across 'x') or row: the length of its one run of ink, centred on the box's
  // middle line; null when some line is not such a run.
  const runs = (across: 'x' | 'y'): number[] | null => {
    const out: number[] = [];
    const [n, m] = across === 'x' ? [cw, ch] : [ch, cw];
    for (let a = 0; a < n; a++) {
      let first = -1;
      let last = -1;
      let count = 0;
      for (let b = 0; b < m; b++) {
        const i = across === 'x' ? (c.y0 + b) * w + c.x0 + a : (c.y0 + a) * w + c.x0 + b;
        if (label[i] !== id) continue;
        if (first < 0) first = b;
        last = b;
        count++;
      }
      if (count === 0 || count !== last - first + 1 || Math.abs(first + last + 1 - m) > 2) return null;
      out.push(count);
    }
    return out;
  };
  // From a full side to a point, shrinking a little at each step.
  const tapers = (r: number[] | null, side: number): boolean => {
    if (r === null) return false;
    const t = r[0]! >= r[r.length - 1]! ? r : [...r].reverse();
    const step = Math.max(2, 0.3 * side);
    return (
      t[0]! >= 0.7 * side && t[t.length - 1]! <= 0.35 * side && t.every((v, k) => k === 0 || (v <= t[k - 1]! && t[k - 1]! - v <= step))
    );
  };
  return tapers(runs('x'), ch) || tapers(runs('y'), cw);
}

/**
 * The component has ink in the middle third of each side of its box, as a ring or a box has
 * (letters touching each other, "pd", do not).
 */
function closed(c: Component, id: number, label: Int32Array, w: number): boolean {
  const thirds = (from: number, to: number): [number, number] => [from + Math.floor((to - from) / 3), to - Math.floor((to - from) / 3)];
  const [mx0, mx1] = thirds(c.x0, c.x1);
  const [my0, my1] = thirds(c.y0, c.y1);
  const row = (y: number): boolean => {
    for (let x = mx0; x <= mx1; x++) if (label[y * w + x] === id) return true;
    return false;
  };
  const column = (x: number): boolean => {
    for (let y = my0; y <= my1; y++) if (label[y * w + x] === id) return true;
    return false;
  };
  return row(c.y0) && row(c.y1) && column(c.x0) && column(c.x1);
}

/** The median value of component `id`'s pixels (0 black .. 255 ground). */
function medianInk(c: Component, id: number, label: Int32Array, data: Uint8Array, w: number): number {
  const hist = new Uint32Array(256);
  for (let y = c.y0; y <= c.y1; y++) for (let i = y * w + c.x0; i <= y * w + c.x1; i++) if (label[i] === id) hist[data[i]!]!++;
  let v = 0;
  for (let acc = 0; v < 255; v++) {
    acc += hist[v]!;
    if (2 * acc >= c.n) break;
  }
  return v;
}
