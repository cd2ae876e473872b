/**
 * Portability (issue 24): a path learned at scale 1 in the light look replays green at scale 2,
 * in the dark look, with a font 2 px larger and a window 30 % larger — on the GTK 3 and the Qt 5
 * order forms of the toolkit corpus (fixtures/apps/order), both publishing their elements, through
 * the real CLI. And it still catches a wrong result there: a list not updated (`bug=list-stale`),
 * while the total and the status line say it was, fails.
 */
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import type { Path } from '../../src/domain.ts';
import { Project } from '../support/project.ts';
import { TOOLKIT_DISPLAY } from '../support/toolkit-corpus.ts';

const RUN_MS = 300_000;

const GOAL = 'type "Tea" into entry "Item", type "3" into entry "Count", click radio "Express", click button "Add"';

/** The corpus' forms; `varied` is their portability case (toolkits.json): scale 2, dark, font +2 px, window +30 %. */
const TOOLKITS = {
  gtk: {
    script: 'gtk-order.py',
    window: 'Retrace GTK order',
    env: {},
    varied: { args: ['look=font', 'look=bigger'], env: { GTK_THEME: 'Adwaita:dark', GDK_SCALE: '2' } },
  },
  qt: {
    script: 'qt-order.py',
    window: 'Retrace Qt order',
    env: { QT_ACCESSIBILITY: '1', QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1' },
    varied: { args: ['look=dark', 'look=font', 'look=bigger'], env: { QT_SCALE_FACTOR: '2' } },
  },
} as const;
type Toolkit = keyof typeof TOOLKITS;

interface Variant {
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

function spec(toolkit: Toolkit, { args = [], env = {} }: Variant): string {
  const { script, window } = TOOLKITS[toolkit];
  const launch = `/usr/bin/python3 \${env.FIXTURES}/order/${script}${args.length ? ` ${args.join(',')}` : ''}`;
  return stringify({
    app: {
      launch,
      window,
      ...(Object.keys({ ...TOOLKITS[toolkit].env, ...env }).length ? { env: { ...TOOLKITS[toolkit].env, ...env } } : {}),
    },
    goals: [{ id: 'order', goal: GOAL, expect: [{ text: 'Total: 3' }] }],
  });
}

/** The variant replays the base path: it is copied under the variant spec's name. */
function variant(project: Project, toolkit: Toolkit, name: string, v: Variant): void {
  project.write(`specs/${name}/${toolkit}.yaml`, spec(toolkit, v));
  const from = join(project.root, 'paths/specs/base');
  if (existsSync(from)) cpSync(from, join(project.root, `paths/specs/${name}`), { recursive: true });
}

describe('a path learned on the GTK 3 and the Qt 5 order forms', () => {
  const project = new Project();
  const status = (): Record<string, string> =>
    Object.fromEntries(
      project
        .summary()
        .goals.map((g) => [g.spec.split('/').slice(-2).join('/'), `${g.status}${g.message ? `: ${g.message.split('\n')[0]}` : ''}`]),
    );

  beforeAll(async () => {
    project.write('retrace.config.yaml', stringify({ display: { size: [...TOOLKIT_DISPLAY] } }));
    for (const toolkit of Object.keys(TOOLKITS) as Toolkit[]) project.write(`specs/base/${toolkit}.yaml`, spec(toolkit, {}));
    const learned = await project.cli(['run', 'specs/base', '--paths', 'paths'], {}, RUN_MS);
    expect(learned.code, learned.stdout + learned.stderr).toBe(0);
  }, RUN_MS);

  test('records element effects: the list row that appeared and the status line, the pixels on them kept as evidence', () => {
    for (const toolkit of Object.keys(TOOLKITS) as Toolkit[]) {
      const path = JSON.parse(project.read(`paths/specs/base/${toolkit}/order.path.json`)) as Path;
      const add = path.actions.at(-1)!;
      expect(add.elements, `${toolkit}: ${JSON.stringify(add.elements)}`).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ change: 'appeared', name: 'Tea: 3' }),
          expect.objectContaining({ role: 'label', after: expect.objectContaining({ name: 'Added Tea' }) }),
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
    'fails a list not updated, though the total and the status line say it was, in the base look and the varied one',
    async () => {
      for (const toolkit of Object.keys(TOOLKITS) as Toolkit[]) {
        const { args, env } = TOOLKITS[toolkit].varied;
        variant(project, toolkit, 'bug', { args: ['bug=list-stale'] });
        variant(project, toolkit, 'bug-varied', { args: [...args, 'bug=list-stale'], env });
      }
      await project.cli(
        ['run', 'specs/bug', 'specs/bug-varied', '--learn', 'off', '--update-baselines', 'none', '--paths', 'paths'],
        {},
        RUN_MS,
      );
      const got = status();
      expect(Object.keys(got).sort()).toEqual(['bug-varied/gtk.yaml', 'bug-varied/qt.yaml', 'bug/gtk.yaml', 'bug/qt.yaml']);
      for (const [spec, said] of Object.entries(got)) expect(said, spec).toMatch(/^failed: .*"Tea: 3"/);
    },
    2 * RUN_MS,
  );
});
