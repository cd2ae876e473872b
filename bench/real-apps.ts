/**
 * The real-app corpus (specs/real) through the real CLI, as CI runs it (test/e2e/real-apps*.test.ts):
 * learned once (rules planner), then replayed BENCH_REAL_REPLAYS times (default 5) with
 * --learn off on retrace's own display, and the same on displays of `xvfb-run`. Per app: the
 * replays in which every goal passed on each, the goals' learn and replay time, the ms per
 * replayed action (from summary.json: the goal's own time, without starting vitest) with the rung
 * that resolved each action (`resolvedBy`), and the wall of a replayed goal with the medians of
 * its split (`phases`), beside a bare xdotool script doing the same recorded actions with fixed
 * sleeps on the benchmark's own display (bench/xdotool-reference.ts). reports/real-apps.md gets
 * the per-app table.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Desktop } from '../src/desktop/types.ts';
import type { GoalPhases, Verdict as GoalVerdict } from '../src/domain.ts';
import { PathStore } from '../src/paths/store.ts';
import { loadSpec } from '../src/spec-file/load.ts';
import { interpolate } from '../src/spec-file/interpolate.ts';
import type { Summary } from '../src/report/summary.ts';
import { FIXTURES, REPO, XVFB_RUN } from '../test/support/project.ts';
import { type CorpusRuns, learnAndReplay, REAL_SPECS, realAppsProject, REPLAYS } from '../test/support/real-apps.ts';
import { figure, guarded, progress, quantile, TARGETS, type Measurement, type Row } from './measure.ts';
import { ACTION_SLEEP_S, DRAW_SLEEP_S, referenceScript, runReference } from './xdotool-reference.ts';

const GROUP = 'Real apps (specs/real)';
const RUN_TIMEOUT_MS = 600_000;
const TIMES = Math.max(1, Number(process.env.BENCH_REAL_REPLAYS ?? REPLAYS));
const APPS = readdirSync(REAL_SPECS)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.replace(/\.yaml$/, ''))
  .sort();

const rows = (app: string) =>
  ({
    learn: { name: `${app}: learn (goals' time)`, unit: 's' },
    replay: { name: `${app}: replay (goals' time)`, unit: 's' },
    green: { name: `${app}: replays all green, retrace's display`, unit: `of ${TIMES}` },
    greenXvfb: { name: `${app}: replays all green, xvfb-run`, unit: `of ${TIMES}` },
    action: { name: `${app}: ms per replayed action`, unit: 'ms' },
    goal: { name: `${app}: replayed goal, wall (durationMs)`, unit: 'ms' },
    reference: { name: `${app}: same actions by a bare xdotool script`, unit: 'ms' },
  }) satisfies Record<string, Row>;

const SPLIT = ['launchMs', 'readyMs', 'actionsMs', 'holdMs', 'checkMs'] as const satisfies readonly (keyof GoalPhases)[];

/** The medians of the goals' split: "launch 820 · ready 140 · actions 410 · hold 200 · check 330". */
const splitNote = (goals: readonly GoalVerdict[]): string => {
  const timed = goals.filter((g) => g.phases !== undefined);
  if (timed.length === 0) return 'no time split';
  return SPLIT.map(
    (p) =>
      `${p.replace(/Ms$/, '')} ${quantile(
        timed.map((g) => g.phases![p]),
        0.5,
      ).toFixed(0)}`,
  ).join(' · ');
};

const CALLS: Row = { name: 'model calls on replay', unit: 'calls', target: TARGETS.zeroModelCalls };
export const ROWS: Row[] = [...APPS.flatMap((app) => Object.values(rows(app))), CALLS];

/** Per goal of `app`, the wall of its xdotool reference on the benchmark's display; the goals a script cannot do blind are named. */
async function references(project: { root: string }, app: string, display: string): Promise<{ ms: number[]; skipped: string[] }> {
  const env = { ...process.env, FIXTURES };
  const spec = loadSpec(join(project.root, 'specs', 'real', `${app}.yaml`), { root: project.root, env });
  const store = new PathStore(join(project.root, 'paths'));
  const out = { ms: [] as number[], skipped: [] as string[] };
  for (const goal of spec.goals) {
    const path = store.read(spec.id, goal.id);
    const script = path && referenceScript(path, interpolate(spec.app.launch, env), interpolate(spec.app.window, env));
    if (!script) out.skipped.push(goal.id);
    else out.ms.push(await runReference(script, display, env));
  }
  return out;
}

const of = (goals: readonly GoalVerdict[], app: string) => goals.filter((g) => g.spec === `specs/real/${app}.yaml`);
const seconds = (goals: readonly GoalVerdict[]) => goals.reduce((n, g) => n + g.durationMs, 0) / 1000;
const allPassed = (goals: readonly GoalVerdict[]) => goals.length > 0 && goals.every((g) => g.status === 'passed');
const status = (goals: readonly GoalVerdict[]) => {
  const bad = goals.filter((g) => g.status !== 'passed');
  return bad.length === 0 ? `${goals.length} goals passed` : `not passed: ${bad.map((g) => `${g.goal} (${g.status})`).join(', ')}`;
};
const replayedActions = (summaries: readonly Summary[], app: string) =>
  summaries.flatMap((s) => of(s.goals, app).flatMap((g) => g.actions)).filter((a) => a.kind !== 'wait' && a.kind !== 'wait-for');

/** The replays in which every goal of `app` passed, and what the others said. */
function green(runs: CorpusRuns, app: string): { value: number; note: string } {
  const goals = runs.replays.map((r) => of(r.summary.goals, app));
  const failures = goals.flatMap((gs, i) =>
    gs.filter((g) => g.status !== 'passed').map((g) => `replay ${i + 1} ${g.goal}: ${g.status} (${(g.message ?? '').split('\n')[0]})`),
  );
  return { value: goals.filter(allPassed).length, note: failures.length === 0 ? 'every goal passed' : failures.join('; ') };
}

