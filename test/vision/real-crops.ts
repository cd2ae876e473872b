/**
 * The ground-truth crops of real applications (images/real, see its README.md) and word
 * accuracy: shared by the OCR accuracy test and the benchmark.
 */
import { readFileSync } from 'node:fs';
import type { Frame } from '../../src/domain.ts';
import { decodePng } from '../../src/vision/frame.ts';

export interface RealCrop {
  /** File name in images/real, e.g. "xterm-1.png". */
  readonly file: string;
  /** The application it was taken from. */
  readonly app: string;
  readonly what: string;
  /** The true text: lines separated by "\n", words by spaces. */
  readonly text: string;
  readonly frame: Frame;
}

const folder = new URL('./images/real/', import.meta.url);

export function loadRealCrops(): RealCrop[] {
  const manifest = JSON.parse(readFileSync(new URL('manifest.json', folder), 'utf8')) as {
    crops: Omit<RealCrop, 'frame'>[];
  };
  return manifest.crops.map((c) => ({ ...c, frame: decodePng(readFileSync(new URL(c.file, folder))) }));
}

export interface WordScore {
  /** Words of the true text. */
  readonly words: number;
  /** Of them, read exactly (case and punctuation included). */
  readonly exact: number;
  /**
   * Word errors: words missed or misread, and words read that are not there, a misread word
   * counting once — max(words, words read) − exact.
   */
  readonly errors: number;
  /** The true words not read exactly. */
  readonly missed: readonly string[];
  /** The words read that are not in the true text. */
  readonly extra: readonly string[];
}

/**
 * Word accuracy of `read` against `truth`, as bags of words: the layout of a window has no one
 * reading order (keys in a grid, a label beside its entry), so words are matched wherever they
 * were read. Word accuracy = 1 − errors / words.
 */
export function scoreWords(truth: string, read: string): WordScore {
  const want = truth.split(/\s+/).filter(Boolean);
  const got = read.split(/\s+/).filter(Boolean);
  const left = new Map<string, number>();
  for (const w of got) left.set(w, (left.get(w) ?? 0) + 1);
  const missed: string[] = [];
  for (const w of want) {
    const n = left.get(w) ?? 0;
    if (n > 0) left.set(w, n - 1);
    else missed.push(w);
  }
  const extra = [...left].flatMap(([w, n]) => Array<string>(n).fill(w));
  const exact = want.length - missed.length;
  return { words: want.length, exact, errors: Math.max(want.length, got.length) - exact, missed, extra };
}

/** 1 − Σ errors / Σ words over several scores. */
export function wordAccuracy(scores: readonly WordScore[]): number {
  const words = scores.reduce((s, x) => s + x.words, 0);
  const errors = scores.reduce((s, x) => s + x.errors, 0);
  return words === 0 ? 1 : 1 - errors / words;
}
