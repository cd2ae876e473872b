import { describe, expect, it } from 'vitest';
import { parseTitlePattern, textRegex, titleMatches } from '../../src/spec-file/patterns.ts';

describe('window title patterns', () => {
  it('matches a substring, and /regex/flags', () => {
    expect(titleMatches(parseTitlePattern('galc'), 'galculator')).toBe(true);
    expect(titleMatches(parseTitlePattern('Galc'), 'galculator')).toBe(false);
    expect(titleMatches(parseTitlePattern('/^GALC/i'), 'galculator')).toBe(true);
    expect(titleMatches(parseTitlePattern('/^calc$/'), 'galculator')).toBe(false);
  });

  it('keeps a title holding a path a substring', () => {
    const p = parseTitlePattern('/home/me/notes.txt - Mousepad');
    expect(p.kind).toBe('substring');
    expect(titleMatches(p, '/home/me/notes.txt - Mousepad')).toBe(true);
  });

  it('ignores g and y, so repeated checks agree', () => {
    const p = parseTitlePattern('/calc/gy');
    expect([titleMatches(p, 'calc'), titleMatches(p, 'calc')]).toEqual([true, true]);
  });

  it('throws on a regex that does not compile', () => {
    expect(() => parseTitlePattern('/a(/')).toThrow(SyntaxError);
  });
});

describe('textRegex', () => {
  it('takes /source/flags or a bare source', () => {
    expect(textRegex('/total: \\d+/i').test('TOTAL: 42')).toBe(true);
    expect(textRegex('^\\d+$').test('84')).toBe(true);
    expect(() => textRegex('[0-9')).toThrow(SyntaxError);
    expect(() => textRegex('/a/zz')).toThrow(SyntaxError);
  });
});
