/**
 * Comparing the text of an effect with what it said when recorded: by what it means. Words are
 * compared exactly — case, order and punctuation included ("Buy milk" is not "Milk buy", nor
 * "buy milk", nor "Buy mil") — except two kinds of word that are expected to differ:
 * - a clock or a date ("12:03:04", "2026-11-24") is compared by its shape: any time is a time;
 * - a number is compared by its value ("1,000" is 1000, and 3 is never 4).
 * And what learning records is never a misreading of a text known to be there (`knownReading`).
 */
import type { Region } from '../domain.ts';
import type { TextBox } from '../vision/types.ts';
import { canonicalSymbols } from '../vision/text-match.ts';
import { unionRegions } from '../vision/frame.ts';
import { editDistance } from '../edit-distance.ts';

const TIME = /^\d{1,2}:\d{2}(:\d{2})?([ap]m)?$/i;
const DATE = /^(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})$/;
const NUMBER = /^[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?%?$/;

/** The words of a text, as OCR separates them (lines are read in order, one after the other). */
export const wordsOf = (text: string): string[] =>
  canonicalSymbols(text.normalize('NFKC'))
    .split(/\s+/)
    .filter((w) => w.length > 0);

const numberIn = (word: string): number => Number(word.replace(/[,%+]/g, ''));

/** Two words that mean the same (see the module comment). */
export function sameWord(recorded: string, read: string): boolean {
  if (recorded === read) return true;
  // Any time is a time, as long as it has as many parts (hours and minutes, or seconds too).
  if (TIME.test(recorded) && TIME.test(read)) return recorded.split(':').length === read.split(':').length;
  if (DATE.test(recorded) && DATE.test(read)) return true;
  if (NUMBER.test(recorded) && NUMBER.test(read))
    return numberIn(recorded) === numberIn(read) && recorded.endsWith('%') === read.endsWith('%');
  return false;
}

/** Whether `read` says what `recorded` said: the same words, in the same order. */
export function sameText(recorded: string, read: string): boolean {
  const a = wordsOf(recorded);
  const b = wordsOf(read);
  return a.length === b.length && a.every((w, i) => sameWord(w, b[i]!));
}

/** A text known to be in a region, and how it is known. */
export interface KnownText {
  readonly text: string;
  /** `typed`: the action typed it (the app may show it changed); `tree`: an element there says it. */
  readonly from: 'typed' | 'tree';
}

/** What OCR makes of a text caret at either end of a word: "Buy Milk]". */
const CARET_GLYPHS = /^[\]|[]+|[\]|[]+$/g;
const DIGITS = /^[-+]?[\d.,]+$/;
/** Letters OCR makes of digits: E or El for 3, O for 0, l or I for 1, S for 5, B for 8, Z for 2, g or q for 9, G or b for 6, T for 7. */
const DIGIT_LOOKALIKES = /^[EIlOoSsBZzgqGbT|!]+$/;

/**
 * Whether `read` is OCR's misreading of `known` (both as words, one space between):
 * - `known` with a caret read at its end ("Buy Milk]" for "Buy Milk");
 * - typed digits read as letters that look like digits, within two edits ("El" for "3"). What an app does to
 *   typed text — clamps "5" to "4", cuts "abc" to "ab", writes "ABC" or "1,000" — stays read as
 *   shown: a digit read as another digit, or letters in another case, may be the app's doing;
 * - a text the tree says is there, within max(2, length / 4) edits ("n" for "on"): the tree is
 *   the app's own word for what it shows.
 */
function misreading(read: string, known: KnownText): boolean {
  const r = wordsOf(read).join(' ');
  const k = wordsOf(known.text).join(' ');
  if (r === '' || k === '' || sameText(k, r)) return false;
  if (sameText(k, r.replace(CARET_GLYPHS, '').trim())) return true;
  if (known.from === 'typed') return DIGITS.test(k) && DIGIT_LOOKALIKES.test(r.replace(/ /g, '')) && editDistance(r, k) <= 2;
  return editDistance(r, k) <= Math.max(2, Math.ceil(k.length / 4));
}

/**
 * What a region says, as learning records it: what OCR read, unless that is a misreading of
 * exactly one of the texts known to be there (`misreading`), which then wins. A region of several
 * lines (the field typed into and the one above it) is looked at line by line too: each line
 * that misreads one known text is that text, unless two lines misread the same one. A read that
 * says a known text already, or that could be a misreading of several, stays as read.
 */
export function knownReading(read: string, known: readonly KnownText[]): string {
  const whole = lineReading(read, known);
  const lines = read.split('\n');
  if (whole !== read || lines.length < 2) return whole;
  const fixed = lines.map((line) => lineReading(line, known));
  const replaced = fixed.filter((line, i) => line !== lines[i]);
  return new Set(replaced).size === replaced.length ? fixed.join('\n') : read;
}

function lineReading(read: string, known: readonly KnownText[]): string {
  if (known.some((k) => sameText(k.text, read))) return read;
  const texts = new Set(known.filter((k) => misreading(read, k)).map((k) => k.text));
  return texts.size === 1 ? ([...texts][0] as string) : read;
}

/** Two word boxes on one row: overlapping by half the height of the smaller. */
const sameRow = (a: Region, b: Region): boolean =>
  Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) >= 0.5 * Math.min(a.height, b.height);

