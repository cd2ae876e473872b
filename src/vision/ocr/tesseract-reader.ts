/**
 * TextReader backed by tesseract.js (WebAssembly Tesseract, LSTM engine) with the English data
 * shipped in @tesseract.js-data/eng: nothing is downloaded at run time. This folder is the only
 * place that imports tesseract.js, and it does so lazily, on the first read.
 *
 * Up to `workers` workers per reader (2 by default: a window's text is read in two parallel
 * parts, see region-read.ts), each created when a read finds the others busy (or by `warmUp`)
 * and reused; `sharedTextReader()` gives the process one reader. A worker does one job at a
 * time: a read goes to the worker with the fewest queued. Worker threads keep the process
 * alive: call `close()` (or `closeSharedTextReader()`) when done.
 *
 * Each read: grayscale, dark-on-light, borders and specks erased (preprocess.ts, ink-clean.ts),
 * upscale so capitals are ~30 px, page segmentation by layout (line → 7; char → 10; block → 3
 * automatic, or 6 uniform block for a small crop), optional whitelist. A block of at most
 * LINE_READS_MAX lines in a small frame (a region of a window) is read line by line instead,
 * each line at its own scale (psm 7). An image with nothing left after cleaning is not read.
 * Results are cleaned up in tesseract-result.ts; boxes come back in the input frame's coordinates.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Tesseract from 'tesseract.js';
import type { Frame, Region } from '../../domain.ts';
import { InfrastructureError } from '../../errors.ts';
import { clampRegion, inflateRegion, unionRegions } from '../frame.ts';
import type { OcrResult, ReadOptions, TextBox, TextReader } from '../types.ts';
import type { FixedLine } from './fixed-font.ts';
import { normalizeForOcr, prepareNormalized, type Normalized, type Prepared } from './preprocess.ts';
import { toResult } from './tesseract-result.ts';

export interface TesseractReaderOptions {
  /** Folder holding `<lang>.traineddata.gz`. @default the 4.0.0_best_int folder of @tesseract.js-data/eng */
  readonly langPath?: string;
  /** @default 'eng' */
  readonly lang?: string;
  /** Capital height reads are scaled to, px. @default 30 */
  readonly targetCapPx?: number;
  /** Most workers (threads) reading at once. @default 2 */
  readonly workers?: number;
}

/** One worker thread and its queue of reads. */
interface Slot {
  worker: Promise<Tesseract.Worker> | null;
  queue: Promise<unknown>;
  pending: number;
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
  private readonly slots: Slot[];
  private readonly langPath: string;
  private readonly lang: string;
  private readonly targetCapPx: number;

  constructor(options: TesseractReaderOptions = {}) {
    this.langPath = options.langPath ?? defaultLangPath();
    this.lang = options.lang ?? 'eng';
    this.targetCapPx = options.targetCapPx ?? 30;
    this.slots = Array.from({ length: Math.max(1, options.workers ?? 2) }, () => ({ worker: null, queue: Promise.resolve(), pending: 0 }));
  }

  /** The data file this reader loads. */
  get dataFile(): string {
    return join(this.langPath, `${this.lang}.traineddata.gz`);
  }

  read(frame: Frame, options: ReadOptions = {}): Promise<OcrResult> {
    // The least busy worker; of equals the first, so reads one after another keep to one worker.
    const slot = this.slots.reduce((best, s) => (s.pending < best.pending ? s : best));
    slot.pending++;
    const job = slot.queue.then(() => this.readNow(slot, frame, options));
    slot.queue = job.catch(() => undefined).finally(() => slot.pending--);
    return job;
  }

  async close(): Promise<void> {
    await Promise.all(
      this.slots.map(async (slot) => {
        const worker = slot.worker;
        slot.worker = null;
        if (!worker) return;
        await slot.queue;
        await (await worker.catch(() => null))?.terminate();
      }),
    );
  }

