import { describe, expect, it } from 'vitest';
import type { Frame } from '../../src/domain.ts';
import { cloneFrame, createFrame, fillRegion } from '../../src/vision/frame.ts';
import { framesEqual } from '../../src/vision/changes.ts';
import { detectDynamic, isCaretLike, realClock, waitForStable } from '../../src/vision/settle.ts';
import { BLACK, FakeClock, WHITE, fakeDrawing, fakeScreen } from './helpers.ts';

const base = createFrame(120, 80, WHITE);
/** The screen with a counter-like change: a different box for every value of `n`. */
function variant(n: number, from: Frame = base): Frame {
  const f = cloneFrame(from);
  fillRegion(f, { x: 10 + (n % 10) * 8, y: 10, width: 6, height: 10 }, BLACK);
  return f;
}
const after = variant(3);

describe('waitForStable, told when the app draws', () => {
  it('looks at a still window twice: at the start and when the quiet window ends', async () => {
    const clock = new FakeClock();
    const r = await waitForStable(
      fakeScreen(clock, () => base),
      { clock, drawing: fakeDrawing(clock, []) },
    );
    expect(r).toMatchObject({ stable: true, frames: 2, settleMs: 0 });
    expect(r.elapsedMs).toBeGreaterThanOrEqual(30);
    expect(r.elapsedMs).toBeLessThanOrEqual(35);
  });

  it('sees the reaction as it is drawn and ends 20 ms after the expected frame, with fewer grabs than polling', async () => {
    // The key's pressed look at 23 ms, the display's answer at 41 ms.
    const screen = (t: number): Frame => (t < 23 ? base : t < 41 ? variant(1) : after);
    const ready = (frame: Frame): boolean => framesEqual(frame, after);
    const clock = new FakeClock();
    const r = await waitForStable(fakeScreen(clock, screen), {
      clock,
      expectChangeFrom: base,
      ready,
      drawing: fakeDrawing(clock, [23, 41]),
    });
    expect(r).toMatchObject({ stable: true, reacted: true, changed: true, settleMs: 41 });
    expect(r.frame).toEqual(after);
    expect(r.elapsedMs).toBeLessThanOrEqual(41 + 20 + 4);
    const polled = new FakeClock();
    const polling = await waitForStable(fakeScreen(polled, screen), { clock: polled, expectChangeFrom: base, ready });
    expect(polling.frame).toEqual(after);
    expect(polling.elapsedMs).toBeGreaterThan(r.elapsedMs);
    expect(polling.frames).toBeGreaterThan(r.frames);
  });

  it('tells of each new state as it is grabbed, before its quiet is confirmed; the wait ends on the last one', async () => {
    const screen = (t: number): Frame => (t < 23 ? base : t < 41 ? variant(1) : after);
    const clock = new FakeClock();
    const told: Array<{ frame: Frame; at: number }> = [];
    const r = await waitForStable(fakeScreen(clock, screen), {
      clock,
      expectChangeFrom: base,
      drawing: fakeDrawing(clock, [23, 41]),
      onState: (frame) => told.push({ frame, at: clock.now() }),
    });
    expect(told.map((s) => s.frame)).toEqual([variant(1), after]);
    expect(told[1]!.frame).toEqual(r.frame);
    // Told at the grab that saw it, the quiet window (30 ms) still to come.
    expect(told[1]!.at).toBeLessThan(41 + 5);
    expect(r.elapsedMs).toBeGreaterThanOrEqual(41 + 30);
    // A window that never changes: its first frame is the state the wait ends on.
    const still = new FakeClock();
    const once: Frame[] = [];
    await waitForStable(
      fakeScreen(still, () => base),
      { clock: still, drawing: fakeDrawing(still, [5, 12]), onState: (frame) => once.push(frame) },
    );
    expect(once).toEqual([base]);
  });

  it('a change the display did not report is still seen, by the grab that confirms the quiet', async () => {
    const clock = new FakeClock();
    const screen = (t: number): Frame => (t < 10 ? base : after);
    const r = await waitForStable(fakeScreen(clock, screen), { clock, drawing: fakeDrawing(clock, []) });
    expect(r.stable).toBe(true);
    expect(r.frame).toEqual(after);
    expect(r.settleMs).toBeGreaterThanOrEqual(30);
  });

  it('drawing that changes no pixel does not restart the quiet window', async () => {
    const clock = new FakeClock();
    const r = await waitForStable(
      fakeScreen(clock, () => base),
      { clock, drawing: fakeDrawing(clock, [5, 12, 18]) },
    );
    expect(r).toMatchObject({ stable: true, settleMs: 0 });
    expect(r.elapsedMs).toBeLessThanOrEqual(35);
  });

  it('with nothing drawn, gives up on a reaction at reactMs, confirmed by one grab', async () => {
    const clock = new FakeClock();
    const drawing = fakeDrawing(clock, []);
    const r = await waitForStable(
      fakeScreen(clock, () => base),
      { clock, expectChangeFrom: base, reactMs: 300, drawing },
    );
    expect(r).toMatchObject({ stable: true, reacted: false, changed: false, frames: 2 });
    expect(r.elapsedMs).toBeGreaterThanOrEqual(300);
    expect(r.elapsedMs).toBeLessThanOrEqual(305);
    // A reaction the display did not report shows in that grab.
    const late = new FakeClock();
    const seen = await waitForStable(
      fakeScreen(late, (t) => (t < 100 ? base : after)),
      { clock: late, expectChangeFrom: base, reactMs: 300, drawing: fakeDrawing(late, []) },
    );
    expect(seen).toMatchObject({ stable: true, reacted: true, changed: true });
  });

  it('grabs an animation no faster than drawGapMs, and is never stable while it runs', async () => {
    const clock = new FakeClock();
    const drawsAt = Array.from({ length: 500 }, (_, i) => i * 2);
    const r = await waitForStable(
      fakeScreen(clock, (t) => variant(Math.floor(t / 2)), 1),
      { clock, timeoutMs: 500, drawing: fakeDrawing(clock, drawsAt) },
    );
    expect(r.stable).toBe(false);
    expect(r.frames).toBeLessThanOrEqual(500 / 5 + 2);
  });
});

