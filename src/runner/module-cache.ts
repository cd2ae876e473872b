/**
 * Where vitest keeps the modules it transformed for a run's workers, between runs (its
 * `experimental.fsModuleCache`). Run from source, a worker otherwise transforms retrace's
 * TypeScript, some 170 modules, before its first goal on every run: on a loaded 2-core machine
 * that took 3.6–4.4 s of the worker's start, against 1.4–2.2 s read from the cache. The installed
 * package is JavaScript that vitest imports natively, so there it has little to cache.
 *
 * The cache holds code the workers run: it is the user's own, in their cache folder, and a folder
 * another user could write to (or that is not a folder of this user's) is not used at all.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

/** True when `dir` is a real folder of this user's that no one else can write to. */
const privateDir = (dir: string): boolean => {
  const stat = lstatSync(dir);
  return stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0;
};

/**
 * The cache folder (`$XDG_CACHE_HOME/retrace/vitest-modules`, else under `~/.cache`), made
 * private if new; undefined when it cannot be had safely, and the run transforms as before.
 */
export function moduleCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const base = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  const dir = join(base, 'retrace', 'vitest-modules');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return privateDir(dir) && privateDir(dirname(dir)) ? dir : undefined;
  } catch {
    // No home, a read-only one: the run is only slower.
    return undefined;
  }
}
