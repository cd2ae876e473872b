/**
 * A run, end to end (issue 28): the fixture calculator's `add` goal (4 clicks, one `text:` and one
 * `screenshot:`), learned once, then replayed by the real CLI, one goal a run, as a user runs it:
 * the packed tarball installed into a fresh project (compiled JavaScript; vitest loads it from
 * node_modules as it is, where it transforms the TypeScript of a checkout first). Per run: the wall
 * clock from spawning the command to its exit, when the goal's first action began (its progress
 * line on stderr), and from summary.json the goal's time split (`phases`) and the run's start-up
 * split (`startup`). The targets: from the command to the first action at most the app's launch
 * + 1.0 s, and the run's overhead (wall − the goal's durationMs) at most 1.0 s.
 * BENCH_BASE_BIN adds another installation's (or checkout's) bin/retrace.mjs, interleaved (a
 * before/after comparison in one run); one without the split still gets its wall, first action and
 * overhead. BENCH_BIN replaces the installed package with a given bin (this checkout's: its source).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { GoalPhases, RunStartup } from '../src/domain.ts';
import { Project, REPO, runCommand } from '../test/support/project.ts';
import { PHASE_KEYS, STARTUP_KEYS } from '../src/report/summary.ts';
import { figure, guarded, progress, type Measurement, type Row, type Target } from './measure.ts';

const GROUP = 'Run: start-up and time split';
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2) * 2);
const RUN_TIMEOUT_MS = 300_000;
const SECOND: Target = { op: '<=', value: 1000, text: '≤ 1.0 s' };
/** The repository's own calculator spec (issue 28 measured its `add`), its app found from anywhere. */
const SPEC = readFileSync(join(REPO, 'specs', 'calculator.yaml'), 'utf8').replace(
  'launch: fixtures/apps/open calculator',
  'launch: ${env.FIXTURES}/open calculator',
);

const PHASES = PHASE_KEYS;
const STARTUP = STARTUP_KEYS;

const ROWS = {
  firstAction: { name: 'command → first action − app launch', unit: 'ms', target: SECOND },
  overhead: { name: 'run overhead (wall − goal durationMs), one goal', unit: 'ms', target: SECOND },
  wall: { name: 'wall, command to exit', unit: 'ms' },
  toFirst: { name: 'command → first action', unit: 'ms' },
  goal: { name: 'goal durationMs', unit: 'ms' },
  version: { name: 'retrace --version (node …/bin/retrace.mjs)', unit: 'ms' },
} satisfies Record<string, Row>;
const phaseRow = (key: string, of: string): Row => ({ name: `${of} ${key}`, unit: 'ms' });
export const RUN_ROWS: Row[] = [
  ...Object.values(ROWS),
  ...PHASES.map((p) => phaseRow(p, 'goal phase')),
  ...STARTUP.map((p) => phaseRow(p, 'run start-up')),
];

interface Sample {
  readonly wall: number;
  readonly toFirst: number;
  readonly goal: number;
  readonly phases?: GoalPhases;
  readonly startup?: RunStartup;
}

