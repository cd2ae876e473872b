/**
 * The app's end as a result: an action that closes the app records an `exit` effect, its replay
 * verifies the app ended again with the same code, and an `exited:` expectation checks it. An
 * exit nothing accounts for stays a fault (the goal is broken). On the counter app in memory,
 * whose "Reset" quits it (as a dialog's button closes the dialog).
 */
import { describe, expect, test } from 'vitest';
import type { Action } from '../../src/domain.ts';
import { InfrastructureError } from '../../src/errors.ts';
import { checkExpectations, type CheckContext } from '../../src/brain/assert/check.ts';
import { learn } from '../../src/brain/learner.ts';
import { ActionCycle } from '../../src/brain/cycle.ts';
import { RulesPlanner } from '../../src/brain/planners/rules-planner.ts';
import { parsePathFile } from '../../src/paths/validate.ts';
import { CounterApp, FakeDesktop, RESET } from '../support/fake-desktop.ts';
import { clickAdd, learnOn, learnPath, OPTIONS, replayOn } from '../support/fake-replay.ts';

const clickReset = { kind: 'click', target: { x: RESET.x + 30, y: RESET.y + 14 } } as const satisfies Action;
const quitting = (code: number) => new FakeDesktop(new CounterApp({ quitCode: code }));

describe('an action that ends the app', () => {
  const learned = learnOn(quitting(0), [clickAdd, clickReset]);

  test("learning records the exit, with its code, as the action's one effect", async () => {
    const { path } = await learned;
    const last = path.actions[1]!;
    expect(last.effects).toEqual([{ region: { x: 0, y: 0, width: 240, height: 160 }, kind: 'exit', exit: { code: 0, signal: null } }]);
    expect(last.anchor?.box).toBeDefined();
    expect(path.actions[0]!.effects.some((e) => e.kind === 'exit')).toBe(false);
    expect(parsePathFile('add.path.json', JSON.stringify(path)).actions[1]?.effects).toEqual(last.effects);
  });

  test('its replay verifies that the app ended again', async () => {
    const { done } = replayOn({ quitCode: 0, quitMs: 30 }, await learned);
    const result = await done;
    expect(result.failure).toBeUndefined();
    expect(result.reports.map((r) => r.verified)).toEqual([true, true]);
  });

  test('an app that ends with another code did not do what was recorded', async () => {
    const { done } = replayOn({ quitCode: 3 }, await learned);
    const result = await done;
    expect(result.failure).toMatchObject({ category: 'effect-not-verified', index: 1 });
    expect(result.failure?.message).toMatch(/the application exited with code 3 \(recorded: it exited with code 0\)/);
  });

  test('an app that lives on did not do what was recorded', async () => {
    const { done } = replayOn({}, await learned);
    const result = await done;
    expect(result.failure).toMatchObject({ category: 'effect-not-verified', index: 1 });
    expect(result.failure?.message).toMatch(
      /the application was to end \(recorded: it exited with code 0\), but it still runs 500 ms later/,
    );
  });

  test('an exit during an action whose path did not record one is a fault, with the exit code', async () => {
    const { done } = replayOn({ quitCode: 0 }, await learnPath([clickAdd, clickReset]));
    await expect(done).rejects.toThrow(InfrastructureError);
    await expect(done).rejects.toThrow(/The application exited with code 0 during the goal/);
  });

  test('a plan with actions left after the app ended stops with an error', async () => {
    const desktop = quitting(0);
    const stage = desktop.stage();
    const lesson = await learn({
      stage,
      planner: new RulesPlanner([clickReset, clickAdd]),
      cycle: new ActionCycle(stage, OPTIONS),
      bounds: { maxSteps: 5, maxModelCalls: 10, maxTokens: 1000, maxWallMs: 10_000 },
      dynamic: [],
      assets: new Map(),
    });
    expect(lesson.stopReason).toBe('error');
    expect(lesson.message).toMatch(/the application exited with code 0 after "click \(130, 34\)", before "click \(50, 34\)"$/);
  });
});

describe('exited: expectations', () => {
  const context = { expectMs: 300 } as CheckContext;

  test('hold when the app ended with the code (or with any), and fail when it lives on', async () => {
    const desktop = quitting(2);
    const stage = desktop.stage();
    const alive = await checkExpectations(stage, [{ kind: 'exited', code: 'any', line: 1 }], context);
    expect(alive[0]).toMatchObject({
      kind: 'exited',
      ok: false,
      message: 'expected the application to exit, but it is still running after 300 ms',
    });
    await desktop.input.click({ x: 50 + RESET.x + 5, y: 40 + RESET.y + 5 });
    const results = await checkExpectations(
      stage,
      [
        { kind: 'exited', code: 2, line: 1 },
        { kind: 'exited', code: 'any', line: 2 },
        { kind: 'exited', code: 0, line: 3 },
        { kind: 'text', text: 'COUNT 0', match: 'contains', line: 4 },
      ],
      context,
    );
    expect(results.map((r) => [r.ok, r.message])).toEqual([
      [true, 'the application exited with code 2'],
      [true, 'the application exited with code 2'],
      [false, 'expected the application to exit with code 0, but it exited with code 2'],
      [false, 'the application exited with code 2 before it could be checked'],
    ]);
  });
});
