/**
 * The run's main process opens the workers' displays while it loads the engine, and a worker
 * takes its display over when it needs it: Xvfb and its services start in parallel with
 * everything before the first goal instead of after it. The handover is a file per worker in
 * a private folder of the run, written once the display answers, or with why it never will.
 */
import { mkdtempSync, readFileSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Display, HandedDisplay } from '../desktop/types.ts';
import { InfrastructureError, type InfrastructureCode } from '../errors.ts';
import { writeFileAtomic } from '../paths/atomic.ts';

type Handover = { readonly display: HandedDisplay } | { readonly fault: { readonly code: InfrastructureCode; readonly message: string } };

/** A private folder for the handover files of one run, removed by `remove`. */
export function handoverFolder(): { readonly dir: string; readonly file: (worker: number) => string; readonly remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-displays-'));
  return {
    dir,
    file: (worker) => join(dir, `worker-${worker}.json`),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Writes the display's handover to `file` once it opened, or the fault that kept it from opening. */
export async function handOverWhenOpen(
  file: string,
  opening: Promise<Display>,
  describe: (display: Display) => HandedDisplay,
): Promise<void> {
  let handover: Handover;
  try {
    handover = { display: describe(await opening) };
  } catch (error) {
    const code = error instanceof InfrastructureError ? error.code : 'NO_DISPLAY';
    handover = { fault: { code, message: error instanceof Error ? error.message : String(error) } };
  }
  writeFileAtomic(file, JSON.stringify(handover));
}

/**
 * The display handed over in `file`, waiting for it to be written; a fault the main process met
 * opening it is this worker's too.
 */
export async function takeOver(file: string, timeoutMs: number): Promise<HandedDisplay> {
  const dir = join(file, '..');
  const handover = await new Promise<Handover>((resolve, reject) => {
    const read = (): void => {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        return; // not written yet
      }
      done();
      const parsed = parseHandover(text);
      if (parsed) resolve(parsed);
      else reject(new InfrastructureError('NO_DISPLAY', `the run's display handover ${file} is not one retrace wrote`));
    };
    // Watched before the first look: a file written between the two is not missed.
    const watcher = watch(dir, read);
    const timer = setTimeout(() => {
      done();
      reject(new InfrastructureError('NO_DISPLAY', `the run's main process did not hand over a display within ${timeoutMs} ms`));
    }, timeoutMs);
    const done = (): void => {
      watcher.close();
      clearTimeout(timer);
    };
    watcher.on('error', (error) => {
      done();
      reject(new InfrastructureError('NO_DISPLAY', `the run's display handover could not be watched: ${error.message}`));
    });
    read();
  });
  if ('fault' in handover) throw new InfrastructureError(handover.fault.code, handover.fault.message);
  return handover.display;
}

function parseHandover(text: string): Handover | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { display, fault } = value as { display?: Partial<HandedDisplay>; fault?: { code?: unknown; message?: unknown } };
  if (typeof display?.name === 'string' && typeof display.env === 'object' && display.env !== null)
    return { display: display as HandedDisplay };
  if (typeof fault?.code === 'string' && typeof fault.message === 'string')
    return { fault: fault as { code: InfrastructureCode; message: string } };
  return undefined;
}