  /** Starts the workers now (reads start them anyway); throws InfrastructureError('OCR_DATA') when the data is missing. */
  async warmUp(): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.getWorker(slot)));
  }

  private getWorker(slot: Slot): Promise<Tesseract.Worker> {
    if (!slot.worker) {
      const worker = this.createWorker();
      slot.worker = worker;
      // A failed start is not cached: the next read tries again (and fails with the same message).
      worker.catch(() => {
        if (slot.worker === worker) slot.worker = null;
      });
    }
    return slot.worker;
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

  private async readNow(slot: Slot, frame: Frame, options: ReadOptions): Promise<OcrResult> {
    const layout = options.layout ?? 'block';
    if (frame.width === 0 || frame.height === 0) return empty();
    const normalized = normalizeForOcr(frame, { layout });
    const fixed = fixedResult(normalized.fixed);
    const clean = normalized.clean;
    if (clean && clean.ink === null) return fixed; // nothing (else) but borders and specks
    return merge(fixed, await this.readRest(slot, normalized, frame, options));
  }

  /** OCR of what preprocessing left: the lines not in X's fixed font. */
  private async readRest(slot: Slot, normalized: Normalized, frame: Frame, options: ReadOptions): Promise<OcrResult> {
    const layout = options.layout ?? 'block';
    const clean = normalized.clean;
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
        results.push(await this.recognize(slot, prepare(area, 'line'), '7', options.whitelist, frame));
      }
      return {
        text: results
          .map((r) => r.text)
          .filter((t) => t !== '')
          .join('\n'),
        words: results.flatMap((r) => r.words),
        lines: results.flatMap((r) => r.lines),
      };
    }
    const psm = layout === 'char' ? '10' : layout === 'line' ? '7' : options.sparse ? '11' : frame.height <= SMALL_BLOCK_PX ? '6' : '3';
    // A window on an empty screen: only the part holding ink is upscaled and read.
    const inked = clean?.ink ? clampRegion(inflateRegion(clean.ink, INK_MARGIN_PX), frame) : null;
    const sparse = inked !== null && inked.width * inked.height < SPARSE_INK * frame.width * frame.height;
    return this.recognize(slot, prepare(sparse ? inked : null, layout), psm, options.whitelist, frame);
  }

  private async recognize(slot: Slot, prepared: Prepared, psm: string, whitelist: string | undefined, frame: Frame): Promise<OcrResult> {
    const worker = await this.getWorker(slot);
    let page: Tesseract.Page;
    try {
      const result = await worker.recognize(
        Buffer.from(prepared.image.buffer, prepared.image.byteOffset, prepared.image.length),
        {
          tessedit_pageseg_mode: psm,
          tessedit_char_whitelist: whitelist ?? '',
          user_defined_dpi: '300',
          // Tesseract prints its own statistics ("Bottom=0, top=38…", "Total count=0") on odd
          // shapes; they are no message of retrace's. Set per call: tesseract.js restores the
          // parameters after each one, and tprintf falls back to stderr without it.
          debug_file: '/dev/null',
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

const empty = (): OcrResult => ({ text: '', words: [], lines: [] });

/** Lines read from the cells of X's fixed font: exact, so full confidence. */
function fixedResult(lines: readonly FixedLine[]): OcrResult {
  const words = lines.flatMap((l) => l.words.map((w) => ({ text: w.text, box: w.box, confidence: 100 })));
  const read = lines
    .filter((l) => l.words.length > 0)
    .map((l) => ({ text: l.words.map((w) => w.text).join(' '), box: l.words.map((w) => w.box).reduce(unionRegions), confidence: 100 }));
  return { text: read.map((l) => l.text).join('\n'), words, lines: read };
}

/** Two reads of parts of one frame as one, lines top to bottom. */
function merge(a: OcrResult, b: OcrResult): OcrResult {
  if (a.lines.length === 0) return b;
  if (b.lines.length === 0) return a;
  const byY = (p: TextBox, q: TextBox): number => p.box.y - q.box.y || p.box.x - q.box.x;
  const lines = [...a.lines, ...b.lines].sort(byY);
  return { text: lines.map((l) => l.text).join('\n'), words: [...a.words, ...b.words].sort(byY), lines };
}

/** Ground kept around the ink of a block read, px. */
const INK_MARGIN_PX = 8;
/** A block whose ink covers less than this part of it is read as the ink's box alone. */
const SPARSE_INK = 0.5;

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

let shared: TesseractReader | null = null;

/** The process-wide reader (its workers created on first use). */
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
