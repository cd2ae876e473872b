/**
 * Matching what OCR read against what a spec expects.
 *
 * Both sides are normalised first: Unicode NFKC, every run of whitespace (newlines included)
 * becomes one space, ends trimmed. Except for `regex`, look-alike symbols are also folded to
 * ASCII (× → *, ÷ → /, − – — → -, curly quotes → straight), since OCR reads either.
 *
 * Modes:
 * - `contains` (the spec's default): the expected text occurs in what was read as whole words and
 *   numbers: "Total: 42" is not in "Total: 420" nor in "Total: 42.5", "Saved" is not in "NotSaved",
 *   and "5" is not in "15" or "1,500". A boundary is only required where the expected text begins
 *   or ends with a letter or digit ("Total:" is in "Total:42").
 * - `substring`: the expected text occurs anywhere, inside a word or number too (the old `contains`).
 * - `exact`: the whole text read equals the expected text.
 * - `regex`: `expected` is a pattern, `/source/flags` or a bare source, tested against the
 *   normalised text. An invalid pattern is invalid input (InvalidInputError), not a mismatch.
 * - `fuzzy`: case-insensitive; some window of the text read is within Levenshtein distance
 *   max(1, floor(length / 5)) of the expected text (length after normalising) — one edit per
 *   five characters, at least one. So "Settings" (8) tolerates 1 edit, "Dark mode enabled" (17)
 *   tolerates 3. The window is the substring with the smallest distance (approximate substring
 *   matching), so surrounding text does not count against the match.
 */
import { InvalidInputError } from '../errors.ts';
import { fuzzyTolerance } from '../edit-distance.ts';

export type TextMatchMode = 'contains' | 'substring' | 'exact' | 'regex' | 'fuzzy';

export interface TextMatchOptions {
  /** Compare `contains`, `substring` and `exact` ignoring case (`fuzzy` always does). @default false */
  readonly ignoreCase?: boolean;
  /** Edits `fuzzy` tolerates. @default max(1, floor(expected length / 5)) */
  readonly maxDistance?: number;
  /**
   * Compare the case of c, o, s, v, w, x and z (`SAME_SHAPE_LETTERS`) ignoring case, every other
   * letter's exactly: for a read whose letters' case another source vouches for. @default false
   */
  readonly sameShapeCase?: boolean;
}

/** Letters whose capital is the small letter enlarged: OCR tells their case by height alone, when it can measure it. */
export const SAME_SHAPE_LETTERS = 'cosvwxz';
const SAME_SHAPE_CAPITALS = new RegExp(`[${SAME_SHAPE_LETTERS.toUpperCase()}]`, 'g');

export interface TextMatchResult {
  readonly ok: boolean;
  readonly mode: TextMatchMode;
  /** The normalised text read. */
  readonly actual: string;
  /** The normalised expectation. */
  readonly expected: string;
  /** The part of `actual` that matched, when something did (for `fuzzy`: the closest window). */
  readonly matched?: string;
  /** `fuzzy` only: edits between `expected` and the closest window, and the edits allowed. */
  readonly distance?: number;
  readonly maxDistance?: number;
}

/** NFKC, whitespace runs to one space, trimmed. */
export const normalizeText = (text: string): string => text.normalize('NFKC').replace(/\s+/g, ' ').trim();

const SYMBOLS: Readonly<Record<string, string>> = {
  '×': '*',
  '✕': '*',
  '∗': '*',
  '·': '*',
  '÷': '/',
  '∕': '/',
  '−': '-',
  '–': '-',
  '—': '-',
  '‐': '-',
  '‑': '-',
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
};
const SYMBOL_RE = new RegExp(`[${Object.keys(SYMBOLS).join('')}]`, 'g');

/** Folds look-alike symbols to their ASCII form (× → *, ÷ → /, − → -, curly quotes). */
export const canonicalSymbols = (text: string): string => text.replace(SYMBOL_RE, (ch) => SYMBOLS[ch] ?? ch);

/**
 * The substring of `text` closest to `pattern` by edit distance (Sellers' algorithm: a match may
 * start and end anywhere in `text`). Ties prefer the earliest, then the longest window.
 */
