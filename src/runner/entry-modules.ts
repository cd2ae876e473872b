/**
 * The modules loaded by file name, not by import: vitest's (the suite a spec file's module calls,
 * and the worker's set-up) and node's (the entry of a worker forked ahead, warm-entry.mjs,
 * JavaScript in both, copied as it is into the package). `.ts` in the repository, which runs from source, and `.js` in the installed
 * package, which is bundled (the bundler rewrites imports, not these strings). This code sits two
 * folders below the package's root either way (src/runner/, dist/runner/ or a shared chunk in
 * dist/chunks/), and both are entry points of the bundle in dist/runner/.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

const runnerModule = (name: string): string => fileURLToPath(new URL(`../runner/${name}${extname(import.meta.url)}`, import.meta.url));

export const SUITE_MODULE = runnerModule('suite');
export const WORKER_SETUP = runnerModule('worker-setup');
export const WARM_ENTRY = fileURLToPath(new URL('../runner/warm-entry.mjs', import.meta.url));
