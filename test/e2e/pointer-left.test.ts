/**
 * The pointer's doing on an app that publishes no elements (Tk: pixels only), through the real
 * CLI. Learned where the controls draw no hover look, replayed where they do: the second click
 * moves the pointer off "Gift wrap", whose hover look goes — nothing the path recorded, yet the
 * pointer's doing, not news. A check box that unchecks itself as the pointer leaves it changes
 * the same control at the same moment, and must still fail.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';

const SPEC = `name: Hover
app:
  launch: /usr/bin/python3 \${env.FIXTURES}/tk-hover.py
  window: Retrace hover
goals:
  - id: wrap-then-one
    goal: click "Gift wrap", click "One"
    expect:
      - text: "one"
`;

const RUN_MS = 180_000;
const PIXELS_ONLY = { RETRACE_ACCESSIBILITY: 'off' };

describe('the control the pointer left, on an app without elements', () => {
  const project = new Project().write('specs/hover.yaml', SPEC);

  beforeAll(async () => {
    const learned = await project.cli(['run', '--planner', 'rules'], { ...PIXELS_ONLY, TK_HOVER: 'off' }, RUN_MS);
    expect(learned.code, learned.stdout + learned.stderr).toBe(0);
  }, RUN_MS);

  test(
    'its hover look going away passes',
    async () => {
      const replayed = await project.cli(['run', '--learn', 'off'], PIXELS_ONLY, RUN_MS);
      expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
      expect(project.summary().goals[0]).toMatchObject({ status: 'passed', mode: 'replayed' });
    },
    RUN_MS,
  );

  test(
    'a check box that unchecks itself as the pointer leaves it fails',
    async () => {
      const replayed = await project.cli(['run', '--learn', 'off'], { ...PIXELS_ONLY, TK_REVERT: '1' }, RUN_MS);
      expect(replayed.code, replayed.stdout + replayed.stderr).toBe(1);
      expect(project.summary().goals[0]).toMatchObject({ status: 'failed', mode: 'replayed' });
      expect(project.summary().goals[0]?.message).toMatch(/action 2 \(click "One"\): it also changed what its path did not record/);
    },
    RUN_MS,
  );
});
