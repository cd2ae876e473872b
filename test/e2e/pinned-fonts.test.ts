/**
 * A baseline taken on one machine passes on another with more fonts installed. The other machine
 * is this one with fonts-noto-mono besides (test/support/other-fonts.ts: its fontconfig, given to
 * retrace as FONTCONFIG_FILE), where Debian's rules draw every "monospace" text in Noto Sans Mono:
 * the case that failed the committed baselines of mousepad and FeatherPad on a CI machine. The
 * real apps (GTK 3 and Qt 5) are checked against those very baselines, on retrace's display and on
 * one that xvfb-run started; and, as the control, with the other machine's fontconfig handed to the
 * apps (a spec's app.env wins over retrace's), where the same screenshots differ.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Summary } from '../../src/report/summary.ts';
import { otherMachineFontconfig } from '../support/other-fonts.ts';
import { Project, REPO } from '../support/project.ts';
import { REAL_SPECS } from '../support/real-apps.ts';

const RUN_MS = 240_000;
/** The apps whose text is monospace, so that the extra font would draw it. */
const APPS = ['mousepad', 'featherpad'];

const projectOf = (appEnv?: Record<string, string>): Project => {
  const project = new Project();
  for (const app of APPS) {
    const spec = readFileSync(join(REAL_SPECS, `${app}.yaml`), 'utf8');
    const env =
      appEnv &&
      `  env:\n${Object.entries(appEnv)
        .map(([k, v]) => `    ${k}: ${JSON.stringify(v)}\n`)
        .join('')}`;
    project.write(`specs/real/${app}.yaml`, env ? spec.replace(/^app:\n/m, `app:\n${env}`) : spec);
    cpSync(join(REPO, 'fixtures', 'baselines', 'specs', 'real', app), join(project.root, 'fixtures', 'baselines', 'specs', 'real', app), {
      recursive: true,
    });
  }
  return project;
};

const screenshotGoals = (summary: Summary): string[] => summary.goals.map((g) => `${g.spec}#${g.goal}`).sort();

describe('pinned fonts', () => {
  const other = otherMachineFontconfig();

  test(
    "the committed baselines pass on a machine with more fonts: on retrace's display and on one xvfb-run started",
    async () => {
      const project = projectOf();
      const own = await project.cli(['run', 'specs/real', '--paths', 'paths'], { FONTCONFIG_FILE: other }, RUN_MS);
      expect(own.code, own.stdout + own.stderr).toBe(0);
      const summary = project.summary();
      expect(screenshotGoals(summary)).toEqual(['specs/real/featherpad.yaml#type', 'specs/real/mousepad.yaml#type']);
      for (const goal of summary.goals) expect(goal, goal.message).toMatchObject({ status: 'passed' });

      const given = await project.cliUnder(
        ['xvfb-run', '-a', '-s', '-screen 0 1280x800x24'],
        ['run', 'specs/real', '--learn', 'off', '--paths', 'paths'],
        { FONTCONFIG_FILE: other },
        RUN_MS,
      );
      expect(given.code, given.stdout + given.stderr).toBe(0);
      for (const goal of project.summary().goals) expect(goal, goal.message).toMatchObject({ status: 'passed' });
    },
    3 * RUN_MS,
  );

  test(
    "control: with the other machine's fontconfig in the apps' own environment, the same screenshots differ",
    async () => {
      const project = projectOf({ FONTCONFIG_FILE: other });
      const result = await project.cli(['run', 'specs/real', '--paths', 'paths'], {}, RUN_MS);
      expect(result.code, result.stdout + result.stderr).toBe(1);
      const summary = project.summary();
      expect(screenshotGoals(summary)).toEqual(['specs/real/featherpad.yaml#type', 'specs/real/mousepad.yaml#type']);
      for (const goal of summary.goals) {
        expect(goal, goal.message).toMatchObject({
          status: 'failed',
          message: expect.stringMatching(/-typed-linux-\d+x\d+\.png: .*pixels/),
        });
      }
    },
    2 * RUN_MS,
  );
});
