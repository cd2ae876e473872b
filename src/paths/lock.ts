/**
 * A cross-process lock file (`<target>.lock`, created with O_EXCL, holding the owner's pid, host
 * and a nonce that names this one acquisition). A lock whose owner has died (kill -9, a crash) is
 * recovered instead of blocking forever.
 *
 * Why recovery cannot simply delete a stale lock: two waiters may both find the same dead owner;
 * the first deletes the lock and takes a new one, and the second, acting on what it read before,
 * would delete that live lock. So a stale lock is reaped by exactly one waiter: the one that
 * creates `<target>.lock.reap-<nonce>` (O_EXCL) for the nonce it found. Holding that marker, it
 * deletes the lock only if it still holds the same nonce; no one else can remove that lock in
 * the meantime (its owner is dead, and there is one reaper per nonce), so a live lock is never
 * deleted. A lock file is briefly empty between its creation and the write of its owner: an
 * empty or unreadable lock counts as stale only once it is older than `UNREADABLE_STALE_MS`.
 */
import { openSync, closeSync, writeSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { InfrastructureError, ioFault } from '../errors.ts';
import { makeDirs } from './atomic.ts';

export interface LockOptions {
  /** How long to wait for a live owner to release the lock. @default 30000 */
  readonly timeoutMs?: number;
}

interface Owner {
  readonly pid: number;
  readonly host: string;
  readonly nonce: string;
}

/** What a waiter found in a lock file. */
interface Seen {
  /** Identifies this one lock: its nonce, or for an unreadable file its inode, time and size. */
  readonly id: string;
  readonly owner?: Owner;
  readonly ageMs: number;
}

/** An unreadable lock older than this was left by a process that died between create and write. */
export const UNREADABLE_STALE_MS = 5_000;

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const parseOwner = (text: string): Owner | undefined => {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') {
      const { pid, host, nonce } = parsed as Record<string, unknown>;
      if (typeof pid === 'number' && typeof host === 'string') {
        return { pid, host, nonce: typeof nonce === 'string' ? nonce : `pid-${pid}` };
      }
    }
  } catch {
    // Empty or half-written: judged by its age.
  }
  return undefined;
};

/** The lock as it is now; undefined when there is none. */
function inspect(lockFile: string): Seen | undefined {
  try {
    const stat = statSync(lockFile);
    const owner = parseOwner(readFileSync(lockFile, 'utf8'));
    return {
      id: owner?.nonce ?? `unreadable-${stat.ino}-${stat.mtimeMs}-${stat.size}`,
      ...(owner && { owner }),
      ageMs: Date.now() - stat.mtimeMs,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw ioFault(error, lockFile, 'read');
  }
}

/** Stale: its owner, on this host, is gone; or it never got an owner and is old enough to know. */
const isStale = (seen: Seen): boolean =>
  seen.owner ? seen.owner.host === hostname() && !isAlive(seen.owner.pid) : seen.ageMs > UNREADABLE_STALE_MS;

/** Creates `file` with O_EXCL holding `content`; false when it exists. */
function createExclusive(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw ioFault(error, file, 'create');
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

const ownerText = (nonce: string): string => JSON.stringify({ pid: process.pid, host: hostname(), nonce });

/**
 * Removes the stale lock `seen` unless it is no longer that lock. Returns false when another
 * waiter is reaping it (then this one waits its turn).
 */
function reap(lockFile: string, seen: Seen): boolean {
  const marker = `${lockFile}.reap-${seen.id}`;
  if (!createExclusive(marker, ownerText(randomUUID()))) {
    // Another waiter reaps it. Only if that reaper died in the few instructions between its
    // marker and its delete is the marker itself stale; then it goes, and the next round reaps.
    const reaper = inspect(marker);
    if (reaper && isStale(reaper)) rmSync(marker, { force: true });
    return false;
  }
  try {
    if (inspect(lockFile)?.id === seen.id) rmSync(lockFile, { force: true });
  } finally {
    rmSync(marker, { force: true });
  }
  return true;
}

/** Runs `fn` holding the lock of `target`. */
export async function withLock<T>(target: string, fn: () => Promise<T> | T, options: LockOptions = {}): Promise<T> {
  const lockFile = `${target}.lock`;
  makeDirs(dirname(lockFile));
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const nonce = randomUUID();
  let wait = 5;
  while (!createExclusive(lockFile, ownerText(nonce))) {
    const seen = inspect(lockFile);
    // Released since, or stale and reaped: try again at once.
    if (seen === undefined || (isStale(seen) && reap(lockFile, seen))) continue;
    if (Date.now() > deadline) {
      throw new InfrastructureError(
        'IO',
        `Timed out waiting for ${lockFile} (held by a live process, ${seen.owner ? `pid ${seen.owner.pid} on ${seen.owner.host}` : 'not written yet'})`,
      );
    }
    await delay(wait);
    wait = Math.min(wait * 2, 100);
  }
  try {
    return await fn();
  } finally {
    // Only our own lock: had it been taken from us, deleting would free someone else's.
    if (inspect(lockFile)?.id === nonce) rmSync(lockFile, { force: true });
  }
}
