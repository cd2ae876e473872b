/**
 * The verdict table of issue 12, on the three-click counter (fixtures/apps/counter): the goal is
 * learned once on the base app, then replayed with `--learn off --strict` on each of its variants,
 * as a user's CI would after a product change. Each row says what the verdict must be and why:
 * a regression that passes is a silent incorrect success; a benign change that fails, an over-halt.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';
import { VARIANTS, writeBaseSpecs, writeVariantSpecs, type Variant } from '../support/corpus.ts';
import type { Summary } from '../../src/report/summary.ts';

type Goal = Summary['goals'][number];

const counter = (query: string): Variant => {
  const variant = VARIANTS.find((v) => v.app === 'counter' && v.query === query);
  if (!variant) throw new Error(`variants.json has no counter variant "${query}"`);
  return variant;
};

/**
 * The rows of issue 12's table, the 6 s reaction of issue 17 ("an action was done twice"), and its
 * final result that reverts after 300 ms.
 */
const ROWS = [
  'swallow=3',
  'bug=error-toast',
  'theme=dark',
  'layout=swapped',
  'bug=revert',
  'bug=double-click',
  'pad=40',
  'clock=on',
  'delay=400',
  'delay=6000',
  'bug=revert&revertAt=3&revert=300',
].map(counter);

describe('the counter variants of issue 12', () => {
  const project = new Project();
  const results = new Map<string, Goal>();

  beforeAll(async () => {
    writeBaseSpecs(project, ['counter']);
    const learned = await project.cli(['run', 'specs/base', '--update-baselines', 'changed'], {}, 120_000);
    expect(learned.code, `learning the counter failed:\n${learned.stdout}\n${learned.stderr}`).toBe(0);
    const ids = writeVariantSpecs(project, ROWS);
    await project.cli(['run', 'specs/variants', '--learn', 'off', '--strict', '--update-baselines', 'none', '--workers', '2'], {}, 240_000);
    for (const goal of project.summary().goals) results.set((ids.get(goal.spec) as Variant).query, goal);
  }, 400_000);

  const verdict = (query: string): Goal => {
    const goal = results.get(query);
    if (!goal) throw new Error(`no verdict for counter ${query}`);
    return goal;
  };
  const retries = (goal: Goal): number => goal.actions.reduce((n, a) => n + a.retries, 0);

  test('a swallowed third click fails on that click: done again and failed under --strict, or not done again because the window moved', () => {
    const goal = verdict('swallow=3');
    expect(goal.status, goal.message).toBe('failed');
    expect(goal.failedAction).toBe(2);
    // A retry needs the exact before-state after the whole time limit (src/brain/replay-step.ts);
    // whichever happened, the report says it.
    const retried = (goal.actions[2]?.retries ?? 0) > 0;
    expect(goal.message).toMatch(retried ? /appeared only when it was done again \(1 retry\)/ : /its effect did not verify/);
  });

  test('an error toast after the last click fails the goal as a change nobody recorded, naming its text', () => {
    const goal = verdict('bug=error-toast');
    expect(goal.status).toBe('failed');
    expect(goal.category).toBe('unexpected-change');
    expect(goal.message).toContain('Error: the result could not be saved');
    expect(goal.actions[goal.failedAction ?? -1]?.evidence?.length).toBeGreaterThan(0);
  });

  test.each(['bug=revert', 'bug=double-click', 'bug=revert&revertAt=3&revert=300'])('%s fails', (query) => {
    expect(verdict(query).status).toBe('failed');
  });

  test.each(['theme=dark', 'layout=swapped', 'pad=40', 'clock=on', 'delay=400'])('%s passes, with no action done again', (query) => {
    const goal = verdict(query);
    expect(goal.status, goal.message).toBe('passed');
    expect(retries(goal)).toBe(0);
  });

  test('a layout moved by 40 px heals, and says why: which action, which rung, how far', () => {
    const goal = verdict('pad=40');
    expect(goal.mode).toBe('healed');
    expect(goal.actions[0]?.healed).toMatch(/^target found by \w+, moved by 40, 40 px/);
  });

  test('an app that reacts after 6 s passes, and no click was done twice (the count is 3, not more)', () => {
    const goal = verdict('delay=6000');
    expect(goal.status, goal.message).toBe('passed');
    expect(retries(goal)).toBe(0);
    expect(goal.actions.map((a) => a.kind)).toEqual(['click', 'click', 'click']);
  });
});
