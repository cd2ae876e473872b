/**
 * `retrace init`: scaffolds a project — an example spec with its JSON Schema wired in for editor
 * completion, `paths/`, `fixtures/baselines/`, and a vitest config that runs specs. Existing
 * files are never overwritten.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ParsedArgs } from '../flags.ts';
import { writeFileAtomic } from '../../paths/atomic.ts';
import { renderSpecSchema } from '../../spec-file/schema.ts';

// The example must pass on its first run (learned) and on every replay, on any machine. Beyond
// what its own comments say: the user's shell would also race its prompt against the first
// keystrokes; the final `read` keeps the program, and so the screen, still until retrace closes
// it; and the expected text is the program's answer, not what was typed, so it proves that the
// input was handled.
const EXAMPLE_SPEC = `# yaml-language-server: $schema=./spec.schema.json
# A retrace spec: goals in plain language, learned once, then replayed and verified.
name: Example
app:
  # Debian's xterm, running a two-line program instead of your shell so the screen does not
  # depend on your prompt, in a 14-point TrueType font (-fa/-fs): OCR misreads xterm's default
  # 6x13 bitmap font.
  launch: >-
    xterm -title retrace-example -geometry 40x6 -fa Monospace -fs 14 -e sh -c
    'printf "What is your name? "; read name; echo "hello from $name"; read done'
  window: retrace-example
goals:
  - id: greet
    # The rules grammar: learned offline by OCR, no API key needed.
    goal: wait for "your name", type "retrace", press Enter
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

/** The names vitest looks for its config under, in its order. */
const VITEST_CONFIG_NAMES = ['vitest', 'vite'].flatMap((base) =>
  ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'].map((ext) => `${base}.config.${ext}`),
);

/**
 * `vitest.config.ts` in an ESM project. In a CommonJS one (npm's default) `.mts`, the extension
 * that makes the file ESM whatever the package type, so vite needs no CommonJS conversion.
 */
function vitestConfigName(root: string): string {
  try {
    const pkg: unknown = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    if ((pkg as { type?: unknown } | null)?.type === 'module') return 'vitest.config.ts';
  } catch {
    // No package.json, or one that is not JSON: nothing says ESM.
  }
  return 'vitest.config.mts';
}

export default async function init(_args: ParsedArgs): Promise<number> {
  const root = process.cwd();
  const files: [string, string][] = [
    ['specs/example.yaml', EXAMPLE_SPEC],
    ['specs/spec.schema.json', renderSpecSchema()],
    ['paths/.gitkeep', ''],
    ['fixtures/baselines/.gitkeep', ''],
  ];
  const ownConfig = VITEST_CONFIG_NAMES.find((name) => existsSync(join(root, name)));
  if (!ownConfig) files.splice(2, 0, [vitestConfigName(root), VITEST_CONFIG]);
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
  if (ownConfig) {
    process.stdout.write(`  kept    ${ownConfig} (exists): add retrace() from 'retrace/vitest' to its plugins for npx vitest\n`);
  }
  process.stdout.write('Next: npx retrace run   (learns the example goal, then replays it on the next run)\n');
  return 0;
}
