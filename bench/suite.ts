/**
 * Replay vs learn, and scale: the real CLI (`node bin/retrace.mjs run`) on the demo suite, in a
 * throw-away project whose specs launch `${env.FIXTURES}/open …` (as the e2e tests do). The
 * demo specs are copied twice (specs/a, specs/b: 6 files, 8 goals) so up to 4 workers have
 * files to share. Each round: learn every goal (`--learn force`, rules planner), then replay it
 * (`--learn off`) with 1, 2 and 4 workers — interleaved, so noise falls on all alike. Every run
 * starts its own virtual displays (no `$DISPLAY`).
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Verdict as GoalVerdict } from '../src/domain.ts';
import { Project } from '../test/support/project.ts';
import { REPO } from './desktop.ts';
import { figure, guarded, progress, quantile, TARGETS, timed, type Measurement, type Row } from './measure.ts';

const LEARN = 'Replay vs learn';
const SCALE = 'Scale';
const WORKERS = [1, 2, 4] as const;
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const RUN_TIMEOUT_MS = 400_000;

export const LEARN_ROWS = {
  learn: { name: 'learn the demo suite ×2 (8 goals, rules planner), wall', unit: 's' },
  replay: { name: 'replay the same goals (1 worker), wall', unit: 's' },
  ratio: { name: 'learn ÷ replay wall time', unit: '×' },
  learnCalls: { name: 'model calls while learning (rules planner)', unit: 'calls' },
  replayCalls: { name: 'model calls in all replays', unit: 'calls', target: TARGETS.zeroModelCalls },
  verifyMs: { name: 'verifyMs per replayed action (summary.json)', unit: 'ms' },
  settleMs: { name: 'settleMs per replayed action (summary.json)', unit: 'ms' },
  actionMs: { name: 'ms per replayed action (summary.json)', unit: 'ms' },
} satisfies Record<string, Row>;

const scaleRow = (w: number): Row => ({
  name: `replay throughput, ${w} worker${w > 1 ? 's' : ''}`,
  unit: 'goals/min',
  ...(w === 2 ? { target: { op: '>', value: Number.NaN, text: '> 1 worker' } as const } : {}),
});

export const ROWS = [...Object.values(LEARN_ROWS), ...WORKERS.map(scaleRow)];

interface Run {
  readonly ms: number;
  readonly code: number | null;
  readonly goals: readonly GoalVerdict[];
  readonly modelCalls: number;
}

/** The demo specs, launching the fixtures from anywhere. */
function makeProject(): Project {
  const project = new Project();
  const specs = join(REPO, 'specs');
  for (const file of readdirSync(specs).filter((f) => f.endsWith('.yaml'))) {
    const text = readFileSync(join(specs, file), 'utf8').replace(/launch: fixtures\/apps\/open/g, 'launch: ${env.FIXTURES}/open');
    for (const copy of ['a', 'b']) project.write(`specs/${copy}/${file}`, text);
  }
  return project;
}

async function cli(project: Project, label: string, args: string[]): Promise<Run> {
  const { ms, result } = await timed(() => project.cli(['run', 'specs', ...args], { CALC_VARIANT: '' }, RUN_TIMEOUT_MS));
  let goals: readonly GoalVerdict[] = [];
  let modelCalls = 0;
  try {
    const summary = project.summary();
    goals = summary.goals;
    modelCalls = summary.totals.modelCalls;
  } catch {
    // No summary: the run broke before running anything; the exit code tells.
  }
  const passed = goals.filter((g) => g.status === 'passed').length;
  progress(`${label}: exit ${result.code}, ${passed}/${goals.length} passed, ${(ms / 1000).toFixed(1)} s`);
  if (result.code !== 0 && goals.length === 0)
    throw new Error(`retrace ${args.join(' ')} exited ${result.code}: ${result.stderr.slice(-400)}`);
  return { ms, code: result.code, goals, modelCalls };
}

