/**
 * Reading segmented labels one at a time. A whole-window OCR pass misses most single-character
 * labels (calculator keys); read alone, in a crop that keeps their natural line position, they
 * come out right. Reads are cached by crop content, so polling a screen whose keys did not change
 * costs nothing after the first pass.
 */
import type { Frame, Region } from '../../domain.ts';
import { clampRegion, crop, inflateRegion, intersectRegions } from '../frame.ts';
import { segmentDetailed, type Control } from '../segment.ts';
import { classifySymbol } from '../symbols.ts';
import type { OcrResult, ReadOptions, TextBox, TextReader } from '../types.ts';

/** Confidence reported for a symbol named by its shape. */
const SYMBOL_CONFIDENCE = 90;

/** A label found by segmentation, with where to crop it for OCR. */
export interface LabelCandidate {
  /** The label's ink box, frame coordinates. */
  readonly label: Region;
  /** The control holding it (the label itself for a free label). */
  readonly control: Region;
  /** Ink components of the label (see Control.glyphs). */
  readonly glyphs: number;
  /** The crop to read: the label's width plus a margin, a text-line tall band around its centre line. */
  readonly crop: Region;
  /** Upscale factor that brings the text to `targetCapPx`. */
  readonly scale: number;
  /** Typical text height of the frame (median label height), px. */
  readonly textHeight: number;
}

/** Typical label height of a frame's controls (the median), px; 0 when there are none. */
export function typicalTextHeight(controls: readonly Control[]): number {
  const heights = controls
    .flatMap((c) => c.labels.map((l) => l.height))
    .filter((h) => h >= 6)
    .sort((a, b) => a - b);
  return heights.length === 0 ? 0 : heights[heights.length >> 1]!;
}

/**
 * The labels of a frame and their crops, specks left out (see isSpeck). Every crop is a band
 * about two text heights tall, centred on the control's middle (a key's label sits on the key's
 * centre line, so "-", "=" and "." keep their place relative to the baseline), clipped inside the
 * control's border and short of the labels above and below.
 */
export function labelCandidates(frame: Frame, targetCapPx = 30, controls = segmentDetailed(frame)): LabelCandidate[] {
  const median = typicalTextHeight(controls) || 12;
  const out: LabelCandidate[] = [];
  // A label of a bordered group is also a control of its own: it is read once, in the group.
  const seen = new Set<string>();
  const labels = controls.flatMap((c) => c.labels);
  for (const control of controls) {
    const single = control.kind === 'box' && control.labels.length === 1;
    const inside = control.kind === 'box' ? inflateRegion(control.box, control.bordered ? -2 : 0) : null;
    control.labels.forEach((label, i) => {
      const key = `${label.x},${label.y},${label.width},${label.height}`;
      if (seen.has(key) || isSpeck(label, median, frame)) return;
      seen.add(key);
      const size = Math.max(label.height, median);
      const centre = single ? control.box.y + control.box.height / 2 : label.y + label.height / 2;
      const half = Math.max(Math.round(size * 1.1), Math.ceil(label.height / 2) + 2);
      const margin = Math.max(2, Math.round(size * 0.15));
      let box: Region = {
        x: label.x - margin,
        y: Math.round(centre - half),
        width: label.width + 2 * margin,
        height: 2 * half,
      };
      // Keep the label's own ink inside even when the centre line is off, and other labels
      // above and below out ("7 +" over a big "8" in a display).
      let top = Math.min(box.y, label.y - 1);
      let bottom = Math.max(box.y + box.height, label.y + label.height + 1);
      for (const other of labels) {
        if (other.x >= box.x + box.width || other.x + other.width <= box.x) continue;
        if (other.y + other.height <= label.y) top = Math.max(top, other.y + other.height);
        else if (other.y >= label.y + label.height) bottom = Math.min(bottom, other.y);
      }
      box = { x: box.x, y: top, width: box.width, height: bottom - top };
      if (inside) box = intersectRegions(box, inside) ?? box;
      box = clampRegion(box, frame);
      if (box.width === 0 || box.height === 0) return;
      out.push({
        label,
        control: control.box,
        glyphs: control.glyphs[i] ?? 1,
        crop: box,
        scale: Math.max(1, Math.min(8, targetCapPx / size)),
        textHeight: median,
      });
    });
  }
  return out;
}

