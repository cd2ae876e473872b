/**
 * `retrace init`: scaffolds a project — an example spec with its JSON Schema wired in for editor
 * completion, `paths/`, `fixtures/baselines/`, and a vitest config that runs specs. Existing
 * files are never overwritten.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ParsedArgs } from '../flags.ts';
import { writeFileAtomic } from '../../paths/atomic.ts';
import { renderSpecSchema } from '../../spec-file/schema.ts';

const EXAMPLE_SPEC = `# yaml-language-server: $schema=./spec.schema.json
# A retrace spec: goals in plain language, learned once, then replayed and verified.
name: Example
app:
  launch: xterm -title retrace-example -geometry 60x10
  window: retrace-example
goals:
  - id: greet
    steps:
      - type: "echo hello from retrace"
      - key: Return
    expect:
      - text: "hello from retrace"
`;

const VITEST_CONFIG = `import { defineConfig } from 'vitest/config';
import { retrace } from 'retrace/vitest';

// \`npx vitest\` runs every spec under specs/ as a test file: one test per goal.
export default defineConfig({
  plugins: [retrace()],
});
`;

export default async function init(_args: ParsedArgs): Promise<number> {
  const root = process.cwd();
  const files: [string, string][] = [
    ['specs/example.yaml', EXAMPLE_SPEC],
    ['specs/spec.schema.json', renderSpecSchema()],
    ['vitest.config.ts', VITEST_CONFIG],
    ['paths/.gitkeep', ''],
    ['fixtures/baselines/.gitkeep', ''],
  ];
  for (const [file, text] of files) {
    const full = join(root, file);
    if (existsSync(full)) {
      process.stdout.write(`  kept    ${file} (exists)\n`);
      continue;
    }
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileAtomic(full, text);
    process.stdout.write(`  created ${file}\n`);
  }
  process.stdout.write('Next: npx retrace run   (learns the example goal, then replays it on the next run)\n');
  return 0;
}