export function bestWindow(pattern: string, text: string): { distance: number; start: number; end: number } {
  const m = pattern.length;
  const n = text.length;
  if (m === 0) return { distance: 0, start: 0, end: 0 };
  // d[i][j]: distance of pattern[0..i) to the best window of text ending at j; s: where it starts.
  let prevD = new Int32Array(n + 1);
  let prevS = new Int32Array(n + 1);
  let curD = new Int32Array(n + 1);
  let curS = new Int32Array(n + 1);
  for (let j = 0; j <= n; j++) prevS[j] = j;
  for (let i = 1; i <= m; i++) {
    curD[0] = i;
    curS[0] = 0;
    const cp = pattern.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const sub = prevD[j - 1]! + (cp === text.charCodeAt(j - 1) ? 0 : 1);
      const del = prevD[j]! + 1; // pattern char unmatched
      const ins = curD[j - 1]! + 1; // text char extra
      let d = sub;
      let s = prevS[j - 1]!;
      if (del < d) {
        d = del;
        s = prevS[j]!;
      }
      if (ins < d) {
        d = ins;
        s = curS[j - 1]!;
      }
      curD[j] = d;
      curS[j] = s;
    }
    [prevD, curD] = [curD, prevD];
    [prevS, curS] = [curS, prevS];
  }
  let best = { distance: Number.POSITIVE_INFINITY, start: 0, end: 0 };
  for (let j = 0; j <= n; j++) {
    const d = prevD[j]!;
    if (d < best.distance) best = { distance: d, start: prevS[j]!, end: j };
  }
  return best;
}

/** Parses `/source/flags` or a bare source into a RegExp; InvalidInputError when invalid. */
export function parsePattern(pattern: string): RegExp {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  try {
    return m ? new RegExp(m[1]!, m[2]) : new RegExp(pattern);
  } catch (e) {
    throw new InvalidInputError(undefined, `invalid regular expression ${JSON.stringify(pattern)}: ${(e as Error).message}`);
  }
}

/** Matches the text read (`actual`) against the expectation; see the module comment for the rules. */
export function matchText(
  actual: string,
  expected: string,
  mode: TextMatchMode = 'contains',
  options: TextMatchOptions = {},
): TextMatchResult {
  if (mode === 'regex') {
    const text = normalizeText(actual);
    const re = parsePattern(expected);
    const m = re.exec(text);
    return { ok: m !== null, mode, actual: text, expected, ...(m ? { matched: m[0] } : {}) };
  }
  const text = canonicalSymbols(normalizeText(actual));
  const want = canonicalSymbols(normalizeText(expected));
  if (mode === 'fuzzy') {
    const maxDistance = options.maxDistance ?? fuzzyTolerance(want.length);
    const win = bestWindow(want.toLowerCase(), text.toLowerCase());
    return {
      ok: win.distance <= maxDistance,
      mode,
      actual: text,
      expected: want,
      matched: text.slice(win.start, win.end),
      distance: win.distance,
      maxDistance,
    };
  }
  const fold = (s: string): string =>
    options.ignoreCase ? s.toLowerCase() : options.sameShapeCase ? s.replace(SAME_SHAPE_CAPITALS, (c) => c.toLowerCase()) : s;
  if (mode === 'exact') {
    const ok = fold(text) === fold(want);
    return { ok, mode, actual: text, expected: want, ...(ok ? { matched: text } : {}) };
  }
  const at = mode === 'substring' ? fold(text).indexOf(fold(want)) : wholeAt(fold(text), fold(want));
  return { ok: at >= 0, mode, actual: text, expected: want, ...(at >= 0 ? { matched: text.slice(at, at + want.length) } : {}) };
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
const DIGIT = /\p{N}/u;

/**
 * Whether `text` goes on past `edge` (the index just outside a match) in the same word or
 * number: a letter or digit there, or a decimal or thousands separator between two digits.
 * `step` is -1 before the match, +1 after it; `inner` is the match's character at that edge.
 */
function continues(text: string, edge: number, step: -1 | 1, inner: string): boolean {
  const next = text.charAt(edge);
  if (!WORD_CHAR.test(inner) || next === '') return false;
  if (WORD_CHAR.test(next)) return true;
  return DIGIT.test(inner) && (next === '.' || next === ',') && DIGIT.test(text.charAt(edge + step));
}

/** The first index where `want` occurs in `text` as whole words and numbers, or -1. */
function wholeAt(text: string, want: string): number {
  if (want.length === 0) return 0;
  for (let at = text.indexOf(want); at >= 0; at = text.indexOf(want, at + 1)) {
    const end = at + want.length;
    if (!continues(text, at - 1, -1, want.charAt(0)) && !continues(text, end, 1, want.charAt(want.length - 1))) return at;
  }
  return -1;
}
