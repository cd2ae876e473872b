/**
 * Replay per click: what one replayed click costs, app reaction included, against the target of
 * ≤ 40 ms (issue 28; ≤ 60 ms before, issue 13), and where the time goes. The real CLI in a throw-away project: galculator
 * (GTK 3) and two fixture apps (Chromium: the calculator, the counter), each driven by
 * `click button "…"`, learned once with the accessibility bus on (so every action has an element
 * anchor), then replayed with RETRACE_ACCESSIBILITY=off (the pixel rungs find each target) and
 * with the bus on (the element rung), interleaved round by round so machine noise falls on both.
 * Per click, from summary.json: `ms` (the whole action, the wait before it included) and its
 * split — `waitMs` (before), `resolveMs`, `actMs`, `settleMs` (after), `verifyMs`.
 */
import type { ActionReport, Verdict } from '../src/domain.ts';
import { Project } from '../test/support/project.ts';
import { figure, guarded, progress, quantile, type Measurement, type Row, type Target } from './measure.ts';

const GROUP = 'Replay per click';
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const RUN_TIMEOUT_MS = 300_000;
const CLICK_TARGET: Target = { op: '<=', value: 40, text: '≤ 40 ms' };

const clicks = (keys: readonly string[]): string => keys.map((k) => `click button "${k}"`).join(', ');
const KEYS = ['1', '2', '*', '7', '=', 'C', '9', '+'];
const APPS = {
  galculator: { file: 'specs/galculator.yaml', app: 'launch: galculator\n  window: galculator', goal: clicks(KEYS) },
  'fixture calculator': {
    file: 'specs/calculator.yaml',
    app: 'launch: ${env.FIXTURES}/open calculator\n  window: Retrace Calculator',
    goal: clicks(KEYS),
  },
  'fixture counter': {
    file: 'specs/counter.yaml',
    app: 'launch: ${env.FIXTURES}/open counter\n  window: Retrace Counter',
    goal: clicks(['Add', 'Add', 'Add', 'Reset', 'Add', 'Add', 'Reset', 'Add']),
  },
} as const;
type App = keyof typeof APPS;
type Mode = 'pixels' | 'element';
const MODES: Record<Mode, { accessibility: 'on' | 'off'; rung: string; label: string }> = {
  pixels: { accessibility: 'off', rung: 'recorded', label: 'pixel rungs (RETRACE_ACCESSIBILITY=off)' },
  element: { accessibility: 'on', rung: 'element', label: 'element rung' },
};

const PHASES = ['waitMs', 'resolveMs', 'actMs', 'settleMs', 'verifyMs'] as const;

const row = (app: App, mode: Mode): Row => ({
  name: `${app}: ms per replayed click, ${MODES[mode].label}`,
  unit: 'ms',
  target: CLICK_TARGET,
});
export const ROWS: Row[] = (Object.keys(APPS) as App[]).flatMap((app) => [row(app, 'pixels'), row(app, 'element')]);

/** The medians of the split, as the note of a row: "wait 0 · resolve 3 · act 9 · settle 31 · verify 2". */
export function phaseSplit(actions: readonly ActionReport[]): string {
  return PHASES.map(
    (p) =>
      `${p.replace(/Ms$/, '')} ${quantile(
        actions.map((a) => a[p]),
        0.5,
      ).toFixed(0)}`,
  ).join(' · ');
}

async function replay(project: Project, mode: Mode): Promise<readonly Verdict[]> {
  const { accessibility, rung } = MODES[mode];
  const result = await project.cli(['run', '--learn', 'off'], { RETRACE_ACCESSIBILITY: accessibility }, RUN_TIMEOUT_MS);
  const goals = project.summary().goals;
  const failed = goals.filter((g) => g.status !== 'passed');
  if (result.code !== 0 || failed.length > 0 || goals.length !== Object.keys(APPS).length) {
    throw new Error(
      `replay with the bus ${accessibility}: exit ${result.code}, ${failed.map((g) => `${g.spec}: ${g.message}`).join('; ') || result.stderr.slice(-300)}`,
    );
  }
  const actions = goals.flatMap((g) => g.actions);
  progress(
    `replay, bus ${accessibility}: ${actions.length} clicks, ${actions.filter((a) => a.resolvedBy !== rung).length} not by the ${rung} rung`,
  );
  return goals;
}

export function benchClicks(): Promise<Measurement[]> {
  return guarded(GROUP, ROWS, async () => {
    const project = new Project();
    for (const { file, app, goal } of Object.values(APPS))
      project.write(file, `name: Clicks\napp:\n  ${app}\ngoals:\n  - id: clicks\n    goal: ${goal}\n`);
    const learned = await project.cli(['run'], {}, RUN_TIMEOUT_MS);
    if (learned.code !== 0) throw new Error(`learning exited ${learned.code}: ${learned.stderr.slice(-300)}`);
    const runs: Record<Mode, Verdict[]> = { pixels: [], element: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of Object.keys(MODES) as Mode[]) runs[mode].push(...(await replay(project, mode)));
    }
    const out: Measurement[] = [];
    for (const [app, { file }] of Object.entries(APPS) as [App, (typeof APPS)[App]][]) {
      for (const mode of Object.keys(MODES) as Mode[]) {
        const actions = runs[mode].filter((g) => g.spec === file).flatMap((g) => g.actions);
        const byRung = actions.filter((a) => a.resolvedBy === MODES[mode].rung).length;
        out.push(
          figure({
            group: GROUP,
            ...row(app, mode),
            samples: actions.map((a) => a.ms),
            note: `${phaseSplit(actions)}; ${byRung} of ${actions.length} by the ${MODES[mode].rung} rung`,
          }),
        );
      }
    }
    return out;
  });
}
