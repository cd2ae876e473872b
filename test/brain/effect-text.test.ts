/** Comparing an effect's text by what it means. */
import { describe, expect, test } from 'vitest';
import { findLines, findSaid, readingOrder, sameText } from '../../src/brain/effect-text.ts';

const word = (text: string, x: number, y: number) => ({ text, box: { x, y, width: 10 * text.length, height: 16 }, confidence: 90 });

describe('sameText', () => {
  test('words are compared exactly: case, order and every letter', () => {
    expect(sameText('Buy milk', 'Buy  milk')).toBe(true);
    expect(sameText('Buy milk', 'Buy\nmilk')).toBe(true);
    expect(sameText('Buy milk', 'buy milk')).toBe(false);
    expect(sameText('Buy milk', 'milk Buy')).toBe(false);
    expect(sameText('Buy milk', 'Buy mil')).toBe(false);
    expect(sameText('Total: 42', 'Total: 420')).toBe(false);
  });

  test('a clock or a date by its shape, a number by its value', () => {
    expect(sameText('Saved at 12:03:04', 'Saved at 09:41:59')).toBe(true);
    expect(sameText('Saved at 12:03:04', 'Saved at 09:41')).toBe(false);
    expect(sameText('on 2026-11-24', 'on 2027-01-02')).toBe(true);
    expect(sameText('1,000 items', '1000 items')).toBe(true);
    expect(sameText('Count: 3', 'Count: 4')).toBe(false);
    expect(sameText('50%', '50')).toBe(false);
  });
});

describe('findSaid', () => {
  const words = readingOrder([word('milk', 60, 10), word('Buy', 10, 12), word('Saved', 10, 40)]);

  test('finds the words in reading order, and boxes them', () => {
    expect(findSaid('Buy milk', words)).toEqual({ x: 10, y: 10, width: 90, height: 18 });
  });

  test('does not find them in another order or case', () => {
    expect(findSaid('milk Buy', words)).toBeUndefined();
    expect(findSaid('buy milk', words)).toBeUndefined();
  });
});

describe('findLines', () => {
  // A menu whose items a moved layout reversed: Back, Sound, Display.
  const menu = readingOrder([word('Back', 200, 60), word('Sound', 200, 110), word('Display', 200, 160)]);
  const any = (): boolean => true;

  test('finds each line of a text as a row of its own, in any order', () => {
    expect(findLines('Display\nSound', menu, any)).toEqual([
      { x: 200, y: 160, width: 70, height: 16 },
      { x: 200, y: 110, width: 50, height: 16 },
    ]);
  });

  test('every line must be there, exactly, and a line is not part of a longer row', () => {
    expect(findLines('Display\nVolume', menu, any)).toBeUndefined();
    expect(findLines('display\nSound', menu, any)).toBeUndefined();
    const longer = readingOrder([word('Sound', 200, 110), word('settings', 260, 110), word('Display', 200, 160)]);
    expect(findLines('Display\nSound', longer, any)).toBeUndefined();
  });

  test('one line at least must be where the action changed something', () => {
    const below = (y: number) => (box: { y: number }) => box.y >= y;
    expect(findLines('Display\nBack', menu, below(150))).toHaveLength(2);
    expect(findLines('Sound\nBack', menu, below(150))).toBeUndefined();
  });

  test('two equal lines need two rows saying it; one line is no set of lines', () => {
    expect(findLines('Sound\nSound', menu, any)).toBeUndefined();
    expect(findLines('Sound', menu, any)).toBeUndefined();
  });
});
