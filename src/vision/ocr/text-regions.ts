/**
 * Where text can be on a frame, and those places packed into one small image for a single OCR
 * call (issue 28.3). Reading a whole 1200×740 window costs seconds, most of it spent on layout
 * analysis of flat panels, borders and images scaled up ~3×; the text itself covers a small part
 * of it.
 *
 * `textRegions`: the labels segmentation finds (groups of glyph-sized ink components on a face or
 * panel; flat areas and large shapes are never labels), joined into line runs where they sit on
 * one line within a gap of 1.5 text heights, each with a margin.
 * `packRegions`: the runs placed on shelves (tallest first, so a shelf holds one text size), far
 * enough apart that OCR never reads two of them as one word.
 * `composePacked`: the packed image, each run made dark ink on a white ground on its own (a
 * selected row, a dark header and a light panel get one polarity), so one page read fits all.
 * `wordsToFrame`: the words of that read back in frame coordinates; a word lying outside every
 * run (a misread of the gap) is dropped.
 */
import type { Frame, Point, Region } from '../../domain.ts';
import { clampRegion, regionArea, unionRegions } from '../frame.ts';
import { segmentDetailed, type Control } from '../segment.ts';
import type { TextBox } from '../types.ts';
import { typicalTextHeight } from './label-reads.ts';

/** A run of text on one line: its box, and the boxes of its labels as read (see widen). */
export interface TextRun {
  readonly box: Region;
  readonly ink: readonly Region[];
}

/** One run of text as placed in the packed image. */
export interface Placement {
  /** Where it is on the frame. */
  readonly from: Region;
  /** The boxes of its labels as read (see widen): only what lies in them is copied into the packed image. */
  readonly ink: readonly Region[];
  /** Other places of the frame showing the same pixels, read once with it (the same label on several controls). */
  readonly copies: readonly Region[];
  /** Its top-left corner in the packed image. */
  readonly at: Point;
}

export interface Packing {
  readonly width: number;
  readonly height: number;
  readonly placements: readonly Placement[];
}

/**
 * A label's box as read: a pixel more above and below (a wider margin would take in the edge of
 * the line above or below: a paragraph's lines are a few px apart; packing sets runs apart on
 * white anyway), half its height more on each side: a glyph touching a line (a frame's title
 * ending on the frame's border) is one component with it, which segmentation leaves out of the
 * label, and the reader's cleaning erases the line.
 */
const widen = (r: Region): Region => {
  const side = Math.max(2, Math.round(r.height / 2));
  return { x: r.x - side, y: r.y - 1, width: r.width + 2 * side, height: r.height + 2 };
};

/** Labels further apart than this many text heights are separate runs. */
const JOIN_GAP = 1.5;

/**
 * Runs of text on the frame (frame coordinates, with a margin), top to bottom. Labels smaller
 * than a tenth of the typical text height are specks, not text.
 */
export function textRegions(frame: Frame, controls: readonly Control[] = segmentDetailed(frame)): TextRun[] {
  const median = typicalTextHeight(controls) || 12;
  const seen = new Set<string>();
  const labels: Region[] = [];
  controls.forEach((control) =>
    control.labels.forEach((label, i) => {
      const key = `${label.x},${label.y},${label.width},${label.height}`;
      if (seen.has(key) || !textLike(label, control.glyphs[i] ?? 1, median)) return;
      seen.add(key);
      labels.push(label);
    }),
  );
  labels.sort((a, b) => a.y - b.y || a.x - b.x);
  const runs: { box: Region; ink: Region[] }[] = [];
  for (const label of labels) {
    const run = runs.find((r) => sameLine(r.box, label) && horizontalGap(r.box, label) <= JOIN_GAP * Math.max(median, label.height));
    if (run) {
      run.box = unionRegions(run.box, label);
      run.ink.push(label);
    } else runs.push({ box: label, ink: [label] });
  }
  return runs
    .map((r) => {
      const ink = r.ink.map((i) => clampRegion(widen(i), frame));
      return { box: ink.reduce(unionRegions), ink };
    })
    .filter((r) => regionArea(r.box) > 0)
    .sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
}

/**
 * A label that can be text: not a speck (a tenth of the text height), and when it is one ink
 * component, shaped like a glyph — a slider's track, a switch or a scroll bar is one component
 * far wider than tall, or far taller than text.
 */
function textLike(label: Region, glyphs: number, median: number): boolean {
  if (Math.max(label.width, label.height) <= 0.1 * median) return false;
  if (glyphs > 1) return true;
  // A dash is wider than tall, but short.
  return (label.width <= 1.5 * label.height || label.width <= 1.5 * median) && label.height <= 3 * median;
}

/** Vertical overlap of at least half the smaller height. */
function sameLine(a: Region, b: Region): boolean {
  const overlap = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return overlap >= 0.5 * Math.min(a.height, b.height);
}

const horizontalGap = (a: Region, b: Region): number => Math.max(a.x - (b.x + b.width), b.x - (a.x + a.width), 0);

/**
 * The runs packed into `parts` images of about equal area (read in parallel), runs showing the
 * same pixels once. Each image is a shelf packing: tallest first, left to right, a new shelf
 * when the next run does not fit the width; runs in one shelf are `gap` × the shelf's height
 * apart (more than a word space, so OCR keeps them apart), shelves half a height apart.
 */
