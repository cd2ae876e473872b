/**
 * What retrace sees of a window: the words OCR reads, the controls the segmenter finds and, where
 * the desktop has an accessibility source, its elements — each with a window-relative box. The
 * same readers a run uses (readAll: the page read plus the label-by-label reads of keys), so what
 * the page shows is what a `text:` expectation or a `click "T"` target will find.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Region } from '../domain.ts';
import { encodePng } from '../vision/frame.ts';
import { readAll } from '../vision/ocr/find-text.ts';
import { segmentDetailed } from '../vision/segment.ts';
import type { TextReader } from '../vision/types.ts';
import { writeFileAtomic } from '../paths/atomic.ts';
import { inspectPage } from './inspect-page.ts';

export const INSPECT_VERSION = 1;

export interface InspectedWord {
  readonly text: string;
  readonly box: Region;
  /** 0..100 */
  readonly confidence: number;
}

export interface InspectedControl {
  readonly box: Region;
  /** 'box': a face set off by fill or border (button, field); 'text': a free label. */
  readonly kind: 'box' | 'text';
}

/** An accessibility element (role, name, box): the same shape a `{ role, name }` target names. */
export interface InspectedElement {
  readonly role: string;
  readonly name: string;
  readonly box: Region;
}

export interface Inspection {
  readonly version: typeof INSPECT_VERSION;
  readonly spec: string;
  /** The goal replayed before looking, when `--goal` was given. */
  readonly goal?: string;
  readonly window: { readonly title: string; readonly width: number; readonly height: number };
  readonly words: readonly InspectedWord[];
  readonly controls: readonly InspectedControl[];
  /** Empty when the desktop has no accessibility source (`elementsSource` says which one it was). */
  readonly elements: readonly InspectedElement[];
  readonly elementsSource: string | null;
}

export interface InspectInput {
  readonly spec: string;
  readonly goal?: string;
  readonly title: string;
  readonly frame: Frame;
  readonly reader: TextReader;
  readonly elements?: { readonly source: string; readonly list: readonly InspectedElement[] };
}

/** Reads the window: words (page and labels), controls, elements. */
export async function inspectFrame(input: InspectInput): Promise<Inspection> {
  const { frame } = input;
  const ocr = await readAll(input.reader, frame);
  const words = ocr.words
    .filter((w) => w.text.trim().length > 0)
    .map((w) => ({ text: w.text.trim(), box: w.box, confidence: Math.round(w.confidence) }));
  const controls = segmentDetailed(frame).map((c) => ({ box: c.box, kind: c.kind }));
  return {
    version: INSPECT_VERSION,
    spec: input.spec,
    ...(input.goal !== undefined ? { goal: input.goal } : {}),
    window: { title: input.title, width: frame.width, height: frame.height },
    words,
    controls,
    elements: input.elements?.list ?? [],
    elementsSource: input.elements?.source ?? null,
  };
}

/** Writes `window.png`, `inspect.json` and `index.html` into `dir`; returns their paths. */
export function writeInspection(dir: string, frame: Frame, inspection: Inspection): { png: string; json: string; html: string } {
  mkdirSync(dir, { recursive: true });
  const png = encodePng(frame);
  const files = { png: join(dir, 'window.png'), json: join(dir, 'inspect.json'), html: join(dir, 'index.html') };
  writeFileAtomic(files.png, png);
  writeFileAtomic(files.json, `${JSON.stringify(inspection, null, 2)}\n`);
  writeFileAtomic(files.html, inspectPage(inspection, png));
  return files;
}
