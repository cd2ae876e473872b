/**
 * TextReader backed by tesseract.js (WebAssembly Tesseract, LSTM engine) with the English data
 * shipped in @tesseract.js-data/eng: nothing is downloaded at run time. This folder is the only
 * place that imports tesseract.js, and it does so lazily, on the first read.
 *
 * One worker per reader, created on the first read and reused; `sharedTextReader()` gives the
 * process one reader (and so one worker). Reads are queued: a worker does one job at a time.
 * The worker thread keeps the process alive: call `close()` (or `closeSharedTextReader()`) when done.
 *
 * Each read: grayscale, dark-on-light, upscale so capitals are ~30 px (see preprocess.ts), page
 * segmentation by layout (block → 3 automatic, or 6 uniform block for a small crop; line → 7;
 * char → 10), optional whitelist; boxes come back in the input frame's coordinates.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Tesseract from 'tesseract.js';
import type { Frame, Region } from '../../domain.ts';
import { InfrastructureError } from '../../errors.ts';
import { unionRegions } from '../frame.ts';
import type { OcrResult, ReadOptions, TextBox, TextReader } from '../types.ts';
import { boxToFrame, normalizeForOcr, prepareNormalized, type Prepared } from './preprocess.ts';

export interface TesseractReaderOptions {
  /** Folder holding `<lang>.traineddata.gz`. @default the 4.0.0_best_int folder of @tesseract.js-data/eng */
  readonly langPath?: string;
  /** @default 'eng' */
  readonly lang?: string;
  /** Capital height reads are scaled to, px. @default 30 */
  readonly targetCapPx?: number;
}

/** Where the shipped English data lives, or a best guess of it when the package is missing. */
export function defaultLangPath(): string {
  const require = createRequire(import.meta.url);
  try {
    return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
  } catch {
    return join(process.cwd(), 'node_modules', '@tesseract.js-data', 'eng', '4.0.0_best_int');
  }
}

/** Frames at most this tall (per line of text) are read as one uniform block rather than a page. */
const SMALL_BLOCK_PX = 80;

export class TesseractReader implements TextReader {
  private worker: Promise<Tesseract.Worker> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly langPath: string;
  private readonly lang: string;
  private readonly targetCapPx: number;

  constructor(options: TesseractReaderOptions = {}) {
    this.langPath = options.langPath ?? defaultLangPath();
    this.lang = options.lang ?? 'eng';
    this.targetCapPx = options.targetCapPx ?? 30;
  }

  /** The data file this reader loads. */
  get dataFile(): string {
    return join(this.langPath, `${this.lang}.traineddata.gz`);
  }

  read(frame: Frame, options: ReadOptions = {}): Promise<OcrResult> {
    const job = this.queue.then(() => this.readNow(frame, options));
    this.queue = job.catch(() => undefined);
    return job;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    await this.queue;
    await (await worker.catch(() => null))?.terminate();
  }

  /** Starts the worker now (reads start it anyway); throws InfrastructureError('OCR_DATA') when the data is missing. */
  async warmUp(): Promise<void> {
    await this.getWorker();
  }

  private getWorker(): Promise<Tesseract.Worker> {
    if (!this.worker) {
      this.worker = this.createWorker();
      // A failed start is not cached: the next read tries again (and fails with the same message).
      this.worker.catch(() => {
        this.worker = null;
      });
    }
    return this.worker;
  }

  private async createWorker(): Promise<Tesseract.Worker> {
    const file = this.dataFile;
    if (!existsSync(file)) {
      throw new InfrastructureError(
        'OCR_DATA',
        `OCR data not found: ${file}. Install it with "npm install @tesseract.js-data/eng" (retrace never downloads OCR data), or point langPath at a folder holding ${this.lang}.traineddata.gz.`,
      );
    }
    const tesseract = (await import('tesseract.js')).default;
    try {
      return await tesseract.createWorker(this.lang, tesseract.OEM.LSTM_ONLY, {
        langPath: this.langPath,
        gzip: true,
        cacheMethod: 'none',
        logger: () => undefined,
        errorHandler: () => undefined,
      });
    } catch (cause) {
      throw new InfrastructureError('OCR_DATA', `Could not start OCR with ${file}: ${String(cause)}`, { cause });
    }
  }

