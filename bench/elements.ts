/**
 * The element rung on replay: what finding a target by its element costs a click, against the
 * pixel rungs alone. The real CLI in a throw-away project: galculator (GTK 3) and the Chromium
 * fixture calculator, each driven by `click button "…"`, learned once with the accessibility bus
 * on (so every action has an element anchor), then replayed with the bus on (the element rung
 * finds each button) and with RETRACE_ACCESSIBILITY=off (the recorded rung finds it by its
 * pixels), interleaved round by round so machine noise falls on both. Per click, from
 * summary.json: `ms` (the whole action) and `resolveMs` (finding the target).
 */
import type { ActionReport } from '../src/domain.ts';
import { Project } from '../test/support/project.ts';
import { figure, guarded, progress, type Measurement, type Row } from './measure.ts';

const GROUP = 'Element rung (replay)';
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const RUN_TIMEOUT_MS = 300_000;
const KEYS = ['1', '2', '*', '7', '=', 'C', '9', '+'];

const clicks = KEYS.map((k) => `click button "${k}"`).join(', ');
const SPECS = {
  'specs/galculator.yaml': `name: Galculator\napp:\n  launch: galculator\n  window: galculator\ngoals:\n  - id: keys\n    goal: ${clicks}\n`,
  'specs/chromium.yaml': `name: Calculator\napp:\n  launch: \${env.FIXTURES}/open calculator\n  window: Retrace Calculator\ngoals:\n  - id: keys\n    goal: ${clicks}\n`,
};

export const ROWS = {
  withMs: { name: `replay per click, element rung (${KEYS.length} clicks × galculator, Chromium)`, unit: 'ms' },
  withoutMs: { name: 'replay per click, without it (RETRACE_ACCESSIBILITY=off)', unit: 'ms' },
  withResolve: { name: 'finding the target per click (resolveMs), element rung', unit: 'ms' },
  withoutResolve: { name: 'finding the target per click (resolveMs), without it', unit: 'ms' },
} satisfies Record<string, Row>;

async function replay(project: Project, accessibility: 'on' | 'off'): Promise<ActionReport[]> {
  const result = await project.cli(['run', '--learn', 'off'], { RETRACE_ACCESSIBILITY: accessibility }, RUN_TIMEOUT_MS);
  const goals = project.summary().goals;
  const failed = goals.filter((g) => g.status !== 'passed');
  if (result.code !== 0 || failed.length > 0 || goals.length !== 2) {
    throw new Error(`replay with the bus ${accessibility}: exit ${result.code}, ${failed.map((g) => `${g.spec}: ${g.message}`).join('; ') || result.stderr.slice(-300)}`);
  }
  const actions = goals.flatMap((g) => g.actions);
  const wanted = accessibility === 'on' ? 'element' : 'recorded';
  const others = actions.filter((a) => a.resolvedBy !== wanted).length;
  progress(`replay, bus ${accessibility}: ${actions.length} clicks, ${others} not by the ${wanted} rung`);
  return actions;
}

export function benchElements(): Promise<Measurement[]> {
  return guarded(GROUP, Object.values(ROWS), async () => {
    const project = new Project();
    for (const [file, text] of Object.entries(SPECS)) project.write(file, text);
    const learned = await project.cli(['run'], {}, RUN_TIMEOUT_MS);
    if (learned.code !== 0) throw new Error(`learning exited ${learned.code}: ${learned.stderr.slice(-300)}`);
    const on: ActionReport[] = [];
    const off: ActionReport[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      on.push(...(await replay(project, 'on')));
      off.push(...(await replay(project, 'off')));
    }
    const byRung = (actions: readonly ActionReport[], rung: string) => `${actions.filter((a) => a.resolvedBy === rung).length} of ${actions.length} by the ${rung} rung`;
    return [
      figure({ group: GROUP, ...ROWS.withMs, samples: on.map((a) => a.ms), note: byRung(on, 'element') }),
      figure({ group: GROUP, ...ROWS.withoutMs, samples: off.map((a) => a.ms), note: byRung(off, 'recorded') }),
      figure({ group: GROUP, ...ROWS.withResolve, samples: on.map((a) => a.resolveMs), note: 'a tree read, the match, and a pixel check at the box' }),
      figure({ group: GROUP, ...ROWS.withoutResolve, samples: off.map((a) => a.resolveMs), note: 'the anchor image compared where it was recorded' }),
    ];
  });
}
