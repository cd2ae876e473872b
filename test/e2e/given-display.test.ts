/**
 * A display retrace did not start, given in DISPLAY, through the real CLI:
 * - one with a desktop's services (a session bus and an accessibility bus): galculator learned,
 *   the pointer left by learning over "=", then replayed on the same display; the replay puts the
 *   pointer where learning parked it first, so "=" is not drawn hovered and nothing unrecorded changes;
 * - a bare X server from `xvfb-run` (no session bus, no accessibility bus): retrace starts both for
 *   the apps it launches and says so once; role targets learn and replay; nothing started for or
 *   by the app is left running afterwards.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { acquireDisplay } from '../../src/desktop/index.ts';
import type { Path } from '../../src/domain.ts';
import { processesWith } from '../support/processes.ts';
import { Project, XVFB_RUN } from '../support/project.ts';

const run = promisify(execFile);

const GALCULATOR = `name: Galculator
app:
  launch: galculator
  window: galculator
goals:
  - id: add
    goal: click button "7", click button "+", click button "8", click button "="
    expect:
      - element: { role: textarea, text: "15" }
`;

const RUN_MS = 180_000;

describe('a display given in DISPLAY', () => {
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(stops.map((stop) => stop()));
  });

  test(
    'learning leaves the pointer over "="; the replay on the same display starts it where learning parked it, and passes',
    async () => {
      const desktop = await acquireDisplay({ reuseEnv: false, size: [1280, 800] });
      stops.push(() => desktop.stop());
      const project = new Project().write('specs/galculator.yaml', GALCULATOR);
      const env = {
        DISPLAY: desktop.name,
        XAUTHORITY: desktop.env.XAUTHORITY,
        DBUS_SESSION_BUS_ADDRESS: desktop.env.DBUS_SESSION_BUS_ADDRESS,
      };
      const learned = await project.cli(['run'], env, RUN_MS);
      expect(learned.code, learned.stdout + learned.stderr).toBe(0);
      const path = JSON.parse(project.read('paths/specs/galculator/add.path.json')) as Path;
      expect(path.pointer).toBeDefined();
      // Learning ended with a click on "=": the pointer is still there, not where it was parked.
      const { stdout } = await run('xdotool', ['getmouselocation'], { env: { ...process.env, ...desktop.env } });
      const [x, y] = [/x:(\d+)/.exec(stdout)?.[1], /y:(\d+)/.exec(stdout)?.[1]].map(Number);
      expect([x, y]).not.toEqual([1279, 799]);
      const replayed = await project.cli(['run', '--learn', 'off'], env, RUN_MS);
      expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
      expect(project.summary().goals[0]).toMatchObject({ status: 'passed', mode: 'replayed' });
    },
    2 * RUN_MS,
  );

  test(
    'xvfb-run: retrace starts a session bus and an accessibility bus for its apps, says so once, role targets work, nothing is left',
    async () => {
      const project = new Project().write('specs/galculator.yaml', GALCULATOR);
      const mark = `RETRACE_TEST_MARK=given-${process.pid}-${Date.now()}`;
      const env = { DBUS_SESSION_BUS_ADDRESS: undefined, XDG_RUNTIME_DIR: undefined, RETRACE_TEST_MARK: mark.split('=')[1] };
      const learned = await project.cliUnder(XVFB_RUN, ['run'], env, RUN_MS);
      expect(learned.code, learned.stdout + learned.stderr).toBe(0);
      expect(learned.stderr.match(/has no session bus: started a session bus and an accessibility bus/g)).toHaveLength(1);
      const path = JSON.parse(project.read('paths/specs/galculator/add.path.json')) as Path;
      expect(path.actions.map((a) => a.anchor?.element?.name)).toEqual(['7', '+', '8', '=']);
      const replayed = await project.cliUnder(XVFB_RUN, ['run', '--learn', 'off'], env, RUN_MS);
      expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
      expect(project.summary().goals[0]).toMatchObject({ status: 'passed', mode: 'replayed' });
      // The watchdogs end what they guard a moment after the CLI has exited.
      await expect.poll(() => processesWith('environ', mark), { timeout: 5_000 }).toEqual([]);
    },
    2 * RUN_MS,
  );
});
