/**
 * The real-app corpus (specs/real: galculator, gnome-calculator (GTK 4), xcalc, mousepad, xterm, zenity, a Tk app, a Swing form,
 * FeatherPad) through the real CLI: one learn run (rules planner), one replay run (--learn off),
 * and per app the goals' learn time, their replay time and the ms per replayed action (from
 * summary.json: the goal's own time, without starting vitest); the wall of a replayed goal with
 * the medians of its split (`phases`), beside a bare xdotool script doing the same recorded
 * actions with fixed sleeps on the benchmark's own display (bench/xdotool-reference.ts).
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Desktop } from '../src/desktop/types.ts';
import type { GoalPhases, Verdict as GoalVerdict } from '../src/domain.ts';
import { PathStore } from '../src/paths/store.ts';
import { loadSpec } from '../src/spec-file/load.ts';
import { interpolate } from '../src/spec-file/interpolate.ts';
import { FIXTURES } from '../test/support/project.ts';
import { REAL_SPECS, realAppsProject } from '../test/support/real-apps.ts';
import { figure, guarded, progress, quantile, TARGETS, timed, type Measurement, type Row } from './measure.ts';
import { ACTION_SLEEP_S, DRAW_SLEEP_S, referenceScript, runReference } from './xdotool-reference.ts';

const GROUP = 'Real apps (specs/real)';
const RUN_TIMEOUT_MS = 400_000;
const APPS = readdirSync(REAL_SPECS)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.replace(/\.yaml$/, ''))
  .sort();

const rows = (app: string) =>
  ({
    learn: { name: `${app}: learn (goals' time)`, unit: 's' },
    replay: { name: `${app}: replay (goals' time)`, unit: 's' },
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

export function benchRealApps(desktop: Promise<Desktop>): Promise<Measurement[]> {
  return guarded(GROUP, ROWS, async () => {
    const project = realAppsProject();
    try {
      const run = async (label: string, args: string[]) => {
        const { ms, result } = await timed(() => project.cli(['run', 'specs/real', '--paths', 'paths', ...args], {}, RUN_TIMEOUT_MS));
        const summary = project.summary();
        const passed = summary.goals.filter((g) => g.status === 'passed').length;
        progress(`real apps, ${label}: exit ${result.code}, ${passed}/${summary.goals.length} passed, ${(ms / 1000).toFixed(1)} s`);
        return summary;
      };
      const learned = await run('learn', ['--learn', 'force']);
      const replayed = await run('replay', ['--learn', 'off']);
      const of = (goals: readonly GoalVerdict[], app: string) => goals.filter((g) => g.spec === `specs/real/${app}.yaml`);
      const seconds = (goals: readonly GoalVerdict[]) => goals.reduce((n, g) => n + g.durationMs, 0) / 1000;
      const status = (goals: readonly GoalVerdict[]) => {
        const bad = goals.filter((g) => g.status !== 'passed');
        return bad.length === 0 ? `${goals.length} goals passed` : `not passed: ${bad.map((g) => `${g.goal} (${g.status})`).join(', ')}`;
      };
      const out: Measurement[] = [];
      for (const app of APPS) {
        const row = rows(app);
        const [learn, replay] = [of(learned.goals, app), of(replayed.goals, app)];
        const actions = replay.flatMap((g) => g.actions).filter((a) => a.kind !== 'wait' && a.kind !== 'wait-for');
        const reference = await references(project, app, (await desktop).display.name);
        out.push(
          figure({ group: GROUP, ...row.learn, value: seconds(learn), note: status(learn) }),
          figure({ group: GROUP, ...row.replay, value: seconds(replay), note: status(replay) }),
          figure({ group: GROUP, ...row.action, samples: actions.map((a) => a.ms), note: `median of ${actions.length} actions` }),
          figure({ group: GROUP, ...row.goal, samples: replay.map((g) => g.durationMs), note: splitNote(replay) }),
          figure({
            group: GROUP,
            ...row.reference,
            samples: reference.ms,
            note: `launch, wait for the window, sleep ${DRAW_SLEEP_S} s, each action then sleep ${ACTION_SLEEP_S} s, no verification${reference.skipped.length > 0 ? `; not scriptable blind: ${reference.skipped.join(', ')}` : ''}`,
          }),
        );
      }
      out.push(figure({ group: GROUP, ...CALLS, value: replayed.totals.modelCalls }));
      return out;
    } finally {
      rmSync(project.root, { recursive: true, force: true });
    }
  });
}
