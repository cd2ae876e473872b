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
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

/** True when `dir` is a real folder of this user's that no one else can write to. */
const privateDir = (dir: string): boolean => {
  const stat = lstatSync(dir);
  return stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0;
};

/** The nearest folder at or above `root` that holds a node_modules: the project's packages. */
const packagesRoot = (root: string): string => {
  for (let dir = root; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules'))) return dir;
    if (dirname(dir) === dir) return '';
  }
};

/**
 * The cache folder of the project at `root` (`$XDG_CACHE_HOME/retrace/vitest-modules/<key>`, else
 * under `~/.cache`), made private if new; undefined when it cannot be had safely, and the run
 * transforms as before. One folder per set of installed packages: vitest empties its cache folder
 * when the lockfile it finds differs from the last run's, which a run of another project would
 * otherwise do under a run reading it.
 */
export function moduleCacheDir(root: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const base = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  const modules = join(base, 'retrace', 'vitest-modules');
  const dir = join(modules, createHash('sha256').update(packagesRoot(root)).digest('hex').slice(0, 16));
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return [dir, modules, dirname(modules)].every(privateDir) ? dir : undefined;
  } catch {
    // No home, a read-only one: the run is only slower.
    return undefined;
  }
}
