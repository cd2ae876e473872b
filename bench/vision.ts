/**
 * Vision, on real frames (the benchmark's screen with the calculator open, and its window):
 * the comparator (`compareFrames`) on identical frames and on frames with 10 % of their pixels
 * changed — scattered over every row (the worst case: no band of equal rows to skip) and as one
 * block (a dialog) — at 1280×800 and at 1920×1080 (the screen scaled up); fingerprints; and the
 * template search of a recorded-size anchor (82×70, a calculator key) in a window and a screen.
 */
import type { Frame, Region } from '../src/domain.ts';
import type { Desktop } from '../src/desktop/types.ts';
import { compareFrames } from '../src/vision/compare.ts';
import { fingerprint } from '../src/vision/fingerprint.ts';
import { cloneFrame, crop, inflateRegion, scale } from '../src/vision/frame.ts';
import { findTemplate } from '../src/vision/template.ts';
import { RUNGS } from '../src/brain/thresholds.ts';
import { fixtureRegion, withFixture } from './desktop.ts';
import { figure, guarded, interleaved, TARGETS, type Measurement, type Row } from './measure.ts';
import { random } from '../test/support/seeded.ts';

const GROUP = 'Diff & vision';
const N = 20;

export const ROWS = {
  same1280: { name: 'diff identical 1280×800', unit: 'ms', target: TARGETS.diffIdenticalMs },
  scattered1280: { name: 'diff 10 % changed, scattered, 1280×800', unit: 'ms', target: TARGETS.diffChangedMs },
  block1280: { name: 'diff 10 % changed, one block, 1280×800', unit: 'ms', target: TARGETS.diffChangedMs },
  same1920: { name: 'diff identical 1920×1080', unit: 'ms' },
  scattered1920: { name: 'diff 10 % changed, scattered, 1920×1080', unit: 'ms' },
  block1920: { name: 'diff 10 % changed, one block, 1920×1080', unit: 'ms' },
  fpScreen: { name: 'fingerprint 1280×800', unit: 'ms' },
  fpWindow: { name: 'fingerprint window 360×480', unit: 'ms' },
  tplWindow: { name: 'template 82×70 anchor in window 360×480', unit: 'ms' },
  tplScreen: { name: 'template 82×70 anchor in screen 1280×800', unit: 'ms' },
} satisfies Record<string, Row>;

const invertPixel = (f: Frame, i: number): void => {
  const p = i * 4;
  f.data[p] = 255 - f.data[p]!;
  f.data[p + 1] = 255 - f.data[p + 1]!;
  f.data[p + 2] = 255 - f.data[p + 2]!;
};

/** A copy with exactly 10 % of the pixels inverted, spread at random over the frame. */
function scattered(frame: Frame): Frame {
  const out = cloneFrame(frame);
  const total = frame.width * frame.height;
  const next = random(7);
  const chosen = new Uint8Array(total);
  for (let left = Math.round(total / 10); left > 0; ) {
    const i = Math.floor(next() * total);
    if (chosen[i]) continue;
    chosen[i] = 1;
    invertPixel(out, i);
    left--;
  }
  return out;
}

/** A copy with one centred block of 10 % of the area inverted. */
function block(frame: Frame): Frame {
  const out = cloneFrame(frame);
  const side = Math.sqrt(0.1);
  const w = Math.round(frame.width * side);
  const h = Math.round((frame.width * frame.height) / 10 / w);
  const x0 = (frame.width - w) >> 1;
  const y0 = (frame.height - h) >> 1;
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) invertPixel(out, y * frame.width + x);
  return out;
}

async function diffRows(screen: Frame, rows: readonly [Row, Row, Row]): Promise<Measurement[]> {
  const same = cloneFrame(screen);
  const spread = scattered(screen);
  const dialog = block(screen);
  const expected = Math.round((screen.width * screen.height) / 10);
  const counts = [spread, dialog].map((b) => compareFrames(screen, b, null).diffPixels);
  const samples = await interleaved(
    [() => compareFrames(screen, same, null), () => compareFrames(screen, spread, null), () => compareFrames(screen, dialog, null)],
    N,
  );
  const note = (count: number) => `${count} of ${expected} changed pixels counted; no diff image`;
  return [
    figure({ group: GROUP, ...rows[0], samples: samples[0]!, note: 'byte-equal frames (separate buffers)' }),
    figure({ group: GROUP, ...rows[1], samples: samples[1]!, note: note(counts[0]!) }),
    figure({ group: GROUP, ...rows[2], samples: samples[2]!, note: note(counts[1]!) }),
  ];
}

export function benchVision(display: Promise<Desktop>): Promise<Measurement[]> {
  return guarded(GROUP, Object.values(ROWS), async () => {
    const desktop = await display;
    // The screen with the calculator open at its top-left corner, and the calculator's window.
    const [screen, window] = await withFixture(desktop, 'calculator', async (calc) => [await desktop.capture.grab(), calc.frame]);
    const out: Measurement[] = [];
    out.push(...(await diffRows(screen, [ROWS.same1280, ROWS.scattered1280, ROWS.block1280])));
    const big = scale(screen, 1920, 1080);
    out.push(...(await diffRows(big, [ROWS.same1920, ROWS.scattered1920, ROWS.block1920])));

    const fp = await interleaved([() => fingerprint(screen), () => fingerprint(window)], N);
    out.push(figure({ group: GROUP, ...ROWS.fpScreen, samples: fp[0]! }));
    out.push(figure({ group: GROUP, ...ROWS.fpWindow, samples: fp[1]! }));

    // An anchor as the recorder crops it: the control under the point, 2 px around it.
    const SURE = { minScore: RUNGS.find((r) => r.name === 'template')!.minScore };
    const box: Region = inflateRegion(fixtureRegion('calculator', 'key-5'), 2);
    const needle = crop(window, box);
    const inWindow = findTemplate(window, needle, SURE);
    const inScreen = findTemplate(screen, needle, SURE);
    const where = (m: typeof inWindow) =>
      `${m.found ? 'found' : 'NOT found'} at ${m.point.x},${m.point.y} (score ${m.score.toFixed(3)}, runner-up ${m.secondScore.toFixed(3)})`;
    const tpl = await interleaved([() => findTemplate(window, needle, SURE), () => findTemplate(screen, needle, SURE)], N);
    out.push(figure({ group: GROUP, ...ROWS.tplWindow, samples: tpl[0]!, note: `key "5": ${where(inWindow)}` }));
    out.push(figure({ group: GROUP, ...ROWS.tplScreen, samples: tpl[1]!, note: where(inScreen) }));
    return out;
  });
}