/** Per goal, the rung that resolved each action over the replays: "check: 1 element×10". */
function rungs(summaries: readonly Summary[], app: string): string {
  const byGoal = new Map<string, Map<number, Map<string, number>>>();
  for (const goal of summaries.flatMap((s) => of(s.goals, app))) {
    const actions = byGoal.get(goal.goal) ?? new Map<number, Map<string, number>>();
    byGoal.set(goal.goal, actions);
    goal.actions.forEach((a, i) => {
      const counts = actions.get(i + 1) ?? new Map<string, number>();
      actions.set(i + 1, counts);
      const rung = a.resolvedBy ?? 'none';
      counts.set(rung, (counts.get(rung) ?? 0) + 1);
    });
  }
  return [...byGoal]
    .map(
      ([goal, actions]) =>
        `${goal}: ${[...actions].map(([i, counts]) => `${i} ${[...counts].map(([r, n]) => `${r}×${n}`).join('/')}`).join(', ')}`,
    )
    .join('; ');
}

/** The note's table: per app, learned, replays green of each kind, ms per action, rungs. */
export function corpusTable(own: CorpusRuns, given: CorpusRuns, apps: readonly string[] = APPS): string {
  const median = (summaries: readonly Summary[], app: string) =>
    quantile(
      replayedActions(summaries, app).map((a) => a.ms),
      0.5,
    ).toFixed(0);
  const lines = [
    `| app | learned | replays green of ${TIMES}, retrace's display / xvfb-run | ms per action (median), retrace's display / xvfb-run | resolved by (per goal, each action: rung × replays, both displays) |`,
    '|---|---|---|---|---|',
  ];
  for (const app of apps) {
    const learned = allPassed(of(own.learned.summary.goals, app)) && allPassed(of(given.learned.summary.goals, app));
    const [o, g] = [own.replays.map((r) => r.summary), given.replays.map((r) => r.summary)];
    lines.push(
      `| ${app} | ${learned ? 'y' : 'n'} | ${green(own, app).value} / ${green(given, app).value} | ${median(o, app)} / ${median(g, app)} | ${rungs([...o, ...g], app)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export function benchRealApps(desktop: Promise<Desktop>): Promise<Measurement[]> {
  return guarded(GROUP, ROWS, async () => {
    const [project, xvfbProject] = [realAppsProject(), realAppsProject()];
    try {
      const corpus = async (label: string, runs: Promise<CorpusRuns>) => {
        const done = await runs;
        for (const [i, r] of [done.learned, ...done.replays].entries()) {
          const passed = r.summary.goals.filter((g) => g.status === 'passed').length;
          progress(
            `real apps, ${label}, ${i === 0 ? 'learn' : `replay ${i}`}: exit ${r.result.code}, ${passed}/${r.summary.goals.length} passed`,
          );
        }
        return done;
      };
      const own = await corpus("retrace's display", learnAndReplay(project, TIMES, { timeoutMs: RUN_TIMEOUT_MS }));
      const given = await corpus(
        'xvfb-run',
        learnAndReplay(xvfbProject, TIMES, {
          wrapper: XVFB_RUN,
          env: { DBUS_SESSION_BUS_ADDRESS: undefined, XDG_RUNTIME_DIR: undefined },
          timeoutMs: RUN_TIMEOUT_MS,
        }),
      );
      const replays = own.replays.map((r) => r.summary);
      const out: Measurement[] = [];
      for (const app of APPS) {
        const row = rows(app);
        const learn = of(own.learned.summary.goals, app);
        const replay = replays.flatMap((s) => of(s.goals, app));
        const actions = replayedActions(replays, app);
        const reference = await references(project, app, (await desktop).display.name);
        out.push(
          figure({ group: GROUP, ...row.learn, value: seconds(learn), note: status(learn) }),
          figure({ group: GROUP, ...row.replay, samples: replays.map((s) => seconds(of(s.goals, app))), note: status(replay) }),
          figure({ group: GROUP, ...row.green, ...green(own, app) }),
          figure({ group: GROUP, ...row.greenXvfb, ...green(given, app) }),
          figure({
            group: GROUP,
            ...row.action,
            samples: actions.map((a) => a.ms),
            note: `median of ${actions.length} actions; resolved by ${rungs(replays, app)}`,
          }),
          figure({ group: GROUP, ...row.goal, samples: replay.map((g) => g.durationMs), note: splitNote(replay) }),
          figure({
            group: GROUP,
            ...row.reference,
            samples: reference.ms,
            note: `launch, wait for the window, sleep ${DRAW_SLEEP_S} s, each action then sleep ${ACTION_SLEEP_S} s, no verification${reference.skipped.length > 0 ? `; not scriptable blind: ${reference.skipped.join(', ')}` : ''}`,
          }),
        );
      }
      const calls = [...own.replays, ...given.replays].reduce((n, r) => n + r.summary.totals.modelCalls, 0);
      out.push(figure({ group: GROUP, ...CALLS, value: calls }));
      const table = join(REPO, 'reports', 'real-apps.md');
      mkdirSync(join(REPO, 'reports'), { recursive: true });
      writeFileSync(table, corpusTable(own, given));
      progress(`real apps: the per-app table is in ${table}`);
      return out;
    } finally {
      rmSync(project.root, { recursive: true, force: true });
      rmSync(xvfbProject.root, { recursive: true, force: true });
    }
  });
}
