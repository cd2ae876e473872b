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
import type { Element } from '../desktop/types.ts';
import { accessibleName } from '../desktop/index.ts';
import { PUBLISHES_NOTHING, targetOf, type Snapshot } from '../brain/elements.ts';
import { ROLE_WORDS } from '../brain/rules-grammar.ts';

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

/** An accessibility element as a target names it: its role, its name (or label), masked like every element read. */
export interface InspectedElement {
  readonly role: string;
  readonly name: string;
  /** The states that hold, e.g. ["focused", "sensitive", "showing", "editable"]. */
  readonly states: readonly string[];
  readonly box: Region;
  /** 0 for a window, 1 for its children…: the page indents the tree by it. */
  readonly depth: number;
  /** Spec text that finds it (`click button "OK"`, `type "…" into entry "Name"`); absent when nothing names it alone. */
  readonly target?: string;
}

export interface Inspection {
  readonly version: typeof INSPECT_VERSION;
  readonly spec: string;
  /** The goal replayed before looking, when `--goal` was given. */
  readonly goal?: string;
  readonly window: { readonly title: string; readonly width: number; readonly height: number };
  readonly words: readonly InspectedWord[];
  readonly controls: readonly InspectedControl[];
  /** In tree order (a parent before its children); empty when the app publishes none. */
  readonly elements: readonly InspectedElement[];
  /** The accessibility source read, or null when there was none to read. */
  readonly elementsSource: string | null;
  /** Why `elements` is empty (no bus, the app publishes none, the read failed); null when it is not. */
  readonly elementsNote: string | null;
}

export interface InspectInput {
  readonly spec: string;
  readonly goal?: string;
  readonly title: string;
  readonly frame: Frame;
  readonly reader: TextReader;
  readonly elements: Snapshot;
}

/** The rules grammar's verb for an element by its role: what a person does to it. */
const TYPED_INTO: ReadonlySet<string> = new Set(['entry', 'textarea', 'spinbutton', 'terminal']);

/**
 * The spec text that finds `element`: a rules-grammar line when its role is a role word and its
 * name alone picks it (and holds no quote the grammar cannot spell), else a `steps:` target.
 */
export function elementTargetText(element: Element, elements: readonly Element[]): string | undefined {
  const target = targetOf(element, accessibleName(element), elements);
  if (target === undefined || target.name === undefined) return undefined;
  const { role, name, nth } = target;
  if (nth === undefined && ROLE_WORDS.has(role) && !name.includes('"')) {
    if (TYPED_INTO.has(role)) return `type "…" into ${role} "${name}"`;
    return `${role === 'checkbox' ? 'check' : 'click'} ${role} "${name}"`;
  }
  return `{ role: ${role}, name: ${JSON.stringify(name)}${nth === undefined ? '' : `, nth: ${nth}`} }`;
}

/** The app's elements as inspect lists them, or why there are none. */
function inspectElements(snap: Snapshot): Pick<Inspection, 'elements' | 'elementsSource' | 'elementsNote'> {
  if (!snap.ok) return { elements: [], elementsSource: null, elementsNote: snap.why };
  const elements = snap.elements.map((e) => {
    const target = elementTargetText(e, snap.elements);
    const states = Object.entries(e.states)
      .filter(([, on]) => on)
      .map(([state]) => state);
    return { role: e.role, name: accessibleName(e), states, box: e.box, depth: e.depth, ...(target !== undefined && { target }) };
  });
  return { elements, elementsSource: 'atspi', elementsNote: elements.length === 0 ? PUBLISHES_NOTHING : null };
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
    ...inspectElements(input.elements),
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
