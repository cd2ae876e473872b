/**
 * Segmentation of a window into candidate controls, without OCR: boxed controls (buttons, fields,
 * toggles, selected items — areas of uniform fill set off from their surroundings) and free text
 * labels (groups of glyphs on the window background).
 *
 * How:
 * 1. Flat areas: 4-connected components of pixels whose luma steps by at most `flatStep` between
 *    neighbours (so a gentle gradient stays one area). Very large areas are panels (background).
 * 2. Faces: flat areas of control size that are nearly rectangular (rows filled from their left
 *    to their right end, holes for labels allowed) — button faces, fields, selections.
 * 3. Ink: 8-connected components of edge pixels: the ink side of a luma step of `edgeStep` or
 *    more — the darker pixel on a light window, the lighter on a dark one (dark theme). An ink
 *    component around a face is that face's border (unless the two are no bigger than a glyph:
 *    then they are the stroke and outline of a bold "0"); long thin ones are separators; the rest
 *    are glyphs.
 * 4. Glyphs in the same face (or on the same panel) are grouped into labels: side by side within
 *    half a glyph height, or stacked parts of one symbol ("=", "÷", "i").
 * A face is a control when a border rings it or it holds a label; a label outside every face is a
 * control of its own.
 */
import type { Frame, Region } from '../domain.ts';
import { labelComponents, type ComponentBox as Box } from './components.ts';
import { containsPoint, regionCenter, toGray } from './frame.ts';

export interface SegmentOptions {
  /** Largest luma step between neighbours inside one flat area. @default 3 */
  readonly flatStep?: number;
  /** Smallest luma step that makes an edge (ink or border). @default 24 */
  readonly edgeStep?: number;
  /** Smallest face side, px. @default 12 */
  readonly minControlSide?: number;
  /** Tallest glyph group still read as text, px. @default 80 */
  readonly maxTextHeight?: number;
}

export const SEGMENT_DEFAULTS = Object.freeze({ flatStep: 3, edgeStep: 24, minControlSide: 12, maxTextHeight: 80 });

export interface Control {
  /** The control's box: a boxed control with its border, or a label's ink box. */
  readonly box: Region;
  /** 'box': a face set off by fill or border (button, field, toggle); 'text': a free label. */
  readonly kind: 'box' | 'text';
  /** True when a border line rings the box. */
  readonly bordered: boolean;
  /** Ink boxes of the labels inside (for 'text', the label itself). Top to bottom, left to right. */
  readonly labels: readonly Region[];
  /**
   * Ink components in each label, same order as `labels`. Anti-aliased glyphs of one word often
   * touch, so this is a lower bound of the character count, not the count.
   */
  readonly glyphs: readonly number[];
}

/** Candidate controls (buttons, fields, labels), top to bottom, left to right. */
export function segmentControls(frame: Frame, options: SegmentOptions = {}): Region[] {
  return segmentDetailed(frame, options).map((c) => c.box);
}

const toRegion = (b: Box): Region => ({ x: b.x0, y: b.y0, width: b.x1 - b.x0 + 1, height: b.y1 - b.y0 + 1 });

