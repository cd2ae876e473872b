/**
 * The action cycle, the ladder and verification on a desktop in memory (no display): a path is
 * learned on the counter app, then replayed against variants of it.
 */
import { describe, expect, test } from 'vitest';
import { resolveTarget, windowScales } from '../../src/brain/ladder.ts';
import { RUNGS } from '../../src/brain/thresholds.ts';
import { crop, decodePng, scale } from '../../src/vision/frame.ts';
import { loadImage } from '../vision/helpers.ts';
import { ADD, CounterApp, FakeDesktop, WORDS } from '../support/fake-desktop.ts';
import { clickAdd, learnPath, replayOn } from '../support/fake-replay.ts';

describe('the action cycle on an app in memory', () => {
  const learned = learnPath([clickAdd, clickAdd, clickAdd]);

  test('learning records an anchor and the region each click changed', async () => {
    const { path, assets } = await learned;
    expect(path.actions).toHaveLength(3);
    for (const action of path.actions) {
      expect(action.anchor?.box).toBeDefined();
      expect(action.effects.length).toBeGreaterThan(0);
      for (const effect of action.effects) expect(assets.has(effect.image!)).toBe(true);
    }
  });

  test('a replay of the same app verifies every action at its recorded place', async () => {
    const { desktop, done } = replayOn({}, await learned);
    const result = await done;
    expect(result.failure).toBeUndefined();
    expect(result.healed).toBe(false);
    expect(result.reports.map((r) => [r.verified, r.resolvedBy, r.retries])).toEqual([
      [true, 'recorded', 0],
      [true, 'recorded', 0],
      [true, 'recorded', 0],
    ]);
    expect(desktop.app.count).toBe(3);
    for (const r of result.reports) expect(r.ms).toBeGreaterThanOrEqual(r.waitMs + r.resolveMs + r.actMs + r.settleMs - 1);
  });

  test('a moved layout is healed by the template rung, and the whole path is proposed anew', async () => {
    const { desktop, done } = replayOn({ offset: { x: 30, y: 12 } }, await learned);
    const result = await done;
    expect(result.failure).toBeUndefined();
    expect(result.healed).toBe(true);
    expect(result.reports[0]?.resolvedBy).toBe('template');
    expect(desktop.app.count).toBe(3);
    expect(result.observed.actions[0]?.anchor?.point).toEqual({ x: ADD.x + 30 + 30, y: ADD.y + 14 + 12 });
  });

  test('a click the app swallows is done again, and the retry is in the report', async () => {
    const { desktop, done } = replayOn({ swallow: [2] }, await learned);
    const result = await done;
    expect(result.reports.map((r) => r.retries)).toEqual([0, 1, 0]);
    expect(desktop.events.filter((e) => e.kind === 'click')).toHaveLength(4);
  });

  test('an app that ignores the click is a failed verification, returned as a value', async () => {
    const { desktop, done } = replayOn({ dead: true }, await learned);
    const result = await done;
    expect(result.failure).toMatchObject({ category: 'effect-not-verified', index: 0 });
    expect(result.failure?.message).toMatch(/the screen did not change at all/);
    expect(result.reports).toHaveLength(1);
    expect(result.reports[0]).toMatchObject({ verified: false, retries: 1 });
    expect(desktop.events.filter((e) => e.kind === 'click')).toHaveLength(2);
  });

  test('a missing control is a target not found, returned as a value, and nothing is clicked', async () => {
    const { desktop, done } = replayOn({ withoutAdd: true }, await learned);
    const result = await done;
    expect(result.failure).toMatchObject({ category: 'target-not-found', index: 0 });
    expect(desktop.events.filter((e) => e.kind === 'click')).toHaveLength(0);
  });

  test('an app that reacts late is waited for', async () => {
    const { desktop, done } = replayOn({ reactMs: 250 }, await learned);
    const result = await done;
    expect(result.failure).toBeUndefined();
    expect(result.reports.every((r) => r.settleMs >= 200)).toBe(true);
    expect(desktop.app.count).toBe(3);
  });

  test('learning records an effect only once it stopped changing: one drawn in two steps is recorded whole', async () => {
    // The words follow the blocks 150 ms later: a short quiet window would record the blocks
    // with the old words, a recording every replay then fails.
    const lagging = { wordsLagMs: 150 };
    const slow = await learnPath([clickAdd, clickAdd], lagging);
    const last = slow.path.actions[1]!;
    const words = last.effects.map((e) => e.region).filter((r) => r.y >= WORDS.y - 4);
    expect(words.length, 'the words are part of the recorded effect').toBeGreaterThan(0);
    const { done } = replayOn(lagging, slow);
    const result = await done;
    expect(result.failure).toBeUndefined();
    expect(result.reports.map((r) => r.verified)).toEqual([true, true]);
  });

  test('an aborted goal stops at once and touches the app no more', async () => {
    const deadline = new AbortController();
    const { desktop, done } = replayOn({ reactMs: 300 }, await learned, { signal: deadline.signal });
    const reason = new Error('the goal did not finish in time');
    setTimeout(() => deadline.abort(reason), 150);
    await expect(done).rejects.toBe(reason);
    const abortedAt = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(desktop.events.filter((e) => e.at > abortedAt)).toEqual([]);
    expect(desktop.app.count).toBeLessThan(3);
  });
});