  private async readNow(frame: Frame, options: ReadOptions): Promise<OcrResult> {
    const layout = options.layout ?? 'block';
    if (frame.width === 0 || frame.height === 0) return EMPTY;
    const normalized = normalizeForOcr(frame, { layout });
    const clean = normalized.clean;
    if (clean && clean.ink === null) return EMPTY; // nothing but borders and specks
    const prepare = (area: Region | null, as: 'block' | 'line' | 'char'): Prepared =>
      prepareNormalized(normalized, area, {
        layout: as,
        targetCapPx: this.targetCapPx,
        ...(options.scale !== undefined ? { scale: options.scale } : {}),
      });
    const lines = clean?.lines ?? [];
    if (layout === 'block' && lines.length > 0 && lines.length <= LINE_READS_MAX && frame.height <= LINE_READS_MAX_PX) {
      // A few lines: each read on its own, so each gets its own scale ("12 * 7 =" over a big "84").
      const results: OcrResult[] = [];
      for (let i = 0; i < lines.length; i++) {
        const area = lineArea(lines, i, frame);
        results.push(await this.recognize(prepare(area, 'line'), '7', options.whitelist, frame));
      }
      return {
        text: results.map((r) => r.text).filter((t) => t !== '').join('\n'),
        words: results.flatMap((r) => r.words),
        lines: results.flatMap((r) => r.lines),
      };
    }
    const psm = layout === 'char' ? '10' : layout === 'line' ? '7' : frame.height <= SMALL_BLOCK_PX ? '6' : '3';
    return this.recognize(prepare(null, layout), psm, options.whitelist, frame);
  }

  private async recognize(prepared: Prepared, psm: string, whitelist: string | undefined, frame: Frame): Promise<OcrResult> {
    const worker = await this.getWorker();
    let page: Tesseract.Page;
    try {
      const result = await worker.recognize(
        Buffer.from(prepared.image.buffer, prepared.image.byteOffset, prepared.image.length),
        {
          tessedit_pageseg_mode: psm,
          tessedit_char_whitelist: whitelist ?? '',
          user_defined_dpi: '300',
        } as unknown as Partial<Tesseract.RecognizeOptions>,
        { blocks: true, text: true },
      );
      page = result.data;
    } catch (cause) {
      throw new Error(`OCR failed on a ${frame.width}×${frame.height} frame: ${String(cause)}`, { cause });
    }
    return toResult(page, prepared, frame);
  }
}

const EMPTY: OcrResult = Object.freeze({ text: '', words: [], lines: [] });

/** Blocks of at most this many lines, in frames at most this tall, are read line by line. */
const LINE_READS_MAX = 4;
const LINE_READS_MAX_PX = 200;

/**
 * The area read for line `i`: its ink plus a margin of half its height (at least 4 px) on each
 * side, not reaching into the neighbouring lines' ink.
 */
function lineArea(lines: readonly Region[], i: number, frame: Frame): Region {
  const line = lines[i]!;
  const margin = Math.max(4, Math.round(line.height / 2));
  const prev = lines[i - 1];
  const next = lines[i + 1];
  const top = Math.max(line.y - margin, prev ? prev.y + prev.height : 0);
  const bottom = Math.min(line.y + line.height + margin, next ? next.y : frame.height);
  const left = Math.max(0, line.x - margin);
  const right = Math.min(frame.width, line.x + line.width + margin);
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** Words and lines of a tesseract page, boxes mapped back to the frame, border noise dropped. */
function toResult(page: Tesseract.Page, prepared: Prepared, frame: Frame): OcrResult {
  const words: TextBox[] = [];
  const lines: TextBox[] = [];
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const kept: TextBox[] = [];
        for (const word of fixCase(line.words.map(partOf), prepared, frame)) {
          for (const part of splitAtSpaces(word, prepared, frame)) {
            const text = part.text.trim();
            if (!text || /^[|¦]+$/.test(text)) continue;
            kept.push({ text, box: part.box, confidence: word.confidence });
          }
        }
        trimBorderNoise(kept, prepared, frame);
        if (kept.length === 0) continue;
        words.push(...kept);
        const box = kept.slice(1).reduce((acc, w) => {
          const x1 = Math.max(acc.x + acc.width, w.box.x + w.box.width);
          const y1 = Math.max(acc.y + acc.height, w.box.y + w.box.height);
          const x = Math.min(acc.x, w.box.x);
          const y = Math.min(acc.y, w.box.y);
          return { x, y, width: x1 - x, height: y1 - y };
        }, kept[0]!.box);
        const confidence = kept.reduce((s, w) => s + w.confidence, 0) / kept.length;
        lines.push({ text: kept.map((w) => w.text).join(' '), box, confidence });
      }
    }
  }
  return { text: lines.map((l) => l.text).join('\n'), words, lines };
}

