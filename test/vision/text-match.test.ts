import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/errors.ts';
import { bestWindow, canonicalSymbols, matchText, normalizeText } from '../../src/vision/text-match.ts';
import { editDistance, fuzzyTolerance } from '../../src/edit-distance.ts';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('Settings', 'Setings')).toBe(1);
    expect(editDistance('flaw', 'lawn')).toBe(2);
  });

  it('counts a swap of neighbours as one edit only when asked (a typo, not an OCR misread)', () => {
    expect(editDistance('tilte', 'title')).toBe(2);
    expect(editDistance('tilte', 'title', true)).toBe(1);
    expect(editDistance('ab', 'ba', true)).toBe(1);
    expect(editDistance('ca', 'abc', true)).toBe(3);
    expect(editDistance('kitten', 'sitting', true)).toBe(3);
  });

  it('finds the closest window of a longer text', () => {
    const text = 'Font size 12 pt';
    const w = bestWindow('sise', text);
    expect(w.distance).toBe(1);
    expect(text.slice(w.start, w.end)).toBe('size');
    expect(bestWindow('12', text)).toEqual({ distance: 0, start: 10, end: 12 });
  });
});

describe('normalising', () => {
  it('folds whitespace and look-alike symbols', () => {
    expect(normalizeText('  Dark\n\tmode  ')).toBe('Dark mode');
    expect(canonicalSymbols('12 × 7 ÷ 2 − 1')).toBe('12 * 7 / 2 - 1');
  });
});

describe('matchText', () => {
  it('contains (the default) and exact, case-sensitive unless asked', () => {
    expect(matchText('Result 84\nApply', '84').ok).toBe(true);
    expect(matchText('Result 84', '85').ok).toBe(false);
    expect(matchText('Result  84', 'result 84').ok).toBe(false);
    expect(matchText('Result  84', 'result 84', 'contains', { ignoreCase: true })).toMatchObject({ ok: true, matched: 'Result 84' });
    expect(matchText(' 84 ', '84', 'exact').ok).toBe(true);
    expect(matchText('84 pt', '84', 'exact').ok).toBe(false);
    expect(matchText('12 × 7', '12 * 7').ok).toBe(true);
  });

  it('regex, as /source/flags or bare, on the normalised text', () => {
    expect(matchText('Total:\n 1,234.50', '/total: [\\d,.]+/i', 'regex')).toMatchObject({ ok: true, matched: 'Total: 1,234.50' });
    expect(matchText('Total: 12', '^Total: \\d+$', 'regex').ok).toBe(true);
    expect(matchText('Total: x', '^Total: \\d+$', 'regex').ok).toBe(false);
    expect(() => matchText('x', '/(unclosed/', 'regex')).toThrow(InvalidInputError);
  });

  it('fuzzy: max(1, floor(length / 5)) edits against the best window, ignoring case', () => {
    expect(fuzzyTolerance(3)).toBe(1);
    expect(fuzzyTolerance(8)).toBe(1);
    expect(fuzzyTolerance(10)).toBe(2);
    expect(fuzzyTolerance(17)).toBe(3);
    expect(matchText('General Setings Display', 'Settings', 'fuzzy')).toMatchObject({
      ok: true,
      distance: 1,
      maxDistance: 1,
      matched: 'Setings',
    });
    expect(matchText('General Setngs Display', 'Settings', 'fuzzy')).toMatchObject({ ok: false, distance: 2 });
    expect(matchText('DARK MODE ENABLD', 'Dark mode enabled', 'fuzzy').ok).toBe(true);
    expect(matchText('Saved', 'Saved', 'fuzzy', { maxDistance: 0 }).ok).toBe(true);
    expect(matchText('84', '8', 'fuzzy').ok).toBe(true); // contains-like: a window of "84" is "8"
    expect(matchText('', 'Saved', 'fuzzy').ok).toBe(false);
  });
});
