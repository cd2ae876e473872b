#!/usr/bin/env node
// The installed package runs the JavaScript bundled into dist/ when it was packed. A checkout of
// the repository runs its TypeScript source through tsx's loader instead, so a dist/ left behind
// by an earlier `npm pack` is never run in place of the source.
import { existsSync, readFileSync } from 'node:fs';

if (process.argv[2] === '--version') {
  // Answered before any loader or module of the CLI: the version is all it takes.
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  const source = new URL('../src/cli/main.ts', import.meta.url);
  if (existsSync(source)) {
    // vitest is JavaScript: loaded before tsx's loader is registered, its hundreds of modules skip
    // the loader's hooks, which make loading them about three times slower (0.7-1.0 s against
    // 2.4-3.8 s on a loaded 2-core machine). Only a run needs it; the run's own import finds it loaded.
    const [{ register }] = await Promise.all([import('tsx/esm/api'), process.argv[2] === 'run' && import('vitest/node')]);
    register();
    await import(source.href);
  } else {
    await import('../dist/cli/main.js');
  }
}
