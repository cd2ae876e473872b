/**
 * The one edit distance: OCR matching, secret masking and "did you mean" suggestions count edits
 * the same way, so a text a spec calls fuzzy-equal is so everywhere.
 */

/** Edits `fuzzy` allows for an expected text of `length` characters: max(1, floor(length / 5)). */
export const fuzzyTolerance = (length: number): number => Math.max(1, Math.floor(length / 5));

/**
 * Edits (insert, delete, substitute: 1 each) that turn `a` into `b`, case-sensitive. With `swaps`,
 * a swap of neighbours also costs 1 (optimal string alignment): the typo a person makes, which
 * OCR does not.
 */
export function editDistance(a: string, b: string, swaps = false): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  // Three rows: the row before the previous one is what a swap of neighbours reaches back to.
  let before = new Int32Array(b.length + 1);
  let prev = new Int32Array(b.length + 1);
  let cur = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cb = b.charCodeAt(j - 1);
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ca === cb ? 0 : 1));
      if (swaps && i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) d = Math.min(d, before[j - 2]! + 1);
      cur[j] = d;
    }
    [before, prev, cur] = [prev, cur, before];
  }
  return prev[b.length]!;
}
