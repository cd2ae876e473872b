/**
 * The real-app corpus (specs/real: galculator, gnome-calculator (GTK 4), xcalc, mousepad, xterm, zenity, a Tk app, a Swing form,
 * FeatherPad) through the real CLI: one learn run (rules planner), one replay run (--learn off),
 * and per app the goals' learn time, their replay time and the ms per replayed action (from
 * summary.json: the goal's own time, without starting vitest).
 */
import { readdirSync, rmSync } from 'node:fs';
import type { Verdict as GoalVerdict } from '../src/domain.ts';
import { REAL_SPECS, realAppsProject } from '../test/support/real-apps.ts';
import { figure, guarded, progress, quantile, TARGETS, timed, type Measurement, type Row } from './measure.ts';

const GROUP = 'Real apps (specs/real)';
const RUN_TIMEOUT_MS = 400_000;
const APPS = readdirSync(REAL_SPECS).filter((f) => f.endsWith('.yaml')).map((f) => f.replace(/\.yaml$/, '')).sort();

const rows = (app: string) => ({
  learn: { name: `${app}: learn (goals' time)`, unit: 's' },
  replay: { name: `${app}: replay (goals' time)`, unit: 's' },
  action: { name: `${app}: ms per replayed action`, unit: 'ms' },
}) satisfies Record<string, Row>;

const CALLS: Row = { name: 'model calls on replay', unit: 'calls', target: TARGETS.zeroModelCalls };
export const ROWS: Row[] = [...APPS.flatMap((app) => Object.values(rows(app))), CALLS];

export function benchRealApps(): Promise<Measurement[]> {
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
        out.push(
          figure({ group: GROUP, ...row.learn, value: seconds(learn), note: status(learn) }),
          figure({ group: GROUP, ...row.replay, value: seconds(replay), note: status(replay) }),
          figure({ group: GROUP, ...row.action, samples: actions.map((a) => a.ms), note: `median of ${actions.length} actions; per-goal medians ${quantile(replay.map((g) => g.durationMs), 0.5).toFixed(0)} ms` }),
        );
      }
      out.push(figure({ group: GROUP, ...CALLS, value: replayed.totals.modelCalls }));
      return out;
    } finally {
      rmSync(project.root, { recursive: true, force: true });
    }
  });
}
