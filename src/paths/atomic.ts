/**
 * Atomic file writes: write a sibling temp file completely, flush it, then rename it over the
 * target. A reader (or a process killed half-way) sees either the old file or the new one,
 * never a mix, and never a cut-off file: write(2) may write fewer bytes than asked (a full
 * disk writes what fits, then fails), so the bytes are written in a loop until all are down or
 * the file system refuses, and then the temp file is removed and nothing is renamed.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync, mkdirSync, statSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { ioFault } from '../errors.ts';

let counter = 0;

/**
 * `mkdir -p`, one level at a time. Node's recursive mkdir retries forever where a folder can
 * never be made (under /proc it keeps getting ENOENT), so a bad output location would hang.
 * @throws InfrastructureError('IO') naming the first level that cannot be made.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    try {
      if (statSync(at).isDirectory()) break;
      throw Object.assign(new Error(`not a folder: ${at}`), { code: 'ENOTDIR', path: at });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(at) === at) throw ioFault(error, at, 'create the folder');
      missing.push(at);
    }
  }
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level);
    } catch (error) {
      // Another process made it in the meantime.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw ioFault(error, level, 'create the folder');
    }
  }
}

const tempNameFor = (file: string): string => join(dirname(file), `.${basename(file)}.${process.pid}.${counter++}.tmp`);

function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) {
    const written = writeSync(fd, bytes, offset, bytes.length - offset);
    // A write that makes no progress would loop forever; the file system gave up.
    if (written <= 0) throw Object.assign(new Error('write made no progress'), { code: 'EIO' });
    offset += written;
  }
}

/** Makes the rename itself durable; some file systems cannot sync a folder, which is no fault. */
function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // EINVAL/EISDIR on file systems without folder sync: the rename is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes `data` to `file` completely or not at all.
 * @throws InfrastructureError('IO') naming `file` when the file system refuses (full disk,
 *   permissions, read-only); the previous content of `file`, if any, is left as it was.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const temp = tempNameFor(file);
  let fd: number | undefined;
  try {
    makeDirs(dirname(file));
    fd = openSync(temp, 'w');
    writeAll(fd, bytes);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, file);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw ioFault(error, file);
  }
  syncFolder(dirname(file));
}

/** True for the temp files `writeFileAtomic` leaves behind when its process is killed. */
export const isAtomicTempFile = (name: string): boolean => /^\..+\.\d+\.\d+\.tmp$/.test(name);
