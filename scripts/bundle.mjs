// The JavaScript of the package: src/ bundled into a few files that vitest and node load as they
// are. tsc emits only the type declarations beside them. One file per module (tsc's output, some
// 240 of them) made the CLI and every worker spend a good part of their start-up resolving,
// reading and linking modules (a worker's import of the suite: 240 ms of CPU against 165 bundled).
//
// The entry points are what is loaded by path: the bin's CLI, `retrace/vitest`, and the two
// modules the plugin hands vitest by file name (the spec suite and the worker's set-up). Code
// shared by them goes to dist/chunks/, two folders below the root like every entry, which the
// modules that find files relative to themselves rely on (runner/entry-modules.ts, report/allure-writer.ts).
import { copyFileSync } from 'node:fs';
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli/main.ts', 'src/runner/plugin.ts', 'src/runner/suite.ts', 'src/runner/worker-setup.ts'],
  outbase: 'src',
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Dependencies stay the project's own, installed beside retrace (vitest is a peer).
  packages: 'external',
  logLevel: 'warning',
});

// A warm worker's entry is forked by file name, before anything is loaded: JavaScript already.
copyFileSync('src/runner/warm-entry.mjs', 'dist/runner/warm-entry.mjs');
