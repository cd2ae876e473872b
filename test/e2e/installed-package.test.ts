/**
 * retrace as a user meets it: the packed tarball installed into fresh projects outside the
 * repository, one CommonJS (npm's default) and one ESM. There the compiled package must start
 * without a TypeScript loader, `retrace init` must write an example that passes when learned and
 * when replayed, and `npx vitest` must load `retrace/vitest` from the config init wrote.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { REPO, runCommand, type CliResult } from '../support/project.ts';
import type { Summary } from '../../src/report/summary.ts';

const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
const work = mkdtempSync(join(tmpdir(), 'retrace-installed-'));

/**
 * The environment of a user's shell: none of this test runner's own variables (vitest's, npm's
 * lifecycle ones), no display (retrace starts its own Xvfb) and no API key (the example is
 * learned offline by the rules planner).
 */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1' };
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(VITEST|npm_|NODE_OPTIONS$|NODE_ENV$|DISPLAY$|ANTHROPIC_|RETRACE_|TEST$|FORCE_COLOR$)/.test(key)) env[key] = value;
  }
  return env;
}

const sh = async (cwd: string, file: string, args: readonly string[], timeoutMs = 240_000): Promise<CliResult> => {
  const result = await runCommand(file, args, { cwd, env: userEnv(), timeoutMs });
  expect(result.code, `${file} ${args.join(' ')}\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result;
};

/** A fresh `npm init -y` project with the tarball installed, as a user does it. */
async function createProject(name: string, tarball: string, esm: boolean): Promise<string> {
  const root = join(work, name);
  mkdirSync(root);
  await sh(root, 'npm', ['init', '-y', '--loglevel=error']);
  if (esm) await sh(root, 'npm', ['pkg', 'set', 'type=module']);
  await sh(root, 'npm', ['install', tarball, ...NPM_FLAGS], 300_000);
  return root;
}

/** Every file under dir, relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));

const PROJECTS = [
  { kind: 'CommonJS', esm: false, config: 'vitest.config.mts' },
  { kind: 'ESM', esm: true, config: 'vitest.config.ts' },
] as const;
const roots = new Map<string, string>();

// One pack (its prepack bundles src/ into dist/) for both projects, installed side by side.
beforeAll(async () => {
  await sh(REPO, 'npm', ['pack', '--pack-destination', work, '--loglevel=error'], 300_000);
  const tarball = join(work, readdirSync(work).find((file) => file.endsWith('.tgz')) ?? 'no tarball was packed');
  await Promise.all(PROJECTS.map(async ({ kind, esm }) => roots.set(kind, await createProject(kind, tarball, esm))));
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.each(PROJECTS)('installed into a fresh $kind project', ({ kind, config }) => {
  let root = '';
  const summary = (): Summary => JSON.parse(readFileSync(join(root, 'reports/summary.json'), 'utf8')) as Summary;
  const retrace = (...args: string[]): Promise<CliResult> => sh(root, 'npx', ['--no', 'retrace', ...args]);

  beforeAll(() => {
    root = roots.get(kind) ?? '';
  });

  test('the package is compiled JavaScript: no TypeScript source and no TypeScript loader', () => {
    const installed = join(root, 'node_modules/retrace');
    const files = filesUnder(installed);
    expect(files).toContain('dist/runner/plugin.js');
    expect(files).toContain('dist/runner/plugin.d.ts');
    // Bundled (scripts/bundle.mjs): the modules loaded by path, and the chunks they share.
    expect(files.filter((file) => file.endsWith('.js') && !file.startsWith('dist/chunks/')).sort()).toEqual([
      'dist/cli/main.js',
      'dist/runner/plugin.js',
      'dist/runner/suite.js',
      'dist/runner/worker-setup.js',
    ]);
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((file) => /^(src|test|bench|fixtures|scripts|specs)\//.test(file))).toEqual([]);
    expect(existsSync(join(root, 'node_modules/tsx'))).toBe(false);
  });

  test('vitest is a peer dependency: the project has one copy, retrace brings none (issue 18.6)', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'node_modules/retrace/package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    expect(pkg.peerDependencies).toEqual({ vitest: expect.stringMatching(/^\^4\./) });
    expect(Object.keys(pkg.dependencies ?? {}).filter((name) => /vitest/.test(name))).toEqual([]);
    expect(existsSync(join(root, 'node_modules/vitest/package.json'))).toBe(true);
    expect(existsSync(join(root, 'node_modules/retrace/node_modules/vitest'))).toBe(false);
  });

  test('retrace init writes the example and a vitest config for the project type', async () => {
    const result = await retrace('init');
    expect(result.stdout).toContain(`created ${config}`);
    expect(readFileSync(join(root, config), 'utf8')).toContain("from 'retrace/vitest'");
  });

  test('the first run learns the example offline and passes', async () => {
    await retrace('run');
    expect(summary().goals).toMatchObject([
      { spec: 'specs/example.yaml', goal: 'greet', status: 'passed', mode: 'learned', modelCalls: 0 },
    ]);
  }, 240_000);

  test('the second run replays it with zero model calls, every action verified', async () => {
    await retrace('run');
    const { totals, goals } = summary();
    expect(totals).toMatchObject({ passed: 1, failed: 0, broken: 0, modelCalls: 0 });
    expect(goals).toMatchObject([{ goal: 'greet', status: 'passed', mode: 'replayed', modelCalls: 0 }]);
    for (const action of goals[0]!.actions)
      expect(action).toMatchObject({ verified: true, resolvedBy: expect.stringMatching(/^(element|recorded)$/) });
  }, 240_000);

  test('the goal runs in a worker forked before vitest loaded, its engine already loaded', async () => {
    // The app's set-up command is a child of the worker: it writes down the worker's command line.
    const example = readFileSync(join(root, 'specs/example.yaml'), 'utf8');
    const setup = `app:\n  setup: tr '\\0' ' ' < /proc/$PPID/cmdline > ${join(root, 'worker.txt')}\n`;
    mkdirSync(join(root, 'specs-warm'), { recursive: true });
    writeFileSync(join(root, 'specs-warm/example.yaml'), example.replace('app:\n', setup));
    await retrace('run', 'specs-warm');
    const worker = readFileSync(join(root, 'worker.txt'), 'utf8');
    // A worker forked ahead (warm-workers.ts), not one of vitest's own forks: its entry is
    // retrace's, vitest's comes after it, and so does the suite it loaded first.
    expect(worker).toMatch(
      /\/node_modules\/retrace\/dist\/runner\/warm-entry\.mjs \S*\/node_modules\/vitest\/dist\/workers\/forks\.js file:\/\/\S*\/node_modules\/retrace\/dist\/runner\/suite\.js/,
    );
  }, 240_000);

  test('npx vitest run runs the goal as one passing test', async () => {
    const result = await sh(root, 'npx', ['--no', 'vitest', 'run']);
    expect(result.stdout).toMatch(/Test Files\s+1 passed \(1\)/);
    expect(result.stdout).toMatch(/Tests\s+1 passed \(1\)/);
    expect(summary().goals).toMatchObject([{ goal: 'greet', status: 'passed', mode: 'replayed', modelCalls: 0 }]);
  }, 240_000);
});
