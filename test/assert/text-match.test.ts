/** `contains` matches whole words and numbers (issue 17); `substring` keeps the match anywhere. */
import { describe, expect, test } from 'vitest';
import { matchText } from '../../src/vision/text-match.ts';

describe('contains: at word and number boundaries', () => {
  test.each([
    ['Total: 420', 'Total: 42'],
    ['Total: 42.5', 'Total: 42'],
    ['Total: 42,000', 'Total: 42'],
    ['Total: 1,042', '042'],
    ['15', '5'],
    ['Count: 30', 'Count: 3'],
    ['UnSaved', 'Saved'],
    ['Savedata', 'Saved'],
    ['0.5', '5'],
  ])('"%s" does not contain "%s"', (read, expected) => {
    expect(matchText(read, expected).ok).toBe(false);
    expect(matchText(read, expected, 'substring').ok).toBe(true);
  });

  test.each([
    ['Total: 42', 'Total: 42'],
    ['Total: 42.', 'Total: 42'],
    ['Total: 42, paid', 'Total: 42'],
    ['(Total: 42)', 'Total: 42'],
    ['Result 84\nApply', '84'],
    ['Total:42', 'Total:'],
    ['Saved!', 'Saved'],
    ['a 420 and a 42', '42'],
    ['7 8 9 5 = 5', '5'],
    ['12 × 7 = 84', '12 * 7'],
  ])('"%s" contains "%s"', (read, expected) => {
    expect(matchText(read, expected).ok).toBe(true);
  });

  test('the match reported is the whole-word one, not the first substring', () => {
    expect(matchText('a 420 and a 42', '42')).toMatchObject({ ok: true, matched: '42' });
    expect(matchText('Welcome, alice', 'welcome', 'contains', { ignoreCase: true })).toMatchObject({ ok: true, matched: 'Welcome' });
  });

  test('sameShapeCase: c, o, s, v, w, x and z of either case, every other letter exactly', () => {
    expect(matchText('Order sent fOr Alice', 'Order sent for Alice').ok).toBe(false);
    expect(matchText('Order sent fOr Alice', 'Order sent for Alice', 'contains', { sameShapeCase: true })).toMatchObject({
      ok: true,
      matched: 'Order sent fOr Alice',
    });
    expect(matchText('SCOWZ vox', 'scowz VOX', 'exact', { sameShapeCase: true }).ok).toBe(true);
    expect(matchText('Order sent FOR Alice', 'Order sent for Alice', 'contains', { sameShapeCase: true }).ok).toBe(false);
    expect(matchText('Order sent for alice', 'Order sent for Alice', 'contains', { sameShapeCase: true }).ok).toBe(false);
  });
});
