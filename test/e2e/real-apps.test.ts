/**
 * The real-app corpus (specs/real) on retrace's own display, through the real CLI: learned by the
 * rules planner (or its steps), then replayed with --learn off (the apps issue 25 added REPLAYS
 * times, the others once); every goal passes every time with no model call, and the goals that
 * close a dialog end in the app's exit, recorded as the action's effect and verified again. An
 * exit nothing accounts for (no `exited:`) stays broken, with its exit code.
 * test/e2e/real-apps-xvfb-run.test.ts runs the apps on a bare X server.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Path } from '../../src/domain.ts';
import { type CorpusRuns, learnAndReplay, NEW_DESKTOP_SPEC_FILES, realAppsProject, REPLAYS } from '../support/real-apps.ts';
import { expectLearned, expectReplayed } from '../support/real-apps-checks.ts';

const project = realAppsProject();
const RUN_MS = 1_200_000;

describe('the real-app corpus', () => {
  let runs: CorpusRuns;

  beforeAll(
    async () => {
      // The apps issue 25 added are replayed REPLAYS times; the older ones once, as before (all of
      // them five times took 11 of CI's 30 minutes).
      runs = await learnAndReplay(project, REPLAYS, { timeoutMs: RUN_MS, repeat: NEW_DESKTOP_SPEC_FILES });
    },
    (REPLAYS + 1) * RUN_MS,
  );

  test('every goal is learned offline, with no model call', () => {
    expectLearned(runs.learned);
  });

  test(`every goal passes in each of ${REPLAYS} replays, with no model call`, () => {
    expectReplayed(runs, REPLAYS);
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
