/**
 * The apps issue 25 added to the real-app corpus (specs/real) on an X server the test starts itself with `xvfb-run`, as a CI
 * service container gives one: no session bus, no accessibility bus, so retrace starts both for
 * the apps it launches. Learned by the rules planner, then replayed REPLAYS times, each run the
 * real CLI on a display of its own; every goal passes every time, and nothing started for or by
 * the apps is left running.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { processesWith } from '../support/processes.ts';
import { XVFB_RUN } from '../support/project.ts';
import { type CorpusRuns, learnAndReplay, NEW_DESKTOP_SPEC_FILES, realAppsProject, REPLAYS } from '../support/real-apps.ts';
import { expectLearned, expectReplayed } from '../support/real-apps-checks.ts';

const RUN_MS = 1_200_000;
const mark = `real-apps-${process.pid}-${Date.now()}`;

describe('the real-app corpus under xvfb-run', () => {
  let runs: CorpusRuns;

  beforeAll(
    async () => {
      const env = { DBUS_SESSION_BUS_ADDRESS: undefined, XDG_RUNTIME_DIR: undefined, RETRACE_TEST_MARK: mark };
      runs = await learnAndReplay(realAppsProject(), REPLAYS, { wrapper: XVFB_RUN, env, timeoutMs: RUN_MS, specs: NEW_DESKTOP_SPEC_FILES });
    },
    (REPLAYS + 1) * RUN_MS,
  );

  test('retrace starts the session services once a run, and every goal is learned offline', () => {
    expectLearned(runs.learned, NEW_DESKTOP_SPEC_FILES);
    expect(runs.learned.result.stderr.match(/has no session bus: started a session bus and an accessibility bus/g)).toHaveLength(1);
  });

  test(`every goal passes in each of ${REPLAYS} replays, with no model call`, () => {
    expectReplayed(runs, REPLAYS);
  });

  test('nothing started for or by the apps outlives the runs', async () => {
    // The watchdogs end what they guard a moment after the CLI has exited.
    await expect.poll(() => processesWith('environ', `RETRACE_TEST_MARK=${mark}`), { timeout: 5_000 }).toEqual([]);
  });
});
