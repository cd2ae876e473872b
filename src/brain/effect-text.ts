/**
 * Comparing the text of an effect with what it said when recorded: by what it means. Words are
 * compared exactly — case, order and punctuation included ("Buy milk" is not "Milk buy", nor
 * "buy milk", nor "Buy mil") — except two kinds of word that are expected to differ:
 * - a clock or a date ("12:03:04", "2026-11-24") is compared by its shape: any time is a time;
 * - a number is compared by its value ("1,000" is 1000, and 3 is never 4).
 */
import type { Region } from '../domain.ts';
import type { TextBox } from '../vision/types.ts';
import { canonicalSymbols } from '../vision/text-match.ts';
import { unionRegions } from '../vision/frame.ts';

const TIME = /^\d{1,2}:\d{2}(:\d{2})?([ap]m)?$/i;
const DATE = /^(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})$/;
const NUMBER = /^[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?%?$/;

/** The words of a text, as OCR separates them (lines are read in order, one after the other). */
export const wordsOf = (text: string): string[] =>
  canonicalSymbols(text.normalize('NFKC'))
    .split(/\s+/)
    .filter((w) => w.length > 0);

const valueOf = (word: string): number => Number(word.replace(/[,%+]/g, ''));

/** Two words that mean the same (see the module comment). */
export function sameWord(recorded: string, read: string): boolean {
  if (recorded === read) return true;
  // Any time is a time, as long as it has as many parts (hours and minutes, or seconds too).
  if (TIME.test(recorded) && TIME.test(read)) return recorded.split(':').length === read.split(':').length;
  if (DATE.test(recorded) && DATE.test(read)) return true;
  if (NUMBER.test(recorded) && NUMBER.test(read)) return valueOf(recorded) === valueOf(read) && recorded.endsWith('%') === read.endsWith('%');
  return false;
}

/** Whether `read` says what `recorded` said: the same words, in the same order. */
export function sameText(recorded: string, read: string): boolean {
  const a = wordsOf(recorded);
  const b = wordsOf(read);
  return a.length === b.length && a.every((w, i) => sameWord(w, b[i]!));
}

/** Words in reading order: rows (words overlapping by half their height) top to bottom, each left to right. */
export function readingOrder(words: readonly TextBox[]): TextBox[] {
  const rows: TextBox[][] = [];
  const byMiddle = [...words].sort((a, b) => a.box.y + a.box.height / 2 - (b.box.y + b.box.height / 2));
  for (const word of byMiddle) {
    const row = rows.find((r) =>
      r.some((o) => Math.min(o.box.y + o.box.height, word.box.y + word.box.height) - Math.max(o.box.y, word.box.y) >= 0.5 * Math.min(o.box.height, word.box.height)),
    );
    if (row) row.push(word);
    else rows.push([word]);
  }
  return rows.flatMap((row) => row.sort((a, b) => a.box.x - b.box.x));
}

/**
 * Where `recorded` is said among `words` (in reading order): the box of the first run of
 * consecutive words that says it, or undefined.
 */
export function findSaid(recorded: string, words: readonly TextBox[]): Region | undefined {
  const wanted = wordsOf(recorded);
  if (wanted.length === 0) return undefined;
  const read = words.map((w) => ({ box: w.box, words: wordsOf(w.text) })).flatMap((w) => w.words.map((text) => ({ text, box: w.box })));
  for (let i = 0; i + wanted.length <= read.length; i++) {
    const run = read.slice(i, i + wanted.length);
    if (run.every((w, k) => sameWord(wanted[k]!, w.text))) return run.slice(1).reduce((box, w) => unionRegions(box, w.box), run[0]!.box);
  }
  return undefined;
}
