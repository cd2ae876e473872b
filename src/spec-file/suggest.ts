/** "Did you mean …": the closest known word to a misspelt key. */

/** Edit distance (insert, delete, substitute, swap of neighbours), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  // Three rows suffice for the Damerau (adjacent swap) variant.
  let before: number[] = [];
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        d = Math.min(d, (before[j - 2] ?? 0) + 1);
      }
      row.push(d);
    }
    before = prev;
    prev = row;
  }
  return prev[t.length] ?? 0;
}

/**
 * The known word closest to `word`, if it is close enough to be a plausible typo: at most a
 * third of the word's length in edits (at least 1, at most 3), or a case-only difference.
 */
export function closest(word: string, known: readonly string[]): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(word, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}