describe('waitForStable', () => {
  it('declares a still screen stable after the quiet window, with no fixed sleep', async () => {
    const clock = new FakeClock();
    const r = await waitForStable(
      fakeScreen(clock, () => base),
      { clock },
    );
    expect(r.stable).toBe(true);
    expect(r.settleMs).toBe(0);
    expect(r.changing).toEqual([]);
    expect(r.elapsedMs).toBeGreaterThanOrEqual(30);
    expect(r.elapsedMs).toBeLessThanOrEqual(50);
    expect(r.frames).toBe(4); // at 0, 10, 20, 35 ms
  });

  it('waits out an animation and ends within 50 ms of its last change', async () => {
    const clock = new FakeClock();
    // Repaints every 16 ms until 200 ms, then holds still.
    const screen = (t: number): Frame => (t < 200 ? variant(Math.floor(t / 16)) : variant(99));
    const r = await waitForStable(fakeScreen(clock, screen), { clock });
    expect(r.stable).toBe(true);
    expect(r.frame).toEqual(variant(99));
    expect(r.settleMs).toBeGreaterThanOrEqual(200);
    expect(r.elapsedMs).toBeLessThanOrEqual(250);
  });

  it('does not call a slow app stable before it reacts (expectChangeFrom)', async () => {
    const clock = new FakeClock();
    const screen = (t: number): Frame => (t < 200 ? base : t < 260 ? variant(Math.floor(t / 16)) : after);
    const r = await waitForStable(fakeScreen(clock, screen), { clock, expectChangeFrom: base });
    expect(r).toMatchObject({ stable: true, reacted: true, changed: true });
    expect(r.frame).toEqual(after);
    expect(r.settleMs).toBeGreaterThanOrEqual(260);
    expect(r.elapsedMs).toBeLessThanOrEqual(260 + 50);
    // Without expectChangeFrom the same app looks stable before it has done anything.
    const early = new FakeClock();
    const naive = await waitForStable(fakeScreen(early, screen), { clock: early });
    expect(naive.frame).toEqual(base);
    expect(naive.elapsedMs).toBeLessThan(200);
  });

  it('ends once the expected frame shows and stayed unchanged 20 ms (ready), not after the whole quiet window', async () => {
    const screen = (t: number): Frame => (t < 40 ? base : t < 60 ? variant(1) : after);
    const ready = (frame: Frame): boolean => framesEqual(frame, after);
    const clock = new FakeClock();
    const r = await waitForStable(fakeScreen(clock, screen), { clock, expectChangeFrom: base, ready });
    expect(r).toMatchObject({ stable: true, reacted: true, changed: true });
    expect(r.frame).toEqual(after);
    // Seen at ~60 ms, unchanged ~20 ms later: done; without `ready` the wait goes on ~15 ms longer.
    expect(r.elapsedMs).toBeLessThanOrEqual(90);
    const plain = new FakeClock();
    const slow = await waitForStable(fakeScreen(plain, screen), { clock: plain, expectChangeFrom: base });
    expect(slow.elapsedMs).toBeGreaterThan(r.elapsedMs);
    // A frame that is not the expected one waits the whole quiet window, and one that keeps changing is never ready.
    const never = new FakeClock();
    const other = await waitForStable(fakeScreen(never, screen), { clock: never, expectChangeFrom: base, ready: () => false });
    expect(other.elapsedMs).toBe(slow.elapsedMs);
    const busy = new FakeClock();
    const flicker = (t: number): Frame => (t < 300 ? variant(Math.floor(t / 10)) : after);
    const moving = await waitForStable(fakeScreen(busy, flicker), { clock: busy, expectChangeFrom: base, ready: () => true });
    expect(moving.frame).toEqual(after);
  });

  it('gives up waiting for a reaction after reactMs and reports no change', async () => {
    const clock = new FakeClock();
    const r = await waitForStable(
      fakeScreen(clock, () => base),
      { clock, expectChangeFrom: base, reactMs: 300 },
    );
    expect(r).toMatchObject({ stable: true, reacted: false, changed: false, settleMs: 0 });
    expect(r.elapsedMs).toBeGreaterThanOrEqual(290);
    expect(r.elapsedMs).toBeLessThanOrEqual(320);
  });

  it('notices a change that was undone (a flash) as a reaction without a lasting change', async () => {
    const clock = new FakeClock();
    const screen = (t: number): Frame => (t >= 50 && t < 80 ? after : base);
    const r = await waitForStable(fakeScreen(clock, screen), { clock, expectChangeFrom: base });
    expect(r).toMatchObject({ stable: true, reacted: true, changed: false });
    expect(r.elapsedMs).toBeLessThan(150);
  });

  it('ignores a blinking caret but not a wider blinking box', async () => {
    const caret = cloneFrame(base);
    fillRegion(caret, { x: 60, y: 30, width: 2, height: 16 }, BLACK);
    const clock = new FakeClock();
    const blinking = (t: number): Frame => (Math.floor(t / 10) % 2 ? caret : base);
    const r = await waitForStable(fakeScreen(clock, blinking), { clock });
    expect(r.stable).toBe(true);
    expect(r.elapsedMs).toBeLessThanOrEqual(50);

    const box = cloneFrame(base);
    fillRegion(box, { x: 60, y: 30, width: 10, height: 16 }, BLACK);
    const clock2 = new FakeClock();
    const r2 = await waitForStable(
      fakeScreen(clock2, (t) => (Math.floor(t / 10) % 2 ? box : base)),
      { clock: clock2, timeoutMs: 1000 },
    );
    expect(r2.stable).toBe(false);
    expect(r2.elapsedMs).toBeGreaterThanOrEqual(975);
    expect(r2.elapsedMs).toBeLessThanOrEqual(1010);
    expect(r2.changing).toEqual([{ x: 60, y: 30, width: 10, height: 16 }]);
  });

  it('is never stable on a screen that keeps changing, and says where', async () => {
    const clock = new FakeClock();
    const r = await waitForStable(
      fakeScreen(clock, (t) => variant(Math.floor(t / 7))),
      { clock, timeoutMs: 500 },
    );
    expect(r.stable).toBe(false);
    expect(r.changing.length).toBeGreaterThan(0);
    for (const c of r.changing) {
      expect(c.y).toBe(10);
      expect(c.height).toBe(10);
      expect(c.x).toBeGreaterThanOrEqual(10);
      expect(c.x + c.width).toBeLessThanOrEqual(10 + 9 * 8 + 6);
    }
    expect(r.frames).toBeGreaterThan(10);
  });

  it('ignores regions that change on their own', async () => {
    const clock = new FakeClock();
    const ticking = (t: number): Frame => variant(Math.floor(t / 5));
    const r = await waitForStable(fakeScreen(clock, ticking), { clock, ignore: [{ x: 0, y: 0, width: 120, height: 25 }] });
    expect(r.stable).toBe(true);
  });

  it('stops when aborted', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    let grabs = 0;
    const r = await waitForStable(
      async () => {
        clock.tick(4);
        if (++grabs === 3) controller.abort();
        return variant(grabs);
      },
      { clock, signal: controller.signal },
    );
    expect(r.stable).toBe(false);
    expect(grabs).toBe(3);
  });

  it('works on the real clock', async () => {
    const r = await waitForStable(async () => base, { clock: realClock, timeoutMs: 2000 });
    expect(r.stable).toBe(true);
  });
});

