import { defineConfig } from 'vitest/config';
import { retrace } from './src/runner/plugin.ts';

// The bundled specs as vitest test files: one test per goal, each worker on its own display.
//   npx vitest run --config vitest.specs.config.ts [--shard=1/2]
export default defineConfig({
  plugins: [retrace()],
  test: { testTimeout: 180_000 },
});