/** Words in rows (words overlapping by half their height), top to bottom, each left to right. */
export function readingRows(words: readonly TextBox[]): TextBox[][] {
  const rows: TextBox[][] = [];
  const byMiddle = [...words].sort((a, b) => a.box.y + a.box.height / 2 - (b.box.y + b.box.height / 2));
  for (const word of byMiddle) {
    const row = rows.find((r) => r.some((o) => sameRow(o.box, word.box)));
    if (row) row.push(word);
    else rows.push([word]);
  }
  return rows.map((row) => row.sort((a, b) => a.box.x - b.box.x));
}

/** Words in reading order: `readingRows`, one after the other. */
export const readingOrder = (words: readonly TextBox[]): TextBox[] => readingRows(words).flat();

type Word = { readonly text: string; readonly box: Region };

const wordList = (words: readonly TextBox[]): Word[] => words.flatMap((w) => wordsOf(w.text).map((text) => ({ text, box: w.box })));

/**
 * The index of the first run of `read` (none of it `used`) that says `wanted`, or -1. With
 * `whole`, the run must be all its row says: "Sound" is not found in "Sound settings".
 */
function runOf(wanted: readonly string[], read: readonly Word[], used: ReadonlySet<number> = new Set(), whole = false): number {
  const alone = (i: number, end: number): boolean =>
    (i === 0 || !sameRow(read[i - 1]!.box, read[i]!.box)) && (end === read.length || !sameRow(read[end]!.box, read[end - 1]!.box));
  for (let i = 0; i + wanted.length <= read.length; i++) {
    if (!wanted.every((w, k) => !used.has(i + k) && sameWord(w, read[i + k]!.text))) continue;
    if (!whole || alone(i, i + wanted.length)) return i;
  }
  return -1;
}

const boxOf = (run: readonly Word[]): Region => run.slice(1).reduce((box, w) => unionRegions(box, w.box), run[0]!.box);

/**
 * Where `recorded` is said among `words` (in reading order): the box of the first run of
 * consecutive words that says it, or undefined.
 */
export function findSaid(recorded: string, words: readonly TextBox[]): Region | undefined {
  const wanted = wordsOf(recorded);
  if (wanted.length === 0) return undefined;
  const read = wordList(words);
  const i = runOf(wanted, read);
  return i < 0 ? undefined : boxOf(read.slice(i, i + wanted.length));
}

/**
 * Where each line of a text of several lines (a menu's items) is said among `words`, each
 * exactly, each as a whole row of its own, in any order: a layout that reorders items keeps
 * every item's text. Undefined unless every line is found, and one at least where `changed`
 * (the action changed something: what was there before is not its effect).
 */
export function findLines(recorded: string, words: readonly TextBox[], changed: (box: Region) => boolean): Region[] | undefined {
  const lines = recorded
    .split('\n')
    .map(wordsOf)
    .filter((l) => l.length > 0);
  if (lines.length < 2) return undefined;
  const read = wordList(words);
  const used = new Set<number>();
  const boxes: Region[] = [];
  for (const line of lines) {
    const i = runOf(line, read, used, true);
    if (i < 0) return undefined;
    for (let k = i; k < i + line.length; k++) used.add(k);
    boxes.push(boxOf(read.slice(i, i + line.length)));
  }
  return boxes.some(changed) ? boxes : undefined;
}
