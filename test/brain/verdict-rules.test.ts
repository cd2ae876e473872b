/**
 * The rules that make a replay's verdict trustworthy, each on the counter app in memory: effects
 * verified by what they mean, changes nobody recorded, retries as evidence, effects that must
 * hold, the template rung's margin, and the images every failure leaves.
 */
import { describe, expect, test } from 'vitest';
import { kindOf } from '../../src/brain/verify.ts';
import { ADD, WINDOW } from '../support/fake-desktop.ts';
import { glyphReader } from '../support/glyphs.ts';
import { clickAdd, learnPath, replayOn } from '../support/fake-replay.ts';

const clicks = (desktop: { events: readonly { kind: string }[] }): number => desktop.events.filter((e) => e.kind === 'click').length;
const three = [clickAdd, clickAdd, clickAdd];
const read = { reader: glyphReader };

describe('effects mean something', () => {
  const learned = learnPath(three, { focusRing: true }, glyphReader);

  test("learning tells the target's own focus ring from the count it changed", async () => {
    const first = (await learned).path.actions[0]!;
    const kinds = first.effects.map(kindOf).sort();
    expect(kinds).toEqual(['feedback', 'look', 'text']);
    const ring = first.effects.find((e) => e.kind === 'feedback')!;
    expect(ring.region.x).toBeGreaterThanOrEqual(ADD.x - 8);
    expect(ring.region.x + ring.region.width).toBeLessThanOrEqual(ADD.x + ADD.width + 8);
    expect(first.effects.find((e) => e.kind === 'text')?.text).toBe('1');
  });

  test('another colour theme passes: the ring decides nothing, the count is read, the blocks keep their structure', async () => {
    const { done, desktop } = replayOn({ focusRing: true, theme: 'dark' }, await learned, read);
    const result = await done;
    expect(result.failure).toBeUndefined();
    expect(result.healed).toBe(true);
    expect(desktop.app.count).toBe(3);
    // "healed" says why: which action, and which effect was seen other than as recorded.
    expect(result.reports[0]?.healed).toMatch(/text "1" at its place, repainted/);
  });

  test('a wrong count fails, saying what it reads', async () => {
    const { done } = replayOn({ focusRing: true, step: 2 }, await learned, read);
    const result = await done;
    expect(result.failure).toMatchObject({ category: 'effect-not-verified', index: 0 });
    expect(result.failure?.message).toMatch(/reads "2", recorded "1"/);
  });

  test('the right count restyled as an error is not the same effect', async () => {
    const { done } = replayOn({ focusRing: true, alertAt: 2 }, await learned, read);
    const result = await done;
    expect(result.failure).toMatchObject({ category: 'effect-not-verified', index: 1 });
    expect(result.failure?.message).toMatch(/restyled from plain to alert/);
  });
});

describe('changes nobody recorded', () => {
  const learned = learnPath(three, {}, glyphReader);

  test('an error message beside a right count fails the goal, with its text and images', async () => {
    const { done, problems } = replayOn({ errorAt: 3 }, await learned, read);
    const result = await done;
    expect(result.failure).toMatchObject({ category: 'unexpected-change', index: 2 });
    expect(result.failure?.message).toMatch(/"ERROR"/);
    expect(result.reports[2]?.unexpected?.[0]?.text).toBe('ERROR');
    const evidence = problems.find((p) => p.problem.kind === 'unexpected-change');
    expect(evidence?.index).toBe(2);
    expect(evidence?.problem.kind === 'unexpected-change' && evidence.problem.regions.length).toBe(1);
  });

  test('under unexpectedChanges: warn it is reported, and the goal passes', async () => {
    const { done } = replayOn({ errorAt: 3 }, await learned, { ...read, options: { unexpectedChanges: 'warn' } });
    const result = await done;
    expect(result.failure).toBeUndefined();
    expect(result.reports[2]?.unexpected?.[0]?.text).toBe('ERROR');
  });

  test('content that changes on its own is not unexpected', async () => {
    const { done } = replayOn({ tickMs: 150 }, await learned, read);
    const result = await done;
    expect(result.failure).toBeUndefined();
    expect(result.reports.every((r) => r.unexpected === undefined)).toBe(true);
  });
});

