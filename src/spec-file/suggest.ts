/** "Did you mean …": the closest known word to a misspelt key. */
import { editDistance } from '../edit-distance.ts';

/**
 * The known word closest to `word`, if it is close enough to be a plausible typo: at most a
 * third of the word's length in edits (at least 1, at most 3), or a case-only difference.
 */
export function closest(word: string, known: readonly string[]): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase(), true);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}
