/**
 * The desktop of one worker process. Each worker gets its own display when the run asks for
 * it (parallel workers, or no `$DISPLAY`), so GUI sessions never fight over one mouse. The
 * display must be chosen before anything touches X: the capture library binds to
 * `$DISPLAY` on first use, once per process.
 */
import type { Desktop } from '../desktop/types.ts';
import type { TextReader } from '../vision/types.ts';

interface WorkerDesktop {
  readonly desktop: Desktop;
  readonly reader: TextReader;
}

const KEY = Symbol.for('retrace.worker-desktop');
type Holder = { [KEY]?: Promise<WorkerDesktop> };

/** The worker's desktop, created once per process and kept across test files. */
export function workerDesktop(own: boolean, size: readonly [number, number]): Promise<WorkerDesktop> {
  const holder = globalThis as Holder;
  holder[KEY] ??= (async () => {
    const { acquireDisplay } = await import('../desktop/display.ts');
    const display = await acquireDisplay({ reuseEnv: !own, size });
    process.env.DISPLAY = display.name;
    const { createDesktop } = await import('../desktop/index.ts');
    const { sharedTextReader } = await import('../vision/ocr/tesseract-reader.ts');
    return { desktop: createDesktop(display), reader: sharedTextReader() };
  })();
  return holder[KEY];
}