/** What OCR makes of a border: brackets and bars at the ends of a line, dots near the edge. */
const OPEN_NOISE = /^[[({|]+/;
const CLOSE_NOISE = /[\])}|]+$/;
const DOT_NOISE = /^[.,:;'"`|]+$/;

/**
 * Drops, in place, what is left of a border the cleaning missed: brackets and bars opening the
 * line's first word or closing its last, and words of dots alone, when they lie at the frame's
 * edge or beside erased ink.
 */
function trimBorderNoise(words: TextBox[], prepared: Prepared, frame: Frame): void {
  const erased = prepared.clean?.erased ?? [];
  const m = 2;
  const besideErased = (box: Region): boolean =>
    erased.some((e) => box.x - m < e.x + e.width && e.x < box.x + box.width + m && box.y - m < e.y + e.height && e.y < box.y + box.height + m);
  const atLeft = (box: Region): boolean => box.x <= m || besideErased(box);
  const atRight = (box: Region): boolean => box.x + box.width >= frame.width - m || besideErased(box);
  const atEdge = (box: Region): boolean =>
    atLeft(box) || atRight(box) || box.y <= m || box.y + box.height >= frame.height - m;
  for (let i = words.length - 1; i >= 0; i--) if (DOT_NOISE.test(words[i]!.text) && atEdge(words[i]!.box)) words.splice(i, 1);
  const first = words[0];
  if (first && OPEN_NOISE.test(first.text) && atLeft(first.box)) words[0] = { ...first, text: first.text.replace(OPEN_NOISE, '') };
  const last = words[words.length - 1];
  if (last && CLOSE_NOISE.test(last.text) && atRight(last.box)) {
    words[words.length - 1] = { ...last, text: last.text.replace(CLOSE_NOISE, '') };
  }
  for (let i = words.length - 1; i >= 0; i--) if (words[i]!.text === '') words.splice(i, 1);
}

type Bbox = Tesseract.Bbox;

/** A word with its symbols; `symbols` is empty when they do not spell the word. */
interface WordPart {
  readonly text: string;
  readonly bbox: Bbox;
  readonly confidence: number;
  readonly symbols: readonly { readonly text: string; readonly bbox: Bbox }[];
}

function partOf(word: Tesseract.Word): WordPart {
  const symbols = (word.symbols ?? []).map((s) => ({ text: s.text, bbox: s.bbox }));
  const spelled = symbols.map((s) => s.text).join('') === word.text;
  return { text: word.text, bbox: word.bbox, confidence: word.confidence, symbols: spelled ? symbols : [] };
}

/**
 * A word split at the word spaces cleaning found in the ink (tesseract sometimes joins "7 +" into
 * "7+" in a single-line read): between two symbols when the space starts after the left one's
 * left edge and ends by the right one's left edge (symbol boxes are rough, their left edges the
 * most reliable part). Boxes in frame coordinates.
 */
function splitAtSpaces(word: WordPart, prepared: Prepared, frame: Frame): { text: string; box: Region }[] {
  const whole = [{ text: word.text, box: boxToFrame(word.bbox, prepared, frame) }];
  const spaces = prepared.clean?.spaces ?? [];
  if (word.symbols.length < 2 || spaces.length === 0) return whole;
  const box = whole[0]!.box;
  const inWord = spaces.filter(
    (s) => s.x > box.x && s.x < box.x + box.width && s.y < box.y + box.height && box.y < s.y + s.height,
  );
  if (inWord.length === 0) return whole;
  const boxes = word.symbols.map((s) => boxToFrame(s.bbox, prepared, frame));
  const parts: { text: string; box: Region }[] = [];
  let first = 0;
  for (let i = 1; i <= boxes.length; i++) {
    const split =
      i === boxes.length ||
      inWord.some((s) => boxes[i - 1]!.x < s.x && boxes[i]!.x >= s.x + s.width - Math.max(2, s.width / 2));
    if (!split) continue;
    const run = boxes.slice(first, i);
    parts.push({ text: word.symbols.slice(first, i).map((s) => s.text).join(''), box: run.reduce(unionRegions) });
    first = i;
  }
  return parts;
}

/** Letters whose capital is the small letter enlarged: OCR cannot tell their case by shape. */
const SAME_SHAPE = new Set('cosvwxz');
/** Small letters of x-height with a capital of another shape: the line's x-height reference. */
const X_HEIGHT = new Set('aemnru');
/** Capitals, digits and ascending small letters: the line's capital-height reference. */
const TALL = /^[A-BD-NP-RT-UY0-9bdfhklt]$/;

/**
 * The case of c, o, s, v, w, x and z set by their height within the line, measured on the ink
 * (tesseract's symbol boxes are too rough for it): taller than the line's x-height letters
 * (1.2 ×) or nearly as tall as its capitals (0.85 ×) is upper case, else lower case ("On" is not
 * "on"). References come from the word's own letters, else from its line. A symbol is measured
 * only when exactly one ink component lies under it; letters are left alone without a reference.
 */
function fixCase(words: WordPart[], prepared: Prepared, frame: Frame): WordPart[] {
  const glyphs = prepared.clean?.glyphs ?? [];
  if (glyphs.length === 0) return words;
  const inkHeight = (bbox: Bbox): number => {
    const box = boxToFrame(bbox, prepared, frame);
    const mid = box.x + box.width / 2;
    const under = glyphs.filter((g) => {
      const gx = g.x + g.width / 2;
      const overlapsY = g.y < box.y + box.height && box.y < g.y + g.height;
      return overlapsY && gx >= box.x && gx <= box.x + box.width && mid >= g.x && mid <= g.x + g.width;
    });
    return under.length === 1 ? under[0]!.height : 0;
  };
  const median = (v: number[]): number => {
    const known = v.filter((h) => h > 0).sort((a, b) => a - b);
    return known.length === 0 ? 0 : known[known.length >> 1]!;
  };
  type Symbol = WordPart['symbols'][number];
  const references = (symbols: readonly Symbol[]): { x: number; cap: number } => ({
    x: median(symbols.filter((s) => X_HEIGHT.has(s.text)).map((s) => inkHeight(s.bbox))),
    cap: median(symbols.filter((s) => TALL.test(s.text)).map((s) => inkHeight(s.bbox))),
  });
  const symbols = words.flatMap((w) => w.symbols);
  if (!symbols.some((s) => SAME_SHAPE.has(s.text.toLowerCase()))) return words;
  const line = references(symbols);
  const upper = (h: number, ref: { x: number; cap: number }): boolean | null => {
    if (h === 0) return null;
    if (ref.x > 0) return h >= 1.2 * ref.x ? true : h <= 1.1 * ref.x ? false : null;
    if (ref.cap > 0) return h >= 0.85 * ref.cap ? true : h <= 0.75 * ref.cap ? false : null;
    return null;
  };
  return words.map((w) => {
    if (!w.symbols.some((s) => SAME_SHAPE.has(s.text.toLowerCase()))) return w;
    // The word's own letters first: a line may mix sizes (a heading beside small text).
    const own = references(w.symbols);
    const ref = own.x > 0 || own.cap > 0 ? own : line;
    let changed = false;
    const fixed = w.symbols.map((s) => {
      if (!SAME_SHAPE.has(s.text.toLowerCase())) return s;
      const up = upper(inkHeight(s.bbox), ref);
      const text = up === null ? s.text : up ? s.text.toUpperCase() : s.text.toLowerCase();
      if (text === s.text) return s;
      changed = true;
      return { ...s, text };
    });
    return changed ? { ...w, symbols: fixed, text: fixed.map((s) => s.text).join('') } : w;
  });
}

let shared: TesseractReader | null = null;

/** The process-wide reader (one worker, created on first use). */
export function sharedTextReader(): TesseractReader {
  shared ??= new TesseractReader();
  return shared;
}

/** Terminates the process-wide reader's worker, if it was started. */
export async function closeSharedTextReader(): Promise<void> {
  const reader = shared;
  shared = null;
  await reader?.close();
}
