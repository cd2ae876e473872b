/**
 * The paint over a typed secret is the same on every run of the same path: a screenshot
 * expectation over the window that shows it (the field it was typed into, the list that shows
 * the saved note) takes its baseline on the first run and passes on the replay, with no baseline
 * update. The paint covers the elements the app publishes there, not the OCR boxes of the moment.
 */
import { describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';

const SPEC = `name: Secret note
app:
  launch: \${env.FIXTURES}/open notes
  window: Retrace Notes
goals:
  - id: save-secret
    steps:
      - click: { text: "New" }
      - type: "\${secret.NOTE_SECRET}"
      - click: { text: "Save" }
    expect:
      - text: "Saved"
      - screenshot: secret-note
`;

describe('the paint over a secret', () => {
  const project = new Project().write('specs/secret.yaml', SPEC);

  test('is the same on the replay: the screenshot taken while learning matches', { timeout: 240_000 }, async () => {
    const env = { NOTE_SECRET: 'Zebra7Quartz' };
    // The first run writes the baseline (and fails by design: nothing was compared).
    const first = await project.cli(['run', '--update-baselines', 'missing'], env);
    expect(first.stdout + first.stderr).toMatch(/this run's screenshot was written as the new baseline/);
    expect(project.summary().goals[0]).toMatchObject({ mode: 'scripted' });
    const replay = await project.cli(['run', '--update-baselines', 'missing'], env);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    expect(project.summary().goals[0]).toMatchObject({ status: 'passed', mode: 'replayed' });
  });
});
