/**
 * The X server's reports of drawing (DAMAGE), on a real display: typing into one terminal is
 * reported for its window and not for the other's, a still window reports nothing until the
 * wait ends, drawing that a grab has seen is reported however soon it is asked, and a settle
 * told of drawing ends on the same frame as one that polls.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AppSession, Desktop } from '../../src/desktop/types.ts';
import { framesEqual } from '../../src/vision/changes.ts';
import { waitForStable } from '../../src/vision/settle.ts';
import { getTestDesktop } from '../support/desktop.ts';

/** An xterm running `cat`: what is typed is echoed, so drawn. */
const terminal = (desktop: Desktop, title: string, x: number): Promise<AppSession> =>
  desktop.launch({ launch: `xterm -b 0 -geometry 40x10+${x}+10 -title ${title} -e cat`, window: title });

describe('drawing reported by the X server', () => {
  let desktop: Desktop;
  let left: AppSession;
  let right: AppSession;

  beforeAll(async () => {
    desktop = await getTestDesktop();
    left = await terminal(desktop, 'drawing-left', 10);
    right = await terminal(desktop, 'drawing-right', 600);
  });
  afterAll(async () => {
    await Promise.all([left?.close(), right?.close()]);
  });

  test('reports typing in the window it is drawn in, only there, and nothing on a still window', async () => {
    const [l, r] = [(await left.window()).region, (await right.window()).region];
    const here = await desktop.capture.drawing?.(l);
    const there = await desktop.capture.drawing?.(r);
    if (!here || !there) throw new Error('the test display reports no drawing (no DAMAGE extension?)');
    await left.focus();
    here.mark();
    there.mark();
    const start = performance.now();
    expect(await there.drawn(start + 150)).toBe(false);
    expect(performance.now() - start).toBeGreaterThanOrEqual(140);

    const drawn = here.drawn(performance.now() + 5000);
    await desktop.input.type('drawn');
    expect(await drawn).toBe(true);
    // The first letter told it; the terminal draws the echo of the rest after the keys went in
    // (a loaded machine drew one more after the mark below once): wait until it has drawn it all.
    await waitForStable(() => desktop.capture.grab(l), { quietMs: 300 });
    expect(await there.drawn(performance.now())).toBe(false);
    // Marked again, what was drawn before is forgotten.
    here.mark();
    expect(await here.drawn(performance.now() + 100)).toBe(false);
  });

  test('a settle told of drawing ends on the frame a polling one ends on; a still window costs two grabs', async () => {
    const { region } = await left.window();
    const grab = () => desktop.capture.grab(region);
    const drawing = await desktop.capture.drawing?.(region);
    await left.focus();
    const before = await grab();
    await desktop.input.type('x');
    const told = await waitForStable(grab, { expectChangeFrom: before, reactMs: 3000, ...(drawing && { drawing }) });
    const polled = await waitForStable(grab, {});
    expect(told).toMatchObject({ stable: true, reacted: true, changed: true });
    expect(framesEqual(told.frame, polled.frame)).toBe(true);
    const still = await waitForStable(grab, { ...(drawing && { drawing }) });
    // Two grabs, where polling takes as many as fit in the quiet window (fewer when a grab is
    // slow: the fake clock's unit tests compare the counts).
    expect(still).toMatchObject({ stable: true, frames: 2 });
  });

  test('drawing a frame already shows is reported, however soon after it is asked', async () => {
    const { region } = await left.window();
    const drawing = await desktop.capture.drawing?.(region);
    if (!drawing) throw new Error('the test display reports no drawing');
    await left.focus();
    let missed = 0;
    for (let i = 0; i < 10; i++) {
      const before = await desktop.capture.grab(region);
      drawing.mark();
      await desktop.input.type('y');
      while (framesEqual(before, await desktop.capture.grab(region)));
      // The grab saw it drawn: its report may still be on its way, but it was sent before now.
      if (!(await drawing.drawn(performance.now()))) missed++;
    }
    expect(missed).toBe(0);
  });
});
