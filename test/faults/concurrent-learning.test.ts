/**
 * Two forced learning runs of the same goal at once, on a 2-core machine: each starts its own
 * display and browser, so typing is slowed by the other. Whatever each saved, the path that ends
 * up in paths/ must replay, or nothing is saved: a recording caught half typed is never kept.
 */
import { describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';
import { notesSpec } from '../support/specs.ts';

describe('two forced learning runs at once', () => {
  test('the saved path replays, or nothing is saved', { timeout: 300_000 }, async () => {
    const project = new Project().write('specs/notes.yaml', notesSpec('Buy milk and eggs, then call the plumber about the sink'));
    const runs = await Promise.all(
      ['a', 'b'].map((who) => project.cli(['run', '--learn', 'force', '--reports', `reports-${who}`, '--workers', '1'])),
    );
    for (const run of runs) expect([0, 1], run.stdout + run.stderr).toContain(run.code);
    if (!project.exists('paths/specs/notes/save.path.json')) {
      // Both recordings were refused: that is allowed, a wrong one is not.
      expect(runs.every((r) => r.code === 1)).toBe(true);
      return;
    }
    const replay = await project.cli(['run', '--learn', 'off']);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    expect(project.summary().goals[0]).toMatchObject({ status: 'passed', mode: 'replayed' });
  });
});
