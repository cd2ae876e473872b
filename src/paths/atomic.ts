/**
 * Atomic file writes: write a sibling temp file, flush it, then rename it over the target.
 * A reader (or a process killed half-way) sees either the old file or the new one, never a mix.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync, mkdirSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';

let counter = 0;

const tempNameFor = (file: string): string =>
  join(dirname(file), `.${basename(file)}.${process.pid}.${counter++}.tmp`);

export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = tempNameFor(file);
  const fd = openSync(temp, 'w');
  try {
    if (typeof data === 'string') writeSync(fd, data);
    else writeSync(fd, data);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** True for the temp files `writeFileAtomic` leaves behind when its process is killed. */
export const isAtomicTempFile = (name: string): boolean => /^\..+\.\d+\.\d+\.tmp$/.test(name);
