/**
 * The arithmetic of a goal's time split: the phases between the goal's moments add up to its
 * durationMs, the first goal of a worker counts its start from the command, later ones from the
 * worker's previous goal. The clock is Date.now(), so fake timers stand in for the moments.
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { GoalClock, displayOpening, noteDisplayOpening, runStartup, splitLine } from '../../src/runner/goal-clock.ts';

const T0 = 1_800_000_000_000;
beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('retrace.worker-clock')];
});

const step = (ms: number): void => {
  vi.setSystemTime(Date.now() + ms);
};

test('a replayed goal: launch, ready, actions, hold, check and report, adding up to its duration', async () => {
  const commandStart = T0 - 4000;
  const clock = new GoalClock(commandStart);
  step(5);
  await clock.launch(async () => step(1200));
  step(300); // the start state awaited
  clock.action();
  step(400);
  clock.action(); // later actions move nothing
  step(50);
  clock.check();
  step(250); // holding still
  clock.judged(500);
  step(500);
  const duration = clock.end();
  step(120);
  const phases = clock.phases();
  expect(phases).toEqual({ startMs: 4000, launchMs: 1200, readyMs: 305, actionsMs: 450, holdMs: 250, checkMs: 500, reportMs: 120 });
  expect(phases.launchMs + phases.readyMs + phases.actionsMs + phases.holdMs + phases.checkMs).toBe(duration);
  expect(splitLine(phases)).toBe('start 4000 · launch 1200 · ready 305 · actions 450 · hold 250 · check 500 · report 120 ms');

  // The worker's next goal starts from where this one ended, report included.
  step(30);
  const next = new GoalClock(commandStart);
  next.end();
  expect(next.phases()).toMatchObject({ startMs: 30, launchMs: 0 });
});

test('a goal that fails mid-actions has no hold or check; a relaunch after the first action is action time', async () => {
  const clock = new GoalClock(T0);
  await clock.launch(async () => step(1000));
  clock.action();
  step(200);
  await clock.launch(async () => step(900)); // --relearn's fresh app
  clock.judged(50); // a judgement outside the final check (before the first action) is not check time
  step(100);
  clock.end();
  expect(clock.phases()).toEqual({ startMs: 0, launchMs: 1000, readyMs: 0, actionsMs: 1200, holdMs: 0, checkMs: 0, reportMs: 0 });
});

test("the run's start-up: CLI, engine, display, the worker's load after it; nothing when no display opened", () => {
  expect(runStartup(T0, T0 + 640, { from: T0 + 2470, to: T0 + 3920 })).toEqual({ cliMs: 640, engineMs: 1830, displayMs: 1450 });
  expect(runStartup(T0, T0 + 640, { from: T0 + 2470, to: T0 + 3920, goal: T0 + 4570 })).toMatchObject({ loadMs: 650 });
  expect(runStartup(T0, T0 + 640, undefined)).toBeUndefined();
});

test("a worker's display opening carries its first goal's start, whichever goal comes later", () => {
  noteDisplayOpening(T0 - 1000, T0 - 200);
  new GoalClock(T0 - 5000);
  step(3000);
  new GoalClock(T0 - 5000);
  expect(displayOpening()).toEqual({ from: T0 - 1000, to: T0 - 200, goal: T0 });
});