const failures = (runs: readonly Run[]): string => {
  const bad = runs.flatMap((r) => r.goals.filter((g) => g.status !== 'passed'));
  const total = runs.reduce((n, r) => n + r.goals.length, 0);
  return bad.length === 0
    ? `all ${total} goal runs passed`
    : `${bad.length} of ${total} goal runs did not pass (${[...new Set(bad.map((g) => `${g.goal}: ${g.status}`))].join(', ')})`;
};

export function benchSuite(): Promise<Measurement[]> {
  return guarded(`${LEARN} / ${SCALE}`, ROWS, async () => {
    const project = makeProject();
    const learns: Run[] = [];
    const replays = new Map<number, Run[]>(WORKERS.map((w) => [w, []]));
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        learns.push(await cli(project, `round ${round}: learn`, ['--learn', 'force', '--update-baselines', 'missing', '--paths', 'paths']));
        for (const w of WORKERS) {
          replays
            .get(w)!
            .push(
              await cli(project, `round ${round}: replay, ${w} worker(s)`, ['--learn', 'off', '--workers', String(w), '--paths', 'paths']),
            );
        }
      }
    } finally {
      rmSync(project.root, { recursive: true, force: true });
    }

    const seconds = (runs: readonly Run[]) => runs.map((r) => r.ms / 1000);
    const one = replays.get(1)!;
    const allReplays = [...replays.values()].flat();
    const actions = allReplays.flatMap((r) => r.goals.filter((g) => g.mode === 'replayed').flatMap((g) => g.actions));
    const acted = actions.filter((a) => a.kind !== 'wait' && a.kind !== 'wait-for');
    const learnMedian = quantile(seconds(learns), 0.5);
    const replayMedian = quantile(seconds(one), 0.5);
    // The goals' own time, without starting vitest and the workers.
    const goalSeconds = (runs: readonly Run[]) =>
      quantile(
        runs.map((r) => r.goals.reduce((n, g) => n + g.durationMs, 0) / 1000),
        0.5,
      );
    const [learnGoals, replayGoals] = [goalSeconds(learns), goalSeconds(one)];

    const out: Measurement[] = [
      figure({ group: LEARN, ...LEARN_ROWS.learn, samples: seconds(learns), note: failures(learns) }),
      figure({ group: LEARN, ...LEARN_ROWS.replay, samples: seconds(one), note: failures(one) }),
      figure({
        group: LEARN,
        ...LEARN_ROWS.ratio,
        value: learnMedian / replayMedian,
        note:
          `medians of the whole runs (vitest start and every app launch included); the goals alone: ` +
          `${learnGoals.toFixed(1)} s vs ${replayGoals.toFixed(1)} s (×${(learnGoals / replayGoals).toFixed(2)})`,
      }),
      figure({ group: LEARN, ...LEARN_ROWS.learnCalls, value: learns.reduce((n, r) => n + r.modelCalls, 0) }),
      figure({
        group: LEARN,
        ...LEARN_ROWS.replayCalls,
        value: allReplays.reduce((n, r) => n + r.modelCalls, 0),
        note: `${allReplays.length} replay runs, ${acted.length} actions`,
      }),
      figure({
        group: LEARN,
        ...LEARN_ROWS.verifyMs,
        samples: acted.map((a) => a.verifyMs),
        note: 'checkEffect only; capture is part of settling',
      }),
      figure({
        group: LEARN,
        ...LEARN_ROWS.settleMs,
        samples: acted.map((a) => a.settleMs),
        note: 'until the last change was seen after the action',
      }),
      figure({ group: LEARN, ...LEARN_ROWS.actionMs, samples: acted.map((a) => a.ms), note: 'settle + resolve + act + settle + verify' }),
    ];
    const throughput = (runs: readonly Run[]) => runs.map((r) => r.goals.length / (r.ms / 60_000));
    const base = quantile(throughput(one), 0.5);
    for (const w of WORKERS) {
      const row = scaleRow(w);
      const runs = replays.get(w)!;
      out.push(
        figure({
          group: SCALE,
          ...row,
          ...(row.target ? { target: { ...row.target, value: base } } : {}),
          samples: throughput(runs),
          note: `${failures(runs)}${w > 2 ? '; 2 cores: no growth expected beyond 2' : ''}`,
        }),
      );
    }
    return out;
  });
}
