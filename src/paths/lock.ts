/**
 * A cross-process lock file (`<target>.lock`, created with O_EXCL, holding the owner's pid).
 * A lock whose owner has died (kill -9, a crash) is recovered instead of blocking forever.
 */
import { openSync, closeSync, writeSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { InfrastructureError } from '../errors.ts';

export interface LockOptions {
  /** How long to wait for a live owner to release the lock. @default 30000 */
  readonly timeoutMs?: number;
}

interface Owner {
  readonly pid: number;
  readonly host: string;
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const readOwner = (lockFile: string): Owner | undefined => {
  try {
    const parsed: unknown = JSON.parse(readFileSync(lockFile, 'utf8'));
    if (parsed && typeof parsed === 'object' && 'pid' in parsed && 'host' in parsed) {
      const { pid, host } = parsed as { pid: unknown; host: unknown };
      if (typeof pid === 'number' && typeof host === 'string') return { pid, host };
    }
  } catch {
    // Unreadable or half-written: the owner died between create and write.
  }
  return undefined;
};

/** A lock is stale when its owner, on this host, is gone, or when it was never completed. */
const isStale = (lockFile: string): boolean => {
  const owner = readOwner(lockFile);
  if (!owner) return true;
  return owner.host === hostname() && !isAlive(owner.pid);
};

const tryAcquire = (lockFile: string): boolean => {
  try {
    const fd = openSync(lockFile, 'wx');
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname() }));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
};

/** Runs `fn` holding the lock of `target`. */
export async function withLock<T>(
  target: string,
  fn: () => Promise<T> | T,
  options: LockOptions = {},
): Promise<T> {
  const lockFile = `${target}.lock`;
  mkdirSync(dirname(lockFile), { recursive: true });
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let wait = 5;
  while (!tryAcquire(lockFile)) {
    if (isStale(lockFile)) {
      rmSync(lockFile, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new InfrastructureError(
        'IO',
        `Timed out waiting for ${lockFile} (held by a live process: ${JSON.stringify(readOwner(lockFile))})`,
      );
    }
    await delay(wait);
    wait = Math.min(wait * 2, 100);
  }
  try {
    return await fn();
  } finally {
    rmSync(lockFile, { force: true });
  }
}