/** One replay run, timed from the spawn; its first action is its first "action 1" progress line. */
async function replayOnce(project: Project): Promise<Sample> {
  const from = performance.now();
  let toFirst = Number.NaN;
  const running = project.start(['run', '--goal', 'add', '--learn', 'off'], {}, RUN_TIMEOUT_MS, false);
  running.child.stderr?.on('data', () => {
    if (Number.isNaN(toFirst) && /: action 1\//.test(running.output.stderr)) toFirst = performance.now() - from;
  });
  const result = await running.result;
  const wall = performance.now() - from;
  const summary = project.summary();
  const goal = summary.goals[0];
  if (result.code !== 0 || !goal || goal.status !== 'passed')
    throw new Error(`replay exited ${result.code}: ${goal?.message ?? result.stderr.slice(-300)}`);
  return {
    wall,
    toFirst,
    goal: goal.durationMs,
    ...(goal.phases ? { phases: goal.phases } : {}),
    ...(summary.startup ? { startup: summary.startup } : {}),
  };
}

/**
 * This checkout packed (its prepack compiles src/) and installed into a fresh project, as
 * test/e2e/installed-package.test.ts does; the bin of the installation, and its folder to remove.
 */
async function installedBin(): Promise<{ bin: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-bench-installed-'));
  const sh = async (cwd: string, args: readonly string[]): Promise<void> => {
    const result = await runCommand('npm', args, { cwd, env: process.env, timeoutMs: RUN_TIMEOUT_MS });
    if (result.code !== 0) throw new Error(`npm ${args.join(' ')} exited ${result.code}: ${result.stderr.slice(-300)}`);
  };
  progress('packing this checkout and installing it into a fresh project…');
  await sh(REPO, ['pack', '--pack-destination', dir, '--loglevel=error']);
  const tarball = join(dir, readdirSync(dir).find((file) => file.endsWith('.tgz')) ?? 'no tarball was packed');
  const project = join(dir, 'project');
  mkdirSync(project);
  await sh(project, ['init', '-y', '--loglevel=error']);
  await sh(project, ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']);
  return { bin: join(project, 'node_modules', 'retrace', 'bin', 'retrace.mjs'), dir };
}

/** A project of its own per checkout, learned once. */
async function learnedProject(bin?: string): Promise<Project> {
  const project = new Project(bin);
  project.write('specs/calculator.yaml', SPEC);
  const learned = await project.cli(['run', '--goal', 'add', '--update-baselines', 'missing'], {}, RUN_TIMEOUT_MS);
  // Under CI=true a baseline written by the run fails it (exit 1); the replays then compare with it.
  if (learned.code !== 0 && !/written as the new baseline/.test(learned.stdout + learned.stderr))
    throw new Error(`learning exited ${learned.code}: ${learned.stderr.slice(-300)}`);
  return project;
}

/** The rows of one checkout's samples; `label` prefixes the rows of another checkout. */
function rowsOf(samples: readonly Sample[], versions: readonly number[], label = ''): Measurement[] {
  const split = samples.filter((s) => s.phases !== undefined);
  const of = (row: Row, values: readonly number[], note?: string): Measurement => {
    const named = label ? { name: `${label}: ${row.name}`, unit: row.unit } : row; // another checkout's figures are not judged
    return figure({
      group: GROUP,
      ...named,
      samples: values,
      ...(values.length === 0 ? { note: 'this checkout writes no time split' } : note ? { note } : {}),
    });
  };
  return [
    of(
      ROWS.firstAction,
      split.map((s) => s.toFirst - s.phases!.launchMs),
      "first action line on stderr, less the goal's launchMs",
    ),
    of(
      ROWS.overhead,
      samples.map((s) => s.wall - s.goal),
    ),
    of(
      ROWS.wall,
      samples.map((s) => s.wall),
    ),
    of(
      ROWS.toFirst,
      samples.map((s) => s.toFirst),
    ),
    of(
      ROWS.goal,
      samples.map((s) => s.goal),
    ),
    of(ROWS.version, versions),
    ...PHASES.map((p) =>
      of(
        phaseRow(p, 'goal phase'),
        split.map((s) => s.phases![p]),
      ),
    ),
    ...STARTUP.map((p) =>
      of(
        phaseRow(p, 'run start-up'),
        samples.flatMap((s) => (s.startup?.[p] !== undefined ? [s.startup[p]] : [])),
      ),
    ),
  ];
}

async function versionTimes(bin: string, cwd: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const from = performance.now();
    await runCommand(process.execPath, [bin, '--version'], { cwd, env: process.env, timeoutMs: 30_000 });
    times.push(performance.now() - from);
  }
  return times;
}

/**
 * This checkout's runs; with BENCH_BASE_BIN (another checkout's bin/retrace.mjs), that
 * checkout's runs too, interleaved round by round so the machine's load falls on both alike.
 */
export function benchStartup(): Promise<Measurement[]> {
  return guarded(GROUP, RUN_ROWS, async () => {
    const base = process.env.BENCH_BASE_BIN;
    const installed = process.env.BENCH_BIN ? undefined : await installedBin();
    const checkouts = [{ label: '', project: await learnedProject(process.env.BENCH_BIN ?? installed?.bin), samples: [] as Sample[] }];
    if (base) checkouts.push({ label: 'base', project: await learnedProject(base), samples: [] });
    try {
      for (let round = 0; round < ROUNDS; round++) {
        for (const checkout of checkouts) {
          const sample = await replayOnce(checkout.project);
          progress(
            `${checkout.label || 'this'} run ${round + 1}/${ROUNDS}: wall ${sample.wall.toFixed(0)} ms, first action at ${sample.toFirst.toFixed(0)} ms, goal ${sample.goal} ms`,
          );
          checkout.samples.push(sample);
        }
      }
      const out: Measurement[] = [];
      for (const { label, project, samples } of checkouts)
        out.push(...rowsOf(samples, await versionTimes(project.bin, project.root), label));
      return out;
    } finally {
      for (const { project } of checkouts) rmSync(project.root, { recursive: true, force: true });
      if (installed) rmSync(installed.dir, { recursive: true, force: true });
    }
  });
}