describe('isCaretLike', () => {
  it('accepts thin vertical bars only', () => {
    expect(isCaretLike({ x: 0, y: 0, width: 2, height: 16 })).toBe(true);
    expect(isCaretLike({ x: 0, y: 0, width: 3, height: 40 })).toBe(true);
    expect(isCaretLike({ x: 0, y: 0, width: 4, height: 16 })).toBe(false);
    expect(isCaretLike({ x: 0, y: 0, width: 2, height: 41 })).toBe(false);
    expect(isCaretLike({ x: 0, y: 0, width: 2, height: 2 })).toBe(false); // a typed "."
  });
});

describe('detectDynamic', () => {
  it('finds the region that changes on its own', async () => {
    const clock = new FakeClock();
    const screen = (t: number): Frame => {
      const f = cloneFrame(base);
      fillRegion(f, { x: 90, y: 60, width: 20, height: 10 }, Math.floor(t / 250) % 2 ? BLACK : [200, 0, 0, 255]);
      return f;
    };
    const regions = await detectDynamic(fakeScreen(clock, screen), 1000, { clock });
    expect(regions).toEqual([{ x: 90, y: 60, width: 20, height: 10 }]);
    // What changed is watched once more: twice the probe.
    expect(clock.t).toBeGreaterThanOrEqual(2000);
    expect(clock.t).toBeLessThan(2220);
  });

  it('an app finishing its start-up while watched is no region that changes on its own; a clock beside it is', async () => {
    const clock = new FakeClock();
    // The start-up screen gives way to the app's content at 300 ms; a clock ticks every 400 ms.
    const screen = (t: number): Frame => {
      const f = cloneFrame(base);
      if (t >= 300) fillRegion(f, { x: 10, y: 10, width: 60, height: 20 }, BLACK);
      fillRegion(f, { x: 90, y: 60, width: 20, height: 10 }, Math.floor(t / 400) % 2 ? BLACK : [200, 0, 0, 255]);
      return f;
    };
    expect(await detectDynamic(fakeScreen(clock, screen), 1000, { clock })).toEqual([{ x: 90, y: 60, width: 20, height: 10 }]);
  });

  it('a clock whose tick the first watch missed (drawn late on a busy machine) is found in a third', async () => {
    const clock = new FakeClock();
    // A headline rotates every 250 ms; the clock's ticks show only at 1500 and 2500 ms.
    const screen = (t: number): Frame => {
      const f = cloneFrame(base);
      fillRegion(f, { x: 10, y: 60, width: 40, height: 10 }, Math.floor(t / 250) % 2 ? BLACK : [200, 0, 0, 255]);
      fillRegion(f, { x: 90, y: 10, width: 20, height: 10 }, t >= 2500 ? BLACK : t >= 1500 ? [0, 0, 200, 255] : WHITE);
      return f;
    };
    const regions = await detectDynamic(fakeScreen(clock, screen), 1000, { clock });
    expect(regions).toEqual([
      { x: 90, y: 10, width: 20, height: 10 },
      { x: 10, y: 60, width: 40, height: 10 },
    ]);
    expect(clock.t).toBeGreaterThanOrEqual(3000);
  });

  it('finds nothing on a still screen', async () => {
    const clock = new FakeClock();
    expect(
      await detectDynamic(
        fakeScreen(clock, () => base),
        500,
        { clock },
      ),
    ).toEqual([]);
  });
});
