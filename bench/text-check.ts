/**
 * A `text:` expectation on a large real window (issue 28.3): gtk3-widget-factory at 1200×740, its
 * tree published. The expectation as the goal judges it (`assertText`: read first inside the
 * elements whose text says it), the whole window read where text can be (`readTextRegions`, what
 * a `text:` no element holds reads first; target ≤ 1 s, with the share of the full read's words
 * it reads), and the full read every `text:` paid before (page read and label reads), with warm
 * workers, interleaved.
 */
import type { Desktop } from '../src/desktop/types.ts';
import { assertText } from '../src/brain/assert/text.ts';
import { Stage } from '../src/brain/stage.ts';
import { readAll } from '../src/vision/ocr/find-text.ts';
import { readTextRegions } from '../src/vision/ocr/region-read.ts';
import { TesseractReader } from '../src/vision/ocr/tesseract-reader.ts';
import { waitForStable } from '../src/vision/settle.ts';
import { figure, guarded, interleaved, type Measurement, type Row } from './measure.ts';

const GROUP = 'text: expectation';
const N = 3;
const WANTED = 'Groove';

export const ROWS = {
  tree: {
    name: `text: "${WANTED}" on gtk3-widget-factory 1200×740, read where the tree holds it`,
    unit: 'ms',
    target: { op: '<=', value: 1000, text: '≤ 1 s' },
  },
  regions: {
    name: 'the same window read where text can be (whole-window read)',
    unit: 'ms',
    target: { op: '<=', value: 1000, text: '≤ 1 s' },
  },
  window: { name: 'the same window read whole (page and label reads), as before', unit: 'ms' },
} satisfies Record<string, Row>;

export function benchTextCheck(display: Promise<Desktop>): Promise<Measurement[]> {
  return guarded(GROUP, Object.values(ROWS), async () => {
    const desktop = await display;
    const app = await desktop.launch({ launch: 'gtk3-widget-factory', window: 'widget', size: [1200, 740] });
    const reader = new TesseractReader();
    try {
      await reader.warmUp();
      const window = (await app.window()).region;
      const { frame } = await waitForStable(() => desktop.capture.grab(window), { quietMs: 500, timeoutMs: 20_000 });
      const stage = new Stage(desktop, app, reader);
      const check = { text: WANTED, match: 'contains', display: WANTED, mask: (t: string) => t, timeoutMs: 0 } as const;
      const result = await assertText(stage, check);
      const samples = await interleaved(
        [() => assertText(stage, check), () => readTextRegions(reader, frame), () => readAll(reader, frame, { cache: null })],
        N,
        0,
      );
      const words = (text: string): string[] =>
        text
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u)
          .filter((w) => w.length >= 2);
      const got = new Set(words((await readTextRegions(reader, frame)).text));
      const all = words((await readAll(reader, frame, { cache: null })).text);
      const missed = all.filter((w) => !got.has(w));
      return [
        figure({
          group: GROUP,
          ...ROWS.tree,
          samples: samples[0]!,
          note: result.ok ? result.message : `FAILED: ${result.message}`,
          failed: !result.ok,
        }),
        figure({
          group: GROUP,
          ...ROWS.regions,
          samples: samples[1]!,
          note: `reads ${all.length - missed.length} of the ${all.length} words of the full read${missed.length ? ` (missed: ${missed.slice(0, 8).join(' ')})` : ''}`,
        }),
        figure({ group: GROUP, ...ROWS.window, samples: samples[2]! }),
      ];
    } finally {
      await reader.close();
      await app.close();
    }
  });
}