export function packRegions(frame: Frame, runs: readonly TextRun[], parts = 1, gap = 1.5): Packing[] {
  const groups = new Map<string, TextRun[]>();
  for (const r of runs) {
    const key = contentKey(frame, r.box);
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  const sorted = [...groups.values()].sort(
    (a, b) => b[0]!.box.height - a[0]!.box.height || a[0]!.box.y - b[0]!.box.y || a[0]!.box.x - b[0]!.box.x,
  );
  const shares: TextRun[][][] = Array.from({ length: Math.max(1, parts) }, () => []);
  const areas = shares.map(() => 0);
  for (const group of sorted) {
    const least = areas.indexOf(Math.min(...areas));
    shares[least]!.push(group);
    areas[least]! += regionArea(group[0]!.box);
  }
  return shares.filter((s) => s.length > 0).map((s) => shelves(s, gap));
}

function shelves(groups: readonly TextRun[][], gap: number): Packing {
  const widest = Math.max(...groups.map((g) => g[0]!.box.width));
  const area = groups.reduce((s, [r]) => s + (r!.box.width + gap * r!.box.height) * r!.box.height * 1.5, 0);
  const width = Math.max(widest, Math.round(Math.sqrt(area)));
  const placements: Placement[] = [];
  let x = 0;
  let y = 0;
  let shelf = 0;
  for (const [run, ...others] of groups) {
    const from = run!.box;
    const copies = others.map((o) => o.box);
    if (x > 0 && x + from.width > width) {
      y += shelf + Math.ceil(shelf / 2);
      x = 0;
      shelf = 0;
    }
    if (shelf === 0) shelf = from.height;
    // A shorter run sits on the shelf's middle line, as text of one line does.
    placements.push({ from, ink: run!.ink, copies, at: { x, y: y + Math.floor((shelf - from.height) / 2) } });
    x += from.width + Math.round(gap * shelf);
  }
  return { width, height: y + shelf, placements };
}

/** Size and a 32-bit FNV-1a hash of a region's pixels. */
function contentKey(frame: Frame, r: Region): string {
  let h = 0x811c9dc5;
  for (let y = r.y; y < r.y + r.height; y++) {
    const row = (y * frame.width + r.x) * 4;
    for (let i = row; i < row + r.width * 4; i++) h = Math.imul(h ^ frame.data[i]!, 0x01000193);
  }
  return `${r.width}x${r.height}:${(h >>> 0).toString(16)}`;
}

/** The packed image: each run dark on white on its own (contrast stretched to its ground), on white. */
export function composePacked(frame: Frame, packing: Packing): Frame {
  const data = new Uint8Array(packing.width * packing.height * 4).fill(255);
  const luma = (i: number): number => (frame.data[i]! * 77 + frame.data[i + 1]! * 150 + frame.data[i + 2]! * 29 + 128) >> 8;
  for (const { from, ink, at } of packing.placements) {
    // What lies above or below a label's line (a border, the edge of another line) is no part of it.
    const inInk = (x: number, y: number): boolean => ink.some((r) => x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height);
    const ground = edgeGround(frame, from, luma);
    let far = ground;
    for (let y = from.y; y < from.y + from.height; y++) {
      for (let x = from.x; x < from.x + from.width; x++) {
        if (!inInk(x, y)) continue;
        const v = luma((y * frame.width + x) * 4);
        if (Math.abs(v - ground) > Math.abs(far - ground)) far = v;
      }
    }
    const span = Math.max(1, Math.abs(far - ground));
    for (let y = 0; y < from.height; y++) {
      for (let x = 0; x < from.width; x++) {
        if (!inInk(from.x + x, from.y + y)) continue;
        const v = luma(((from.y + y) * frame.width + from.x + x) * 4);
        // Distance from the ground is ink, whichever side of the ground the text is on.
        const out = Math.max(0, Math.round(255 - (255 * Math.abs(v - ground)) / span));
        const p = ((at.y + y) * packing.width + at.x + x) * 4;
        data[p] = out;
        data[p + 1] = out;
        data[p + 2] = out;
      }
    }
  }
  return { width: packing.width, height: packing.height, data };
}

/** The most common luma on the region's edge. */
function edgeGround(frame: Frame, r: Region, luma: (i: number) => number): number {
  const hist = new Uint32Array(256);
  const count = (x: number, y: number): void => {
    const v = luma((y * frame.width + x) * 4);
    hist[v] = hist[v]! + 1;
  };
  for (let x = r.x; x < r.x + r.width; x++) {
    count(x, r.y);
    count(x, r.y + r.height - 1);
  }
  for (let y = r.y; y < r.y + r.height; y++) {
    count(r.x, y);
    count(r.x + r.width - 1, y);
  }
  let best = 0;
  for (let v = 1; v < 256; v++) if (hist[v]! > hist[best]!) best = v;
  return best;
}

/**
 * Words read on the packed image, in frame coordinates: each clipped to the run holding its
 * centre, and repeated on that run's copies.
 */
export function wordsToFrame(words: readonly TextBox[], packing: Packing): TextBox[] {
  const out: TextBox[] = [];
  for (const w of words) {
    const cx = w.box.x + w.box.width / 2;
    const cy = w.box.y + w.box.height / 2;
    const place = packing.placements.find(({ from, at }) => cx >= at.x && cx < at.x + from.width && cy >= at.y && cy < at.y + from.height);
    if (!place) continue;
    const { from, at } = place;
    const x0 = Math.max(w.box.x, at.x);
    const y0 = Math.max(w.box.y, at.y);
    const x1 = Math.min(w.box.x + w.box.width, at.x + from.width);
    const y1 = Math.min(w.box.y + w.box.height, at.y + from.height);
    for (const to of [from, ...place.copies]) {
      out.push({ ...w, box: { x: x0 - at.x + to.x, y: y0 - at.y + to.y, width: x1 - x0, height: y1 - y0 } });
    }
  }
  return out;
}
