/**
 * Portability (issue 24): a path learned at scale 1 in the light look replays green at scale 2,
 * in the dark look, with a font 2 px larger and a window 30 % larger — on a GTK 3 form and on a Qt
 * 5 form, both publishing their elements, through the real CLI. And it still catches a wrong
 * result there: a list not updated, while the total and a status line say it was, fails.
 */
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Path } from '../../src/domain.ts';
import { Project } from '../support/project.ts';

const RUN_MS = 300_000;
/** Logical window size of the fixtures' base look (RETRACE_WINDOW_SIZE), and 30 % larger. */
const BASE = { gtk: [340, 300], qt: [340, 300] } as const;
const larger = ([w, h]: readonly [number, number]): string => `${Math.round(w * 1.3)},${Math.round(h * 1.3)}`;

const GOAL =
  'type "Ann" into entry "Customer", type "Tea" into entry "Item", type "3" into entry "Count", click radio "Express", click button "Add"';

const TOOLKITS = {
  gtk: {
    script: 'gtk-order.py',
    window: 'Retrace GTK order',
    varied: { GTK_THEME: 'Adwaita:dark', GDK_SCALE: '2', RETRACE_FONT_PX: '15', RETRACE_WINDOW_SIZE: larger(BASE.gtk) },
  },
  qt: {
    script: 'qt-order.py',
    window: 'Retrace Qt order',
    varied: { QT_SCALE_FACTOR: '2', RETRACE_DARK: '1', RETRACE_FONT_PX: '15', RETRACE_WINDOW_SIZE: larger(BASE.qt) },
  },
} as const;
type Toolkit = keyof typeof TOOLKITS;

function spec(toolkit: Toolkit, env: Readonly<Record<string, string>>): string {
  const { script, window } = TOOLKITS[toolkit];
  return [
    'app:',
    `  launch: /usr/bin/python3 \${env.FIXTURES}/${script}`,
    `  window: ${window}`,
    '  env:',
    ...Object.entries({ RETRACE_FONT_PX: '13', RETRACE_WINDOW_SIZE: BASE[toolkit].join(','), ...env }).map(([k, v]) => `    ${k}: "${v}"`),
    'goals:',
    '  - id: order',
    `    goal: '${GOAL}'`,
    '    expect:',
    '      - element: { role: label, name: "/^Total/", text: "Total: 1" }',
    '',
  ].join('\n');
}

/** The variant replays the base path: it is copied under the variant spec's name. */
function variant(project: Project, toolkit: Toolkit, name: string, env: Readonly<Record<string, string>>): void {
  project.write(`specs/${name}/${toolkit}.yaml`, spec(toolkit, env));
  const from = join(project.root, 'paths/specs/base');
  if (existsSync(from)) cpSync(from, join(project.root, `paths/specs/${name}`), { recursive: true });
}

describe('a path learned on a GTK 3 and a Qt 5 form', () => {
  const project = new Project();
  const status = (): Record<string, string> =>
    Object.fromEntries(
      project
        .summary()
        .goals.map((g) => [g.spec.split('/').slice(-2).join('/'), `${g.status}${g.message ? `: ${g.message.split('\n')[0]}` : ''}`]),
    );

  beforeAll(async () => {
    for (const toolkit of Object.keys(TOOLKITS) as Toolkit[]) project.write(`specs/base/${toolkit}.yaml`, spec(toolkit, {}));
    const learned = await project.cli(['run', 'specs/base', '--paths', 'paths'], {}, RUN_MS);
    expect(learned.code, learned.stdout + learned.stderr).toBe(0);
  }, RUN_MS);

  test('records element effects: the list row that appeared and the total, the pixels on them kept as evidence', () => {
    for (const toolkit of Object.keys(TOOLKITS) as Toolkit[]) {
      const path = JSON.parse(project.read(`paths/specs/base/${toolkit}/order.path.json`)) as Path;
      const add = path.actions.at(-1)!;
      expect(add.elements, toolkit).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ change: 'appeared', name: '3 × Tea for Ann, express' }),
          expect.objectContaining({ role: 'label', after: { name: 'Total: 1' } }),
        ]),
      );
      expect(add.effects.filter((e) => e.kind === 'element').length, toolkit).toBeGreaterThan(0);
    }
  });

  test(
    'replays green at scale 2, dark, font +2 px, window +30 %',
    async () => {
      for (const toolkit of Object.keys(TOOLKITS) as Toolkit[]) variant(project, toolkit, 'varied', TOOLKITS[toolkit].varied);
      const replay = await project.cli(
        ['run', 'specs/varied', '--learn', 'off', '--strict', '--update-baselines', 'none', '--paths', 'paths'],
        {},
        RUN_MS,
      );
      expect(status()).toEqual({
        'varied/gtk.yaml': expect.stringMatching(/^(passed|healed)/),
        'varied/qt.yaml': expect.stringMatching(/^(passed|healed)/),
      });
      expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    },
    RUN_MS,
  );

  test(
    'fails a list not updated, though the total and the last line say it was, in the base look and the varied one',
    async () => {
      for (const toolkit of Object.keys(TOOLKITS) as Toolkit[]) {
        variant(project, toolkit, 'bug', { RETRACE_BUG: 'not-listed' });
        variant(project, toolkit, 'bug-varied', { ...TOOLKITS[toolkit].varied, RETRACE_BUG: 'not-listed' });
      }
      await project.cli(
        ['run', 'specs/bug', 'specs/bug-varied', '--learn', 'off', '--update-baselines', 'none', '--paths', 'paths'],
        {},
        RUN_MS,
      );
      const got = status();
      expect(Object.keys(got).sort()).toEqual(['bug-varied/gtk.yaml', 'bug-varied/qt.yaml', 'bug/gtk.yaml', 'bug/qt.yaml']);
      for (const [spec, said] of Object.entries(got)) expect(said, spec).toMatch(/^failed: .*(item|cell) "3 × Tea for Ann, express"/);
    },
    2 * RUN_MS,
  );
});