describe('a retry is evidence', () => {
  const learned = learnPath(three);

  test('a swallowed click is done again, counted, and fails the goal under --strict', async () => {
    const { done, desktop } = replayOn({ swallow: [2] }, await learned, { options: { strict: true } });
    const result = await done;
    expect(result.failure).toMatchObject({ category: 'effect-not-verified', index: 1 });
    expect(result.failure?.message).toMatch(/appeared only when it was done again \(1 retry\)/);
    expect(result.reports[1]?.retries).toBe(1);
    expect(clicks(desktop)).toBe(3);
  });

  test('an app slower than the reaction wait is waited for within the time limit, and never clicked twice', async () => {
    const { done, desktop } = replayOn({ reactMs: 2000 }, await learned, { options: { actionTimeoutMs: 4000 } });
    const result = await done;
    expect(result.failure).toBeUndefined();
    expect(result.reports.map((r) => r.retries)).toEqual([0, 0, 0]);
    expect(clicks(desktop)).toBe(3);
    expect(desktop.app.count).toBe(3);
  });

  test("a slow app whose button shows its focus ring at once is still waited for: the ring is not the app's answer", async () => {
    const ringed = await learnPath(three, { focusRing: true });
    // Slower than one wait for the screen to settle (settleTimeoutMs 2000): waited for to the action's limit.
    const { done, desktop } = replayOn({ reactMs: 2600, focusRing: true }, ringed, { options: { actionTimeoutMs: 4000 } });
    const result = await done;
    expect(result.failure).toBeUndefined();
    expect(result.reports.map((r) => r.retries)).toEqual([0, 0, 0]);
    expect(clicks(desktop)).toBe(3);
    expect(desktop.app.count).toBe(3);
  });
});

describe('effects must hold', () => {
  test('a count that falls back on its own fails, also after the last action', async () => {
    const learned = await learnPath([clickAdd]);
    const { done } = replayOn({ revertMs: 200 }, learned);
    const result = await done;
    expect(result.failure).toMatchObject({ category: 'effect-not-verified', index: 0 });
    expect(result.failure?.message).toMatch(/did not hold/);
    expect(result.reports[0]?.verified).toBe(false);
  });

  test('between two actions a window unchanged since the last one verified is looked at once, not waited on; one that fell back still fails', async () => {
    const learned = await learnPath([clickAdd, clickAdd]);
    const grabs: number[] = [];
    let reported = -1;
    const { done, desktop } = replayOn({}, learned, {
      options: { onReport: () => (reported < 0 ? (reported = grabs.length) : undefined) },
    });
    const grab = desktop.capture.grab;
    desktop.capture.grab = (region) => (grabs.push(performance.now()), grab(region));
    const result = await done;
    expect(result.failure).toBeUndefined();
    const second = desktop.events.filter((e) => e.kind === 'click')[1]!.at;
    // From the first action's report to the second click: the one capture that finds the window as verified.
    expect(grabs.slice(reported).filter((t) => t < second)).toHaveLength(1);
    const reverting = replayOn({ revertMs: 200 }, learned);
    expect((await reverting.done).failure).toMatchObject({ category: 'effect-not-verified' });
  });
});

describe('a short quiet after the effects show', () => {
  // 15 ms after the click: past the 10 ms quiet the wait ends on once the effect shows.
  test('a result that falls back just after the wait ended on it fails: the looks after it catch it', async () => {
    const last = replayOn({ revertMs: 15 }, await learnPath([clickAdd]));
    const held = (await last.done).failure;
    expect(held).toMatchObject({ category: 'effect-not-verified', index: 0 });
    expect(held?.message).toMatch(/did not (hold|verify)/);
    // Between two actions the fall-back fails the one it lands in: the one before, or the next whose count is short.
    const between = replayOn({ revertMs: 15 }, await learnPath([clickAdd, clickAdd]));
    expect((await between.done).failure).toMatchObject({ category: 'effect-not-verified' });
  });
});

