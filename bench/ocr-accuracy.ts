/**
 * OCR accuracy on the ground-truth crops of real applications (test/vision/images/real): word
 * accuracy over all of them and per app, as a `text:` expectation reads them (`readText`, label
 * reads included, no cache); and the time per crop, of that whole read and of the reader's own
 * read (`TesseractReader.read`: the "OCR of a region" of the targets), with a warm worker.
 * Pure: frames from files, no display.
 */
import { readText } from '../src/vision/ocr/find-text.ts';
import { TesseractReader } from '../src/vision/ocr/tesseract-reader.ts';
import { loadRealCrops, scoreWords, wordAccuracy, type WordScore } from '../test/vision/real-crops.ts';
import { figure, guarded, timed, TARGETS, type Measurement, type Row } from './measure.ts';

const GROUP = 'OCR accuracy';
/** Timed reads of each crop (after one untimed read that also scores it). */
const ROUNDS = 3;

const ROWS = {
  accuracy: { name: 'word accuracy, real-app crops (readText)', unit: '%', target: TARGETS.ocrWordAccuracyPct },
  region: { name: 'read a crop (TesseractReader.read), warm', unit: 'ms', target: TARGETS.ocrRegionMs },
} satisfies Record<string, Row>;

const pct = (scores: readonly WordScore[]): number => Math.round(1000 * wordAccuracy(scores)) / 10;
const words = (scores: readonly WordScore[]): number => scores.reduce((n, s) => n + s.words, 0);

/** "missed → read" pairs of what went wrong, short. */
function misreads(scores: readonly WordScore[]): string {
  const missed = scores.flatMap((s) => s.missed);
  const extra = scores.flatMap((s) => s.extra);
  if (missed.length === 0 && extra.length === 0) return 'every word exact';
  return `missed ${JSON.stringify(missed)}; read ${JSON.stringify(extra)}`.slice(0, 160);
}

export function benchOcrAccuracy(): Promise<Measurement[]> {
  return guarded(GROUP, Object.values(ROWS), async () => {
    const crops = loadRealCrops();
    const reader = new TesseractReader();
    const out: Measurement[] = [];
    try {
      await reader.warmUp();
      const byApp = new Map<string, { scores: WordScore[]; readTextMs: number[] }>();
      const regionMs: number[] = [];
      for (const crop of crops) {
        const score = scoreWords(crop.text, await readText(reader, crop.frame, undefined, { cache: null }));
        const app = byApp.get(crop.app) ?? { scores: [], readTextMs: [] };
        app.scores.push(score);
        for (let round = 0; round < ROUNDS; round++) {
          app.readTextMs.push((await timed(() => readText(reader, crop.frame, undefined, { cache: null }))).ms);
          regionMs.push((await timed(() => reader.read(crop.frame))).ms);
        }
        byApp.set(crop.app, app);
      }
      const all = [...byApp.values()].flatMap((a) => a.scores);
      out.push(
        figure({
          group: GROUP,
          ...ROWS.accuracy,
          value: pct(all),
          note: `${words(all)} words in ${crops.length} crops of ${byApp.size} apps`,
        }),
      );
      for (const [app, { scores }] of byApp) {
        out.push(
          figure({
            group: GROUP,
            name: `word accuracy, ${app} (${words(scores)} words)`,
            unit: '%',
            value: pct(scores),
            note: misreads(scores),
          }),
        );
      }
      out.push(
        figure({ group: GROUP, ...ROWS.region, samples: regionMs, note: `${crops.length} crops × ${ROUNDS}, 14×388 to 640×420 px` }),
      );
      for (const [app, { scores, readTextMs }] of byApp) {
        out.push(
          figure({
            group: GROUP,
            name: `readText per crop, ${app}`,
            unit: 'ms',
            samples: readTextMs,
            note: `${scores.length} crop(s) × ${ROUNDS}, label reads included, no cache`,
          }),
        );
      }
    } finally {
      await reader.close();
    }
    return out;
  });
}
