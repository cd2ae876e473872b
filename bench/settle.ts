/**
 * Settle: the slow fixture app answers a click on "Load" exactly D ms later (a spinner turns
 * meanwhile). Timed: from the click to `waitForStable` (with `expectChangeFrom`, and told of
 * drawing when the display reports it, as a replay waits) declaring the window stable, minus D —
 * what waiting costs beyond the app's own time.
 * Next to it, the seeds' design: a fixed 500 ms + 200 ms after every action, whatever the app.
 *
 * A wait that ends before the app is done (the spinner stalled longer than the quiet window,
 * which happens on a loaded machine) is counted apart: the final frame is checked against the
 * screen well after D.
 */
import type { Desktop } from '../src/desktop/types.ts';
import { framesEqual } from '../src/vision/changes.ts';
import { waitForStable } from '../src/vision/settle.ts';
import { centre, fixtureRegion, openFixture } from './desktop.ts';
import { figure, guarded, quantile, sleep, TARGETS, type Measurement, type Row } from './measure.ts';

const GROUP = 'Settle';
const N = 8;
const DELAYS = [250, 1000] as const;
/** The seeds' design: a fixed wait after every action. */
const FIXED_MS = 500 + 200;

const rowsFor = (d: number): { retrace: Row; seed: Row } => ({
  retrace: { name: `time to stable − D, D = ${d} ms`, unit: 'ms', target: TARGETS.settleOverheadMs },
  seed: { name: `seeds' fixed wait − D, D = ${d} ms`, unit: 'ms' },
});

export const ROWS = DELAYS.flatMap((d) => Object.values(rowsFor(d)));

/** How long after D the slow app is certainly finished (spinner gone, result painted). */
const DONE_MARGIN_MS = 400;

async function measureDelay(desktop: Desktop, d: number): Promise<Measurement[]> {
  const rows = rowsFor(d);
  const slow = await openFixture(desktop, 'slow', { query: `delay=${d}&boot=0` });
  try {
    const load = centre(fixtureRegion('slow', 'load'), slow.window);
    const overhead: number[] = [];
    const lag: number[] = [];
    const quiet: number[] = [];
    let unstable = 0;
    const drawing = await desktop.capture.drawing?.(slow.window);
    /** When the early waits ended, ms after the click. */
    const early: number[] = [];
    for (let i = 0; i < N; i++) {
      const before = await slow.grab();
      const start = performance.now();
      await desktop.input.click(load);
      const result = await waitForStable(slow.grab, { expectChangeFrom: before, timeoutMs: d + 5_000, ...(drawing && { drawing }) });
      const elapsed = performance.now() - start;
      // Ground truth, not a wait the product makes: well after D the app is surely done, so
      // a frame then tells whether settle declared "stable" too early.
      await sleep(Math.max(0, d + DONE_MARGIN_MS - elapsed));
      const done = await slow.grab();
      if (!result.stable || !result.reacted) unstable++;
      else if (!framesEqual(result.frame, done)) early.push(elapsed);
      else {
        overhead.push(elapsed - d);
        lag.push(result.settleMs - d);
        quiet.push(elapsed - result.settleMs);
      }
    }
    const med = (v: number[]) => quantile(v, 0.5).toFixed(0);
    const fixed = FIXED_MS - d;
    return [
      figure({
        group: GROUP,
        ...rows.retrace,
        samples: overhead,
        failed: unstable + early.length > 0,
        note:
          `median: last change seen ${med(lag)} ms after D (${drawing ? 'told of drawing' : 'paint + 10 ms polling'}), quiet confirmed ` +
          `${med(quiet)} ms later` +
          (unstable ? `; ${unstable} of ${N} waits never became stable` : '') +
          (early.length
            ? `; ${early.length} of ${N} declared stable BEFORE the app was done (the spinner stalled longer than ` +
              `the quiet window), ${med(early)} ms after the click (median)`
            : ''),
      }),
      figure({
        group: GROUP,
        ...rows.seed,
        value: fixed,
        note:
          fixed < 0
            ? `returns ${-fixed} ms before the app is done: a wrong verdict, not a fast one`
            : 'reference: 700 ms per action, whatever the app',
      }),
    ];
  } finally {
    await slow.app.close();
  }
}

export function benchSettle(display: Promise<Desktop>): Promise<Measurement[]> {
  return guarded(GROUP, ROWS, async () => {
    const desktop = await display;
    const out: Measurement[] = [];
    for (const d of DELAYS) out.push(...(await measureDelay(desktop, d)));
    return out;
  });
}
