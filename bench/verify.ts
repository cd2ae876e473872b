/**
 * Per-action verification overhead, measured directly on the calculator, in its own window
 * size and as a full 1280×800 window: the effect of pressing "7" on a cleared display is
 * recorded once as a path records it (the changed regions, padded by 3 px, with their post
 * images — the shape `makeEffects` gives them); then, again and again, the display is cleared,
 * "7" pressed and the window left to settle, and the replay's work after settling is timed:
 * capturing the window, and checking every recorded effect on it (`checkEffect`). The replays
 * of the CLI runs report `verifyMs` as well (group "Replay vs learn").
 */
import type { Effect, Frame } from '../src/domain.ts';
import type { Desktop } from '../src/desktop/types.ts';
import { checkEffect } from '../src/brain/verify.ts';
import { changedRegions } from '../src/vision/changes.ts';
import { clampRegion, crop, inflateRegion } from '../src/vision/frame.ts';
import { isCaretLike, waitForStable } from '../src/vision/settle.ts';
import { withFixture, type OpenApp } from './desktop.ts';
import { figure, guarded, timed, TARGETS, type Measurement, type Row } from './measure.ts';

const GROUP = 'Verification';
const N = 20;
const SIZES = [
  [360, 480],
  [1280, 800],
] as const;

const rowsFor = ([w, h]: readonly [number, number]): { total: Row; verify: Row } => ({
  total: { name: `capture + verification per action (key "7", window ${w}×${h})`, unit: 'ms', target: TARGETS.captureVerifyMs },
  verify: { name: `verification alone (checkEffect), window ${w}×${h}`, unit: 'ms' },
});

export const ROWS = SIZES.flatMap((size) => Object.values(rowsFor(size)));

export function benchVerify(display: Promise<Desktop>): Promise<Measurement[]> {
  return guarded(GROUP, ROWS, async () => {
    const desktop = await display;
    const out: Measurement[] = [];
    for (const size of SIZES)
      out.push(...(await withFixture(desktop, 'calculator', (calc) => measure(desktop, calc, rowsFor(size)), { size })));
    return out;
  });
}

async function measure(desktop: Desktop, calc: OpenApp, rows: ReturnType<typeof rowsFor>): Promise<Measurement[]> {
  // Keys go to the window under the pointer (no window manager: focus follows the pointer).
  await desktop.input.move({ x: calc.window.x + calc.window.width / 2, y: calc.window.y + calc.window.height / 2 });
  /** Presses a key and waits until stable; with `from`, first until the window differs from it. */
  const press = async (key: string, from?: Frame): Promise<Frame> => {
    await desktop.input.key(key);
    const r = await waitForStable(calc.grab, from ? { expectChangeFrom: from } : { quietMs: 100 });
    return r.frame;
  };

  // Record the effect once.
  const cleared = await press('Escape');
  const typed = await press('7', cleared);
  const effects: Effect[] = changedRegions(cleared, typed, { minPixels: 6 })
    .filter((r) => !isCaretLike(r))
    .map((r) => ({ region: clampRegion(inflateRegion(r, 3), typed.width, typed.height), image: 'recorded' }));
  if (effects.length === 0) throw new Error('pressing "7" changed nothing on the calculator');
  const images = effects.map((e) => crop(typed, e.region));
  const regions = effects.map((e) => `${e.region.width}×${e.region.height}`).join(', ');

  const totals: number[] = [];
  const checks: number[] = [];
  let failures = 0;
  let last = typed;
  for (let i = 0; i < N; i++) {
    const before = await press('Escape', last);
    last = await press('7', before);
    const capture = await timed(() => calc.grab());
    const verify = await timed(() => effects.map((effect, k) => checkEffect(effect, images[k], before, capture.result, { x: 0, y: 0 })));
    if (!verify.result.every((c) => c.verified)) failures++;
    totals.push(capture.ms + verify.ms);
    checks.push(verify.ms);
  }
  const note = `${effects.length} effect(s) (${regions})` + (failures ? `; ${failures} of ${N} did NOT verify` : '; all verified');
  return [
    figure({ group: GROUP, ...rows.total, samples: totals, failed: failures > 0, note }),
    figure({ group: GROUP, ...rows.verify, samples: checks }),
  ];
}