describe('the hold after the last action grows with the slowest reaction recorded on the path', () => {
  test('a result that falls back later than the shortest hold, within three times the recorded reaction, fails', async () => {
    const learned = await learnPath([clickAdd]);
    // The path as an app that took 400 ms to settle after the click records it: the hold is 3 × 400 ms.
    const slow = { ...learned, path: { ...learned.path, actions: learned.path.actions.map((a) => ({ ...a, settleMs: 400 })) } };
    // The count falls back 900 ms after it showed: past a 400 ms hold, within 1.2 s.
    const { done } = replayOn({ revertMs: 900 }, slow);
    const result = await done;
    expect(result.failure).toMatchObject({ category: 'effect-not-verified', index: 0 });
    expect(result.failure?.message).toMatch(/did not hold/);
  });
});

describe('the ladder', () => {
  test('a target behind a loading screen is waited for within the time limit, then acted on once', async () => {
    const learned = await learnPath([clickAdd]);
    const { done, desktop } = replayOn({ loadingMs: 2600 }, learned, { options: { actionTimeoutMs: 4000 } });
    const result = await done;
    expect(result.failure).toBeUndefined();
    expect(clicks(desktop)).toBe(1);
    expect(desktop.app.count).toBe(1);
  });

  test('a target that does not show within the time limit is not found, and nothing is clicked', async () => {
    const learned = await learnPath([clickAdd]);
    const { done, desktop } = replayOn({ loadingMs: 3000 }, learned, { options: { actionTimeoutMs: 1000 } });
    const result = await done;
    expect(result.failure).toMatchObject({ category: 'target-not-found', index: 0 });
    expect(clicks(desktop)).toBe(0);
  });

  test('a first typing waits for its recorded line before it (a prompt that comes late), then types once', async () => {
    const typeAb = { kind: 'type', text: 'ab' } as const;
    const learned = await learnPath([typeAb], { promptMs: 0 });
    const line = learned.path.actions[0]?.beforeLine;
    expect(line?.region).toMatchObject({ x: 0, width: WINDOW.width });
    expect(line && learned.assets.has(line.image)).toBe(true);
    const { done, desktop } = replayOn({ promptMs: 600 }, learned, { options: { actionTimeoutMs: 2000 } });
    const result = await done;
    expect(result.failure).toBeUndefined();
    expect(desktop.events.filter((e) => e.kind === 'type')).toHaveLength(1);
    expect(result.reports[0]?.waitMs).toBeGreaterThanOrEqual(400);
  });

  test("a line before that never shows costs the time limit once, and the typing's effects decide", async () => {
    const learned = await learnPath([{ kind: 'type', text: 'ab' }], { promptMs: 0 });
    const { done } = replayOn({ promptMs: 60_000 }, learned, { options: { actionTimeoutMs: 500 } });
    const result = await done;
    expect(result.failure).toMatchObject({ category: 'effect-not-verified', index: 0 });
    expect(result.reports[0]?.waitMs).toBeGreaterThanOrEqual(450);
  });

  test('a template hit that does not beat a look-alike by the margin falls through, and the failure shows both places', async () => {
    const learned = await learnPath([clickAdd]);
    const { done, problems, desktop } = replayOn({ twin: true, offset: { x: 30, y: 0 } }, learned);
    const result = await done;
    expect(result.failure).toMatchObject({ category: 'target-not-found', index: 0 });
    expect(clicks(desktop)).toBe(0);
    const evidence = problems[0]?.problem;
    expect(evidence?.kind).toBe('target-not-found');
    if (evidence?.kind !== 'target-not-found') return;
    expect(evidence.recorded).toEqual(learned.path.actions[0]?.anchor?.box);
    expect(evidence.candidate).toBeDefined();
  });
});

describe('evidence', () => {
  test('an effect that did not verify sends what was expected and what was there', async () => {
    const learned = await learnPath([clickAdd]);
    const { done, problems } = replayOn({ dead: true }, learned);
    await done;
    const evidence = problems.find((p) => p.problem.kind === 'effect-not-verified')?.problem;
    expect(evidence?.kind === 'effect-not-verified' && evidence.expected && evidence.actual.width).toBe(
      evidence?.kind === 'effect-not-verified' ? evidence.expected?.width : -1,
    );
  });
});
