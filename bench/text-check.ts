/**
 * A `text:` expectation on a large real window (issue 28.3): gtk3-widget-factory at 1200×740, its
 * tree published. The expectation as the goal judges it (`assertText`: read first inside the
 * elements whose text says it) against the whole-window read every `text:` paid before (page read
 * and label reads), with a warm worker, interleaved.
 */
import type { Desktop } from '../src/desktop/types.ts';
import { assertText } from '../src/brain/assert/text.ts';
import { Stage } from '../src/brain/stage.ts';
import { readAll } from '../src/vision/ocr/find-text.ts';
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
      const samples = await interleaved([() => assertText(stage, check), () => readAll(reader, frame, { cache: null })], N, 0);
      return [
        figure({
          group: GROUP,
          ...ROWS.tree,
          samples: samples[0]!,
          note: result.ok ? result.message : `FAILED: ${result.message}`,
          failed: !result.ok,
        }),
        figure({ group: GROUP, ...ROWS.window, samples: samples[1]! }),
      ];
    } finally {
      await reader.close();
      await app.close();
    }
  });
}
