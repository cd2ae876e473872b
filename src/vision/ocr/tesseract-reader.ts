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
import type { Frame } from '../../domain.ts';
import { InfrastructureError } from '../../errors.ts';
import type { OcrResult, ReadOptions, TextBox, TextReader } from '../types.ts';
import { boxToFrame, prepareForOcr, type Prepared } from './preprocess.ts';

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
    if (frame.width === 0 || frame.height === 0) return { text: '', words: [], lines: [] };
    const prepared = prepareForOcr(frame, {
      layout,
      targetCapPx: this.targetCapPx,
      ...(options.scale !== undefined ? { scale: options.scale } : {}),
    });
    const worker = await this.getWorker();
    if (prepared.clean && prepared.clean.ink === null) return { text: '', words: [], lines: [] };
    const oneLine = prepared.clean?.lines === 1 && frame.height <= SMALL_BLOCK_PX;
    const psm = layout === 'char' ? '10' : layout === 'line' || oneLine ? '7' : frame.height <= SMALL_BLOCK_PX ? '6' : '3';
    let page: Tesseract.Page;
    try {
      const result = await worker.recognize(
        Buffer.from(prepared.image.buffer, prepared.image.byteOffset, prepared.image.length),
        {
          tessedit_pageseg_mode: psm,
          tessedit_char_whitelist: options.whitelist ?? '',
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

/** Words and lines of a tesseract page, boxes mapped back to the frame, border noise dropped. */
function toResult(page: Tesseract.Page, prepared: Prepared, frame: Frame): OcrResult {
  const words: TextBox[] = [];
  const lines: TextBox[] = [];
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const kept: TextBox[] = [];
        for (const word of line.words) {
          const text = word.text.trim();
          if (!text || /^[|¦]+$/.test(text)) continue;
          kept.push({ text, box: boxToFrame(word.bbox, prepared, frame), confidence: word.confidence });
        }
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
