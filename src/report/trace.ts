/**
 * A goal's trace: everything a person needs to diagnose the goal without running it again — the
 * full window before and after each action, what each rung of the ladder scored and where, the
 * effects expected and found, changes nobody recorded, each expectation with the frame it was
 * judged on, the timings and the console lines. A folder under `<reports>/traces/<spec>/<goal>/`:
 * `trace.json`, its PNGs and `index.html` (the same page `retrace trace show` serves). A folder,
 * not a zip: it needs no archive library, and the page opens from disk as it is.
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ActionDetail, ActionReport, Region, Verdict } from '../domain.ts';
import { InvalidInputError } from '../errors.ts';
import { writeFileAtomic } from '../paths/atomic.ts';
import { specDirName } from '../paths/location.ts';
import type { TraceMode } from '../spec-file/defaults.ts';
import { tracePage } from './trace-page.ts';

export const TRACE_FILE = 'trace.json';
export const TRACE_PAGE = 'index.html';
const TRACE_VERSION = 1;

/** An image of the trace folder: a file name (no folders) and its size in pixels. */
export interface TraceImage {
  readonly file: string;
  readonly width: number;
  readonly height: number;
}

/** The window before a replayed action with the boxes the ladder looked at. */
export interface TraceAction {
  readonly index: number;
  readonly description: string;
  /** The report as summary.json has it (timings, rung, verified), when the action reported. */
  readonly report?: ActionReport;
  readonly before?: TraceImage;
  readonly after?: TraceImage;
  /** Where the target was recorded, and the best place a rung found when none was accepted. */
  readonly recorded?: Region;
  readonly candidate?: Region;
  /** Rungs, effects and element effects (replay only). */
  readonly detail?: ActionDetail;
  /** The failure of this action, when the goal failed here. */
  readonly failure?: string;
}

export interface TraceExpectation {
  readonly description: string;
  readonly passed: boolean;
  readonly message: string;
  /** The window a text or absent check was judged on, with where it read and the words it read. */
  readonly frame?: TraceImage;
  readonly region?: Region;
  readonly words?: readonly Region[];
  /** A failed screenshot: the expected, actual and diff images. */
  readonly diff?: { readonly expected: TraceImage; readonly actual: TraceImage; readonly diff: TraceImage };
}

export interface Trace {
  readonly version: number;
  readonly spec: string;
  readonly goal: string;
  readonly status: Verdict['status'];
  readonly mode: Verdict['mode'];
  readonly durationMs: number;
  readonly message?: string;
  readonly category?: Verdict['category'];
  readonly failedAction?: number;
  readonly actions: readonly TraceAction[];
  readonly expectations: readonly TraceExpectation[];
  /** What the run printed about the goal, secrets masked. */
  readonly console: readonly string[];
}

/** Whether a goal that ended with `status` keeps its trace under `mode`. */
export const keepsTrace = (mode: TraceMode, status: Verdict['status']): boolean =>
  mode === 'on' || (mode === 'retain-on-failure' && status !== 'passed' && status !== 'skipped');

export const tracePageFile = (dir: string): string => join(dir, TRACE_PAGE);

/** Every trace of a run; cleared when a run starts, as its Allure results are. */
export const tracesDir = (reportsDir: string): string => join(reportsDir, 'traces');

export const traceDir = (reportsDir: string, spec: string, goal: string): string => join(tracesDir(reportsDir), specDirName(spec), goal);

/**
 * Writes a trace folder: the images, then `trace.json` and the page. An older trace of the goal
 * is removed first, so no image of another run is left beside this one.
 */
export function writeTrace(dir: string, trace: Omit<Trace, 'version'>, images: ReadonlyMap<string, Uint8Array>): void {
  rmSync(dir, { recursive: true, force: true });
  for (const [name, png] of images) writeFileAtomic(join(dir, name), png);
  const full: Trace = { version: TRACE_VERSION, ...trace };
  writeFileAtomic(join(dir, TRACE_FILE), `${JSON.stringify(full, null, 1)}\n`);
  writeFileAtomic(join(dir, TRACE_PAGE), tracePage(full));
}

/** Reads a trace given its folder or its `trace.json`. A missing or malformed one is invalid input. */
export function readTrace(path: string): { readonly dir: string; readonly trace: Trace } {
  const dir = statSync(path, { throwIfNoEntry: false })?.isDirectory() ? path : join(path, '..');
  const file = join(dir, TRACE_FILE);
  if (!existsSync(file))
    throw new InvalidInputError(
      { file: path },
      `no trace here: expected a trace folder (reports/traces/<spec>/<goal>/) or its ${TRACE_FILE}`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InvalidInputError({ file }, `not JSON: ${(error as Error).message}`);
  }
  const t = parsed as Partial<Trace> | null;
  if (
    !t ||
    typeof t !== 'object' ||
    t.version !== TRACE_VERSION ||
    typeof t.spec !== 'string' ||
    typeof t.goal !== 'string' ||
    !Array.isArray(t.actions) ||
    !Array.isArray(t.expectations) ||
    !Array.isArray(t.console)
  ) {
    throw new InvalidInputError(
      { file },
      `not a retrace trace of version ${TRACE_VERSION} (expected version, spec, goal, actions, expectations and console)`,
    );
  }
  return { dir, trace: t as Trace };
}

/** The image files a trace names: the only files its page may load. */
export function traceImages(trace: Trace): Set<string> {
  const names = new Set<string>();
  const add = (image: TraceImage | undefined): void => {
    if (image && /^[a-z0-9-]+\.png$/.test(image.file)) names.add(image.file);
  };
  for (const a of trace.actions) {
    add(a.before);
    add(a.after);
  }
  for (const e of trace.expectations) {
    add(e.frame);
    add(e.diff?.expected);
    add(e.diff?.actual);
    add(e.diff?.diff);
  }
  return names;
}