describe('the ladder is data', () => {
  test('the element rung runs first (the surest, where the app publishes elements), then the cheapest to the dearest', () => {
    expect(RUNGS.map((r) => r.name)).toEqual(['element', 'recorded', 'template', 'ocr', 'model']);
  });

  test("a rung's margin over the runner-up decides whether its finding is taken", async () => {
    const { path, assets } = await learnPath([clickAdd]);
    const desktop = new FakeDesktop(new CounterApp({ offset: { x: 30, y: 12 } }));
    const stage = desktop.stage();
    const anchor = path.actions[0]!.anchor!;
    const input = {
      stage,
      shot: await stage.shoot(),
      anchor,
      anchorImage: decodePng(assets.get(anchor.image)!),
      target: clickAdd.target,
      resolveText: (t: string) => t,
      description: 'click Add',
    };
    const found = await resolveTarget(input);
    expect(found).toMatchObject({ resolvedBy: 'template', offset: { x: 30, y: 12 } });
    const demanding = RUNGS.map((r) => (r.name === 'template' ? { ...r, margin: 1 } : r));
    const refused = await resolveTarget(input, demanding);
    expect(refused.point).toBeUndefined();
    expect(refused).toMatchObject({ candidate: { x: anchor.box.x + 30, y: anchor.box.y + 12 } });
  });

  test('each rung that looked is told, with its score, runner-up, box and whether it was taken (for the trace)', async () => {
    const { path, assets } = await learnPath([clickAdd]);
    const stage = new FakeDesktop(new CounterApp({ offset: { x: 30, y: 12 } })).stage();
    const anchor = path.actions[0]!.anchor!;
    const shot = await stage.shoot();
    const input = {
      stage,
      shot,
      anchor,
      anchorImage: decodePng(assets.get(anchor.image)!),
      target: clickAdd.target,
      resolveText: (t: string) => t,
      description: 'click Add',
    };
    const found = await resolveTarget(input);
    const moved = { x: anchor.box.x + 30, y: anchor.box.y + 12, width: anchor.box.width, height: anchor.box.height };
    expect(found.tried.map((t) => [t.rung, t.accepted])).toEqual([
      ['recorded', false],
      ['template', true],
    ]);
    expect(found.tried[0]).toMatchObject({ box: anchor.box, score: expect.any(Number) });
    expect(found.tried[1]).toMatchObject({ box: moved });
    expect(found.tried[1]!.score).toBeGreaterThan(found.tried[0]!.score);
    const refused = await resolveTarget(
      input,
      RUNGS.map((r) => (r.name === 'template' ? { ...r, margin: 1 } : r)),
    );
    expect(refused.tried.find((t) => t.rung === 'template')).toMatchObject({ box: moved, accepted: false });
  });

  test("a window drawn larger is searched at its scale: the anchor's point keeps its place in the key", async () => {
    // A real keypad (look-alike keys), recorded at scale 1, now drawn 1.5 times as large.
    const calc = loadImage('galculator');
    const box = { x: 5, y: 182, width: 61, height: 36 };
    const anchor = { point: { x: 35, y: 200 }, box, image: 'seven.png' };
    const large = scale(calc, calc.width * 1.5, calc.height * 1.5);
    const stage = new FakeDesktop(new CounterApp()).stage();
    const input = {
      stage,
      shot: { ...(await stage.shoot()), frame: large },
      anchor,
      anchorImage: crop(calc, box),
      target: { x: 35, y: 200 },
      resolveText: (t: string) => t,
      description: 'click 7',
    };
    const recorded = await resolveTarget(input);
    expect(recorded.point).toBeUndefined();
    const scaled = await resolveTarget({ ...input, scales: windowScales(calc, large) });
    expect(scaled).toMatchObject({ resolvedBy: 'template' });
    expect(Math.abs(scaled.point!.x - 35 * 1.5)).toBeLessThanOrEqual(2);
    expect(Math.abs(scaled.point!.y - 200 * 1.5)).toBeLessThanOrEqual(2);
    expect(scaled.tried.at(-1)?.box).toMatchObject({ width: Math.round(box.width * 1.5), height: Math.round(box.height * 1.5) });
  });
});

describe('windowScales', () => {
  const recorded = { width: 360, height: 220 };

  test('the recorded scale first, then how much each side grew', () => {
    expect(windowScales(recorded, { width: 720, height: 440 })).toEqual([1, 2]);
    expect(windowScales(recorded, { width: 450, height: 264 })).toEqual([1, 1.25, 1.2]);
  });

  test('a window a few pixels off, or grown past any scale, is searched as recorded', () => {
    expect(windowScales(recorded, { width: 362, height: 218 })).toEqual([1]);
    expect(windowScales(recorded, { width: 1280, height: 800 })).toEqual([1]);
    expect(windowScales(undefined, { width: 720, height: 440 })).toEqual([1]);
  });
});
