/**
 * Java Swing through the real CLI: a form compiled here from fixtures/apps/SwingForm.java. With
 * the ATK wrapper installed, retrace switches the bridge on for the JVM, so `type … into entry
 * "Name"` finds the field by the label that names it; typing waits for the field's focus and
 * text, so no key is lost; replays pass. With `app.accessibility: off` the app publishes nothing.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Path } from '../../src/domain.ts';
import { Project, REPO } from '../support/project.ts';

const run = promisify(execFile);
const RUN_MS = 180_000;
const REPLAYS = 3;

const spec = (accessibility: 'on' | 'off'): string => `name: Swing form
app:
  launch: java -cp \${env.SWING_CLASSES} SwingForm
  window: Retrace Swing form
  accessibility: ${accessibility}
goals:
  - id: save
    goal: type "Alice" into entry "Name", type "Paris" into entry "City", click button "Save"
    expect:
      - text: Saved Alice from Paris
`;

const project = new Project().write('specs/swing.yaml', spec('on')).write('specs-off/swing.yaml', spec('off'));
const classes = join(project.root, 'classes');
const env = { SWING_CLASSES: classes };

describe.skipIf(!existsSync('/usr/share/java/java-atk-wrapper.jar'))('a Java Swing form', () => {
  beforeAll(async () => {
    await run('javac', ['-d', classes, join(REPO, 'fixtures', 'apps', 'SwingForm.java')]);
  }, 60_000);

  test(
    `publishes through the ATK wrapper; learned by its fields' labels; ${REPLAYS} replays pass`,
    async () => {
      const learned = await project.cli(['run', 'specs'], env, RUN_MS);
      expect(learned.code, learned.stdout + learned.stderr).toBe(0);
      const path = JSON.parse(project.read('paths/specs/swing/save.path.json')) as Path;
      expect(path.actions.map((a) => [a.anchor?.element?.role, a.anchor?.element?.name])).toEqual([
        ['entry', 'Name'],
        ['entry', 'City'],
        ['button', 'Save'],
      ]);
      for (let i = 0; i < REPLAYS; i++) {
        const replayed = await project.cli(['run', 'specs', '--learn', 'off'], env, RUN_MS);
        expect(replayed.code, `replay ${i + 1}: ${replayed.stdout}${replayed.stderr}`).toBe(0);
        expect(project.summary().goals[0]).toMatchObject({ status: 'passed', mode: 'replayed' });
      }
    },
    (REPLAYS + 2) * RUN_MS,
  );

  test(
    'with app.accessibility: off the JVM gets no bridge, so its fields cannot be found by role',
    async () => {
      const result = await project.cli(['run', 'specs-off', '--paths', 'paths-off'], env, RUN_MS);
      expect(result.code, result.stdout + result.stderr).toBe(1);
      expect(project.summary().goals[0]?.message).toMatch(/publishes no elements/);
    },
    RUN_MS,
  );
});
