/**
 * The real-app corpus (specs/real), learned by the rules planner and replayed with --learn off,
 * through the real CLI: every goal passes both times, replay makes no model call, and the goals
 * that close a dialog end in the app's exit, recorded as the action's effect and verified again.
 * An exit nothing accounts for (no `exited:`) stays broken, with its exit code.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Path } from '../../src/domain.ts';
import type { Summary } from '../../src/report/summary.ts';
import { realAppsProject } from '../support/real-apps.ts';

const project = realAppsProject();
const RUN_MS = 300_000;

describe('the real-app corpus', () => {
  let learned: Summary;
  let replayed: Summary;

  beforeAll(async () => {
    const learn = await project.cli(['run', 'specs/real', '--paths', 'paths'], {}, RUN_MS);
    learned = project.summary();
    expect(learn.code, learn.stdout + learn.stderr).toBe(0);
    const replay = await project.cli(['run', 'specs/real', '--learn', 'off', '--paths', 'paths'], {}, RUN_MS);
    replayed = project.summary();
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
  }, 2 * RUN_MS);

  test('every goal is learned by the rules planner and replayed, all passing, with no model call on replay', () => {
    expect(learned.goals.length).toBeGreaterThanOrEqual(14);
    for (const goal of learned.goals) expect(goal, goal.message).toMatchObject({ status: 'passed', mode: 'learned', modelCalls: 0 });
    expect(replayed.goals.map((g) => g.goal).sort()).toEqual(learned.goals.map((g) => g.goal).sort());
    for (const goal of replayed.goals)
      expect(goal, goal.message).toMatchObject({ status: 'passed', mode: expect.stringMatching(/^(replayed|healed)$/) });
    expect(replayed.totals.modelCalls).toBe(0);
    const specs = new Set(learned.goals.map((g) => g.spec.replace(/^specs\/real\//, '')));
    expect([...specs].sort()).toEqual([
      'featherpad.yaml',
      'galculator.yaml',
      'gnome-calculator.yaml',
      'mousepad.yaml',
      'swing-form.yaml',
      'tk-greeter.yaml',
      'xcalc.yaml',
      'xterm.yaml',
      'zenity-entry.yaml',
      'zenity-forms.yaml',
      'zenity-list.yaml',
      'zenity-question.yaml',
    ]);
  });

  test("a goal that closes the dialog records the exit, with its code, as the last action's effect", () => {
    const yes = JSON.parse(project.read('paths/specs/real/zenity-question/yes.path.json')) as Path;
    expect(yes.actions.at(-1)?.effects).toEqual([expect.objectContaining({ kind: 'exit', exit: { code: 0, signal: null } })]);
    const no = JSON.parse(project.read('paths/specs/real/zenity-question/no.path.json')) as Path;
    expect(no.actions.at(-1)?.effects).toEqual([expect.objectContaining({ kind: 'exit', exit: { code: 1, signal: null } })]);
  });

  test(
    'an exit that no expectation accounts for is broken, with the exit code',
    async () => {
      project.write(
        'specs/crash/question.yaml',
        [
          'app:',
          '  launch: zenity --question --title "Retrace question" --text "Save?"',
          '  window: Retrace question',
          'goals:',
          '  - id: yes',
          '    goal: click "Yes"',
          '    expect:',
          '      - text: Saved',
          '',
        ].join('\n'),
      );
      const result = await project.cli(['run', 'specs/crash', '--paths', 'paths'], {}, RUN_MS);
      expect(result.code, result.stdout + result.stderr).toBe(3);
      expect(project.summary().goals[0]).toMatchObject({
        status: 'broken',
        message: expect.stringMatching(/The application exited with code 0 during the goal/),
      });
    },
    RUN_MS,
  );
});
