/**
 * Learning records what an action changed in the app's elements once the tree has settled: the
 * Chromium order form (fixtures/apps/order) publishes the status label whose text a click on
 * "Express" changes first without its box (0 × 0, off screen), and only then with its new name.
 * Recorded from that first read, the label was "gone", and every replay reported its new name
 * as a change nobody recorded (10 of 31 benign Chromium runs of the toolkit corpus failed so).
 */
import { describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';
import { writeToolkitBase } from '../support/toolkit-corpus.ts';
import type { Path } from '../../src/domain.ts';

describe('element effects recorded on a settled tree', () => {
  test('the status label of the Chromium order form is recorded as renamed, and the path replays', async () => {
    const project = new Project();
    writeToolkitBase(project, { chromium: ['ship'] });
    const learned = await project.cli(['run', 'specs/base', '--planner', 'rules', '--update-baselines', 'changed'], {}, 300_000);
    expect(learned.code, `${learned.stdout}\n${learned.stderr}`).toBe(0);
    const path = JSON.parse(project.read('paths/specs/base/chromium/ship.path.json')) as Path;
    const labels = (path.actions[0]?.elements ?? []).filter((e) => e.role === 'label');
    expect(labels.map((e) => ({ name: e.name, after: e.after, change: e.change }))).toEqual([
      { name: 'Ready', after: { name: 'Shipping: Express' }, change: undefined },
    ]);
    const replayed = await project.cli(['run', 'specs/base', '--learn', 'off', '--strict', '--update-baselines', 'none'], {}, 300_000);
    expect(replayed.code, `${replayed.stdout}\n${replayed.stderr}`).toBe(0);
  }, 700_000);
});