/** Controls with their labels; see the module comment. */
export function segmentDetailed(frame: Frame, options: SegmentOptions = {}): Control[] {
  const flatStep = options.flatStep ?? SEGMENT_DEFAULTS.flatStep;
  const edgeStep = options.edgeStep ?? SEGMENT_DEFAULTS.edgeStep;
  const minSide = options.minControlSide ?? SEGMENT_DEFAULTS.minControlSide;
  const maxText = options.maxTextHeight ?? SEGMENT_DEFAULTS.maxTextHeight;
  const { width: w, height: h } = frame;
  if (w === 0 || h === 0) return [];
  const g = toGray(frame).data;
  const n = w * h;

  // 1. Flat areas: runs of similar pixels along each row, joined across rows by union-find.
  const runOf = new Int32Array(n);
  const runX0: number[] = [];
  const runX1: number[] = [];
  const runY: number[] = [];
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let run = runX0.length;
    runX0.push(0);
    runY.push(y);
    runOf[row] = run;
    for (let x = 1; x < w; x++) {
      if (Math.abs(g[row + x]! - g[row + x - 1]!) > flatStep) {
        runX1.push(x - 1);
        run = runX0.length;
        runX0.push(x);
        runY.push(y);
      }
      runOf[row + x] = run;
    }
    runX1.push(w - 1);
  }
  const runs = runX0.length;
  const parent = new Int32Array(runs);
  for (let i = 0; i < runs; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) {
      const p = parent[parent[i]!]!;
      parent[i] = p;
      i = p;
    }
    return i;
  };
  for (let y = 1; y < h; y++) {
    const row = y * w;
    let lastA = -1;
    let lastB = -1;
    for (let x = 0; x < w; x++) {
      const i = row + x;
      const a = runOf[i]!;
      const b = runOf[i - w]!;
      if ((a === lastA && b === lastB) || Math.abs(g[i]! - g[i - w]!) > flatStep) continue;
      lastA = a;
      lastB = b;
      const ra = find(a);
      const rb = find(b);
      if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }
  // Per-area bounding box, pixel count, and row extents summed (for solidity). Runs come in row
  // order, so an area's runs of one row are consecutive in time.
  const areaOf = new Int32Array(runs).fill(-1);
  const areas: (Box & { span: number; tone: number })[] = [];
  const rowMin: number[] = [];
  const rowMax: number[] = [];
  const rowSeen: number[] = [];
  for (let r = 0; r < runs; r++) {
    const root = find(r);
    let a = areaOf[root]!;
    const x0 = runX0[r]!;
    const x1 = runX1[r]!;
    const y = runY[r]!;
    if (a < 0) {
      a = areas.length;
      areaOf[root] = a;
      areas.push({ x0, y0: y, x1, y1: y, n: 0, span: 0, tone: g[y * w + x0]! });
      rowMin.push(x0);
      rowMax.push(x1);
      rowSeen.push(y);
    }
    const b = areas[a]!;
    b.n += x1 - x0 + 1;
    if (x0 < b.x0) b.x0 = x0;
    if (x1 > b.x1) b.x1 = x1;
    b.y1 = y;
    if (rowSeen[a] !== y) {
      b.span += rowMax[a]! - rowMin[a]! + 1;
      rowSeen[a] = y;
      rowMin[a] = x0;
      rowMax[a] = x1;
    } else {
      if (x0 < rowMin[a]!) rowMin[a] = x0;
      if (x1 > rowMax[a]!) rowMax[a] = x1;
    }
  }
  for (let a = 0; a < areas.length; a++) areas[a]!.span += rowMax[a]! - rowMin[a]! + 1;

  // 2. Faces.
  const faces: Box[] = [];
  for (const b of areas) {
    const bw = b.x1 - b.x0 + 1;
    const bh = b.y1 - b.y0 + 1;
    if (bw < minSide || bh < minSide) continue;
    if (bw >= w * 0.9 && bh >= h * 0.9) continue; // the window background
    if (b.n > n * 0.25) continue; // a panel
    if (b.span / (bw * bh) < 0.85) continue; // not rectangular (a glyph's counter, a blob)
    if (b.n < 0.35 * bw * bh) continue; // mostly holes: a frame around other things
    faces.push({ x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1, n: b.n });
  }

  // 3. Ink: edge pixels, 8-connected. A dark window (the largest flat area is dark) has light ink.
  const ground = areas.reduce((a, b) => (b.n > a.n ? b : a), areas[0]!);
  const darkInk = ground.tone >= 128;
  const edge = new Uint8Array(n);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const i = row + x;
      const v = g[i]!;
      // The ink side of a step: the darker pixel on a light window, the lighter one on a dark
      // window (text and borders then get exact boxes).
      if (x + 1 < w && Math.abs(v - g[i + 1]!) >= edgeStep) edge[v < g[i + 1]! === darkInk ? i : i + 1] = 1;
      if (y + 1 < h && Math.abs(v - g[i + w]!) >= edgeStep) edge[v < g[i + w]! === darkInk ? i : i + w] = 1;
    }
  }
  const inkBoxes: Box[] = labelComponents(edge, w, h).boxes;

  // Borders: an ink component whose box closely encloses a face.
  const faceBorder: (Box | null)[] = faces.map(() => null);
  const glyphs: Box[] = [];
  for (const b of inkBoxes) {
    const bw = b.x1 - b.x0 + 1;
    const bh = b.y1 - b.y0 + 1;
    let ring = -1;
    for (let f = 0; f < faces.length; f++) {
      const face = faces[f]!;
      if (face.x0 < b.x0 || face.y0 < b.y0 || face.x1 > b.x1 || face.y1 > b.y1) continue;
      const fa = (face.x1 - face.x0 + 1) * (face.y1 - face.y0 + 1);
      if (fa >= 0.6 * bw * bh && (ring < 0 || fa > area(faces[ring]!))) ring = f;
    }
    if (ring >= 0) {
      const prev = faceBorder[ring];
      faceBorder[ring] = prev ? merge(prev, b) : { ...b };
      continue;
    }
    if ((bh <= 3 && bw >= 40) || (bw <= 3 && bh >= 40)) continue; // separators
    if (bw >= 24 && bh >= 24 && b.n < 0.12 * bw * bh) continue; // an empty frame (a border with no face)
    if (bh > maxText) continue; // panel edges and pictures
    glyphs.push(b);
  }

  // A bordered face hardly taller than the frame's glyphs is the stroke of a bold glyph ("0"),
  // its outer edge taken for a border: the edge is a glyph again and the face is no face.
  const glyphHeights = glyphs
    .map((b) => b.y1 - b.y0 + 1)
    .filter((gh) => gh >= 6)
    .sort((a, b) => a - b);
  const typical = glyphHeights[glyphHeights.length >> 1] ?? 0;
  const isFace = faces.map(() => true);
  faces.forEach((face, f) => {
    const border = faceBorder[f];
    if (!border || typical === 0) return;
    const box = merge(border, face);
    if (box.y1 - box.y0 + 1 > 1.25 * typical || box.x1 - box.x0 + 1 > 1.25 * typical) return;
    isFace[f] = false;
    faceBorder[f] = null;
    glyphs.push(border);
  });

  // Each glyph belongs to the smallest face containing its centre (or to none: -1).
  const owner = glyphs.map((b) => {
    const c = regionCenter(toRegion(b));
    let best = -1;
    for (let f = 0; f < faces.length; f++) {
      if (!isFace[f]) continue;
      if (containsPoint(toRegion(faces[f]!), c) && (best < 0 || area(faces[f]!) < area(faces[best]!))) best = f;
    }
    return best;
  });

  // 4. Group glyphs into labels, within one owner.
  const groups = groupGlyphs(glyphs, owner);

  const controls: Control[] = [];
  const labelsOf = new Map<number, { box: Region; glyphs: number }[]>();
  for (const grp of groups) {
    const list = labelsOf.get(grp.owner) ?? [];
    list.push({ box: toRegion(grp.box), glyphs: grp.count });
    labelsOf.set(grp.owner, list);
  }
  const order = (a: { box: Region }, b: { box: Region }): number => a.box.y - b.box.y || a.box.x - b.box.x;
  const freeLabels = [...(labelsOf.get(-1) ?? [])];
  for (let f = 0; f < faces.length; f++) {
    if (!isFace[f]) continue;
    const labels = (labelsOf.get(f) ?? []).sort(order);
    const border = faceBorder[f];
    const face = toRegion(faces[f]!);
    if (!border) {
      // Without a border, a face is a control (a flat button, a list row, a selection) only when
      // it hugs one label; a taller area or one with several labels is a panel or a bar, whose
      // labels are controls of their own.
      const label = labels[0];
      if (labels.length === 1 && label && face.height <= Math.max(48, 3 * label.box.height)) {
        controls.push({ box: face, kind: 'box', bordered: false, labels: [label.box], glyphs: [label.glyphs] });
      } else freeLabels.push(...labels);
      continue;
    }
    const box = toRegion(merge(border, faces[f]!));
    controls.push({ box, kind: 'box', bordered: true, labels: labels.map((l) => l.box), glyphs: labels.map((l) => l.glyphs) });
    // A bordered box with several labels is a group or a field: its labels are targets too.
    if (labels.length > 1) freeLabels.push(...labels);
  }
  for (const label of freeLabels) {
    controls.push({ box: label.box, kind: 'text', bordered: false, labels: [label.box], glyphs: [label.glyphs] });
  }
  // Nested faces (a field inside a panel-sized face) stay; identical boxes are kept once.
  const seen = new Set<string>();
  return controls
    .filter((c) => {
      const key = `${c.box.x},${c.box.y},${c.box.width},${c.box.height}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort(order);
}

const area = (b: Box): number => (b.x1 - b.x0 + 1) * (b.y1 - b.y0 + 1);

const merge = (a: Box, b: Box): Box => ({
  x0: Math.min(a.x0, b.x0),
  y0: Math.min(a.y0, b.y0),
  x1: Math.max(a.x1, b.x1),
  y1: Math.max(a.y1, b.y1),
  n: a.n + b.n,
});

interface Group {
  box: Box;
  owner: number;
  count: number;
}

/**
 * Union-find over glyph pairs that belong together. Glyphs are sorted by left edge, so the
 * partners of a glyph are the ones starting before its right edge plus the largest word gap.
 */
function groupGlyphs(glyphs: readonly Box[], owner: readonly number[]): Group[] {
  const order = glyphs.map((_, i) => i).sort((a, b) => glyphs[a]!.x0 - glyphs[b]!.x0);
  const parent = glyphs.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  for (let oi = 0; oi < order.length; oi++) {
    const i = order[oi]!;
    const a = glyphs[i]!;
    for (let oj = oi + 1; oj < order.length; oj++) {
      const j = order[oj]!;
      const b = glyphs[j]!;
      if (b.x0 > a.x1 + MAX_WORD_GAP + 1) break;
      if (owner[i] !== owner[j] || !belongTogether(a, b)) continue;
      const ri = find(i);
      const rj = find(j);
      if (ri !== rj) parent[Math.max(ri, rj)] = Math.min(ri, rj);
    }
  }
  const byRoot = new Map<number, Group>();
  for (let i = 0; i < glyphs.length; i++) {
    const r = find(i);
    const grp = byRoot.get(r);
    if (grp) {
      grp.box = merge(grp.box, glyphs[i]!);
      grp.count++;
    } else byRoot.set(r, { box: { ...glyphs[i]! }, owner: owner[i]!, count: 1 });
  }
  return [...byRoot.values()];
}

/** The widest gap between glyphs of one label, px. */
const MAX_WORD_GAP = 12;

/** Side by side on one line, or stacked parts of one symbol. */
function belongTogether(A: Box, B: Box): boolean {
  const ah = A.y1 - A.y0 + 1;
  const bh = B.y1 - B.y0 + 1;
  const aw = A.x1 - A.x0 + 1;
  const bw = B.x1 - B.x0 + 1;
  const gapX = Math.max(0, Math.max(A.x0, B.x0) - Math.min(A.x1, B.x1) - 1);
  const gapY = Math.max(0, Math.max(A.y0, B.y0) - Math.min(A.y1, B.y1) - 1);
  const overlapY = Math.min(A.y1, B.y1) - Math.max(A.y0, B.y0) + 1;
  const overlapX = Math.min(A.x1, B.x1) - Math.max(A.x0, B.x0) + 1;
  const size = Math.max(ah, bh);
  // Side by side: vertical overlap of half the smaller height, a gap under half the text size.
  if (overlapY >= 0.5 * Math.min(ah, bh) && gapX <= Math.max(2, Math.min(MAX_WORD_GAP, Math.round(size * 0.5)))) {
    return true;
  }
  if (gapX === 0 && overlapX >= 0.5 * Math.min(aw, bw)) {
    // Stacked: a dot or bar over another part, not two lines of text (a "7" over a big "84" is
    // short too, but not a dot: it is taller than wide).
    const [sh, sw] = ah <= bh ? [ah, aw] : [bh, bw];
    const dot = sh <= 0.5 * size && (sh <= sw + 1 || sh <= 0.3 * size);
    const small = dot || (ah * 2 <= aw && bh * 2 <= bw) || size <= 5;
    // The gap is a fraction of the taller part: a dot sits close to its stem ("i", "!"), while the
    // glyphs of a small line over a big one ("12 * 7 =" over "84") are a line gap apart.
    if (small && gapY <= Math.max(4, Math.round(0.25 * size))) return true;
  }
  return false;
}
