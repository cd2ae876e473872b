/**
 * The desktop of one worker process. Each worker gets its own display when the run asks for
 * it (parallel workers, or no `$DISPLAY`), so GUI sessions never fight over one mouse. The
 * desktop must be opened before anything touches X (see openDesktop).
 */
import { join } from 'node:path';
import type { Desktop } from '../desktop/types.ts';
import { writeFileAtomic } from '../paths/atomic.ts';
import type { TextReader } from '../vision/types.ts';
import type { RunContext } from './context.ts';
import { noteDisplayOpening } from './goal-clock.ts';
import { createProgress } from './progress.ts';
import { takeOver } from './display-handoff.ts';

interface WorkerDesktop {
  readonly desktop: Desktop;
  readonly reader: TextReader;
  /**
   * Starts the OCR workers in the background (about a second of loading), so a goal that will
   * read text has it ready by the time its app is. A failed start is left for the read to report.
   */
  readonly warmReader: () => void;
}

const KEY = Symbol.for('retrace.worker-desktop');

/** Longer than an Xvfb and its services take to start on a loaded machine (xvfb.ts allows 10 s each). */
const HANDOVER_TIMEOUT_MS = 60_000;
type Holder = { [KEY]?: Promise<WorkerDesktop> };

/**
 * Where each worker notes its display, so the main process can name the X server when a
 * worker dies with it (Xlib ends a process whose server vanished mid-request).
 */
export const workersDir = (reportsDir: string): string => join(reportsDir, '.workers');

/**
 * The worker's desktop, created once per process and kept across test files. A desktop that
 * failed to open is not kept: the next goal tries again instead of inheriting the failure.
 */
export function workerDesktop(context: RunContext): Promise<WorkerDesktop> {
  const holder = globalThis as Holder;
  if (holder[KEY] === undefined) {
    const opening = (async () => {
      const from = Date.now();
      const { openDesktop, describeProviders } = await import('../desktop/index.ts');
      const { reports } = context.options;
      // vitest numbers its workers 1..maxWorkers, one process per number at a time.
      const handover = context.displays?.[Number(process.env.VITEST_POOL_ID ?? 1) - 1];
      // A display the run could not open is the worker's to try again, like every later goal
      // does after a failed opening: its own attempt says why when it fails too.
      const given = handover !== undefined ? await takeOver(handover, HANDOVER_TIMEOUT_MS).catch(() => undefined) : undefined;
      // Each display has its own cookie: the one this process inherited may be another's.
      const desktop = await openDesktop({
        own: context.ownDisplays,
        size: context.options.display.size,
        fonts: context.options.display.fonts,
        ...(given !== undefined ? { display: given } : {}),
      });
      // Which backends capture, act and read elements, and why: the first thing to look at when input goes astray.
      if (desktop.providers !== undefined) {
        createProgress(context.verbosity, context.tty, (text) => text).detail(
          `${desktop.display.name}: ${describeProviders(desktop.providers)}`,
        );
      }
      try {
        writeFileAtomic(join(workersDir(reports), `${process.pid}.json`), JSON.stringify({ display: desktop.display.name }));
        const { sharedTextReader } = await import('../vision/ocr/tesseract-reader.ts');
        noteDisplayOpening(from, Date.now());
        const reader = sharedTextReader();
        return { desktop, reader, warmReader: () => void reader.warmUp().catch(() => undefined) };
      } catch (error) {
        // The next goal opens another: this one must not outlive the failure.
        await desktop.display.stop();
        throw error;
      }
    })();
    holder[KEY] = opening;
    opening.catch(() => {
      if (holder[KEY] === opening) delete holder[KEY];
    });
  }
  return holder[KEY];
}
