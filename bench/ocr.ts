/**
 * OCR through retrace's reader (tesseract.js, shipped English data), on the notes fixture:
 * regions as a text assertion reads them (the note list with one line, the four-line "Tips"
 * panel), the window, and the whole screen, with a warm worker; finding a word (`findText`, cache off); and the
 * worker's start-up.
 */
import type { Desktop } from '../src/desktop/types.ts';
import { crop } from '../src/vision/frame.ts';
import { findText } from '../src/vision/ocr/find-text.ts';
import { TesseractReader } from '../src/vision/ocr/tesseract-reader.ts';
import { fixtureRegion, openFixture } from './desktop.ts';
import { figure, guarded, interleaved, timed, TARGETS, type Measurement, type Row } from './measure.ts';

const GROUP = 'OCR';
const N = 5;
const STARTS = 3;

export const ROWS = {
  line: { name: 'read region 378×154 (1 line), warm', unit: 'ms', target: TARGETS.ocrRegionMs },
  region: { name: 'read region 140×129 (4 lines), warm', unit: 'ms', target: TARGETS.ocrRegionMs },
  window: { name: 'read window 560×420, warm', unit: 'ms' },
  screen: { name: 'read screen 1280×800, warm', unit: 'ms' },
  find: { name: 'findText "Save" in window (no cache)', unit: 'ms' },
  start: { name: 'worker start-up', unit: 'ms' },
} satisfies Record<string, Row>;

const oneLine = (text: string): string => JSON.stringify(text.replace(/\s+/g, ' ').trim().slice(0, 40));

export function benchOcr(display: Promise<Desktop>): Promise<Measurement[]> {
  return guarded(GROUP, Object.values(ROWS), async () => {
    const desktop = await display;
    const notes = await openFixture(desktop, 'notes');
    const window = notes.frame;
    const screen = await desktop.capture.grab();
    const line = crop(window, fixtureRegion('notes', 'list'));
    const region = crop(window, fixtureRegion('notes', 'tips'));
    const reader = new TesseractReader();
    const out: Measurement[] = [];
    try {
      await reader.warmUp();
      const [lineRead, read] = [await reader.read(line), await reader.read(region)];
      const page = await reader.read(window);
      const hits = await findText(reader, window, 'Save', { cache: null });
      const samples = await interleaved(
        [
          () => reader.read(line),
          () => reader.read(region),
          () => reader.read(window),
          () => reader.read(screen),
          () => findText(reader, window, 'Save', { cache: null }),
        ],
        N,
        1,
      );
      out.push(figure({ group: GROUP, ...ROWS.line, samples: samples[0]!, note: `read ${oneLine(lineRead.text)}` }));
      out.push(figure({ group: GROUP, ...ROWS.region, samples: samples[1]!, note: `read ${oneLine(read.text)}` }));
      out.push(figure({ group: GROUP, ...ROWS.window, samples: samples[2]!, note: `${page.lines.length} lines read` }));
      out.push(figure({ group: GROUP, ...ROWS.screen, samples: samples[3]!, note: 'the notes window on an empty screen' }));
      out.push(
        figure({
          group: GROUP,
          ...ROWS.find,
          samples: samples[4]!,
          note: hits.length ? `found (score ${hits[0]!.score.toFixed(2)})` : 'NOT found',
        }),
      );
    } finally {
      await reader.close();
      await notes.app.close();
    }
    const starts: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      const fresh = new TesseractReader();
      starts.push((await timed(() => fresh.warmUp())).ms);
      await fresh.close();
    }
    out.push(figure({ group: GROUP, ...ROWS.start, samples: starts, note: 'createWorker with the shipped eng data, LSTM' }));
    return out;
  });
}
