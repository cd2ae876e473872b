/**
 * --relearn never turns a regression into the path (issue 17): on the counter app in memory, a
 * goal with a weak expectation ("COUNT", on screen before the goal began) is recorded; the app
 * then counts 2 a click. The replay fails, the relearn passes — only because the expectation is
 * weak — and yet the goal fails, the recorded path stays, and the relearned one is a proposal.
 * A relearn that fails too is reported beside the replay's failure, never instead of it.
 */
import { afterAll, expect, test } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGoal, type GoalRunInput } from '../../src/brain/run-goal.ts';
import { PathStore } from '../../src/paths/store.ts';
import { DEFAULT_OPTIONS } from '../../src/spec-file/defaults.ts';
import type { GoalSpec, Spec } from '../../src/spec-file/types.ts';
import { CounterApp, FakeDesktop, type CounterOptions } from '../support/fake-desktop.ts';
import { glyphReader } from '../support/glyphs.ts';
import { clickAdd } from '../support/fake-replay.ts';

const dir = mkdtempSync(join(tmpdir(), 'retrace-relearn-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A goal on the counter app in memory, with --relearn, on the variant `app.variant` when it runs. */
function counterGoal(id: string, expected: string): { input: GoalRunInput; store: PathStore; app: { variant: CounterOptions } } {
  const goal: GoalSpec = { id, steps: [clickAdd], expect: [{ kind: 'text', text: expected, match: 'contains', line: 5 }], line: 3 };
  const spec: Spec = {
    file: join(dir, 'specs/counter.yaml'),
    id: 'specs/counter.yaml',
    name: 'counter',
    app: { launch: 'counter', window: 'Counter', restart: 'goal', env: {}, animations: 'off', accessibility: 'on', isolate: false },
    goals: [goal],
  };
  const app = { variant: {} as CounterOptions };
  const same = (t: string): string => t;
  const input: GoalRunInput = {
    spec,
    goal,
    options: {
      ...DEFAULT_OPTIONS,
      paths: join(dir, 'paths'),
      relearn: true,
      timeouts: { ...DEFAULT_OPTIONS.timeouts, actionMs: 1000, settleMs: 2000, expectMs: 0 },
    },
    baselinesDir: join(dir, 'baselines'),
    check: { resolveText: same, display: same, mask: same },
    resolveText: same,
    stage: async () => new FakeDesktop(new CounterApp(app.variant)).stage(undefined, glyphReader),
  };
  return { input, store: new PathStore(input.options.paths), app };
}

test('a relearn that passes on a regressed app fails the goal and only proposes its path', { timeout: 60_000 }, async () => {
  const { input, store, app } = counterGoal('add', 'COUNT');
  const { spec, goal } = input;

  const recorded = await runGoal(input);
  expect(recorded).toMatchObject({ mode: 'scripted' });
  expect(recorded.mismatch).toBeUndefined();
  expect(recorded.warnings?.[0]).toMatch(/text "COUNT" \(line 5\) already held before the goal's first action/);
  const path = store.read(spec.id, goal.id);

  app.variant = { step: 2 };
  const relearned = await runGoal(input);
  expect(relearned.mode).toBe('relearned');
  expect(relearned.mismatch?.category).toBe('effect-not-verified');
  expect(relearned.mismatch?.message).toMatch(
    /learned again \(--relearn\): the new path reaches the goal and is proposed beside the recorded one, not used/,
  );
  expect(store.read(spec.id, goal.id)).toEqual(path);
  // The recorded path keeps the count of 1; the proposal learned the regression's count of 2.
  expect(path?.actions[0]?.effects.map((e) => e.text)).toContain('1');
  expect(store.readProposal(spec.id, goal.id)?.actions[0]?.effects.map((e) => e.text)).toContain('2');
});

test("a relearn that fails too is reported after the replay's failure", { timeout: 60_000 }, async () => {
  const { input, store, app } = counterGoal('add-one', '1');
  expect((await runGoal(input)).mismatch).toBeUndefined();
  const path = store.read(input.spec.id, input.goal.id);

  app.variant = { dead: true };
  const relearned = await runGoal(input);
  expect(relearned.mode).toBe('relearned');
  // The replay's failure is the verdict: its category, its action, its message first.
  expect(relearned.mismatch).toMatchObject({ category: 'effect-not-verified', failedAction: 0 });
  expect(relearned.mismatch?.message).toMatch(
    /^action 1 \(click .*\): its effect did not verify[^\n]*\nlearned again \(--relearn\), and that failed too: .*"1"/s,
  );
  expect(store.read(input.spec.id, input.goal.id)).toEqual(path);
  expect(store.readProposal(input.spec.id, input.goal.id)).toBeUndefined();
});
