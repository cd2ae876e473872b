/**
 * The desktop of one worker process. Each worker gets its own display when the run asks for
 * it (parallel workers, or no `$DISPLAY`), so GUI sessions never fight over one mouse. The
 * desktop must be opened before anything touches X (see openDesktop).
 */
import { join } from 'node:path';
import type { Desktop } from '../desktop/types.ts';
import { writeFileAtomic } from '../paths/atomic.ts';
import type { TextReader } from '../vision/types.ts';

interface WorkerDesktop {
  readonly desktop: Desktop;
  readonly reader: TextReader;
}

const KEY = Symbol.for('retrace.worker-desktop');
type Holder = { [KEY]?: Promise<WorkerDesktop> };

/**
 * Where each worker notes its display, so the main process can name the X server when a
 * worker dies with it (Xlib ends a process whose server vanished mid-request).
 */
export const workersDir = (reportsDir: string): string => join(reportsDir, '.workers');

/** The worker's desktop, created once per process and kept across test files. */
export function workerDesktop(own: boolean, size: readonly [number, number], reportsDir: string): Promise<WorkerDesktop> {
  const holder = globalThis as Holder;
  holder[KEY] ??= (async () => {
    const { openDesktop } = await import('../desktop/index.ts');
    const desktop = await openDesktop({ own, size });
    writeFileAtomic(join(workersDir(reportsDir), `${process.pid}.json`), JSON.stringify({ display: desktop.display.name }));
    const { sharedTextReader } = await import('../vision/ocr/tesseract-reader.ts');
    return { desktop, reader: sharedTextReader() };
  })();
  return holder[KEY];
}