/**
 * A label too small to be text: a tenth of the typical text height, or a quarter at the frame's
 * edge (the corner of a border the crop cut; OCR and the symbol classifier would call it ".").
 */
function isSpeck(label: Region, textHeight: number, frame: Frame): boolean {
  const side = Math.max(label.width, label.height);
  if (side <= 0.1 * textHeight) return true;
  const edge = label.x === 0 || label.y === 0 || label.x + label.width >= frame.width || label.y + label.height >= frame.height;
  return edge && side <= 0.25 * textHeight;
}

/** A read of one label, boxes in frame coordinates. */
export interface LabelRead {
  readonly candidate: LabelCandidate;
  readonly text: string;
  readonly words: readonly TextBox[];
  /** Mean word confidence, 0..100. */
  readonly confidence: number;
  /** True when the shape classifier (symbols.ts) named the symbol instead of OCR. */
  readonly symbol: boolean;
}

/**
 * Reads one label.
 * @param cache where reads are memoised; null for none. @default the reader's own cache (readCacheOf)
 */
export async function readLabel(
  reader: TextReader,
  frame: Frame,
  candidate: LabelCandidate,
  options: ReadOptions,
  cache: ReadCache | null = readCacheOf(reader),
): Promise<LabelRead> {
  const named = classifySymbol(frame, candidate.label, candidate.textHeight);
  if (named !== null) {
    const word = { text: named, box: candidate.label, confidence: SYMBOL_CONFIDENCE };
    return { candidate, text: named, words: [word], confidence: SYMBOL_CONFIDENCE, symbol: true };
  }
  const image = crop(frame, candidate.crop);
  const readOptions: ReadOptions = { ...options, scale: candidate.scale };
  const key = cache ? cacheKey(image, readOptions) : '';
  let result = cache?.get(key);
  if (!result) {
    result = await reader.read(image, readOptions);
    cache?.set(key, result);
  }
  const { x, y } = candidate.crop;
  const words = result.words.map((w) => ({ ...w, box: { ...w.box, x: w.box.x + x, y: w.box.y + y } }));
  const confidence = words.length === 0 ? 0 : words.reduce((s, w) => s + w.confidence, 0) / words.length;
  return { candidate, text: result.text.replace(/\s+/g, ' ').trim(), words, confidence, symbol: false };
}

/** A bounded map of OCR results keyed by crop content; least recently used entries go first. */
export class ReadCache {
  private readonly entries = new Map<string, OcrResult>();
  constructor(private readonly maxEntries = 2000) {}

  get(key: string): OcrResult | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: OcrResult): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

const caches = new WeakMap<TextReader, ReadCache>();

/** The label-read cache of a reader (OCR of the same pixels by the same reader gives the same text). */
export function readCacheOf(reader: TextReader): ReadCache {
  let cache = caches.get(reader);
  if (!cache) {
    cache = new ReadCache();
    caches.set(reader, cache);
  }
  return cache;
}

/** Content key: size, options and two 32-bit hashes (FNV-1a and a multiplicative one) of the pixels. */
function cacheKey(frame: Frame, options: ReadOptions): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x12345678;
  const d = frame.data;
  for (let i = 0; i < d.length; i++) {
    const v = d[i]!;
    h1 = Math.imul(h1 ^ v, 0x01000193);
    h2 = Math.imul(h2 + v, 0x9e3779b1) ^ (h2 >>> 15);
  }
  return `${frame.width}x${frame.height}:${(h1 >>> 0).toString(16)}${(h2 >>> 0).toString(16)}:${options.layout ?? 'block'}:${options.scale ?? ''}:${options.whitelist ?? ''}`;
}
