/** Telling a change nobody recorded from content that changes on its own. */
import { describe, expect, test } from 'vitest';
import { extendsChanging } from '../../src/brain/unexpected.ts';

describe('extendsChanging', () => {
  const seconds = { x: 333, y: 199, width: 8, height: 12 };

  test("the tens digit beside a ticking seconds digit is the clock's", () => {
    expect(extendsChanging({ x: 325, y: 199, width: 8, height: 12 }, [seconds])).toBe(true);
  });

  test('a message on another line, a taller box, or one further along the line is not', () => {
    expect(extendsChanging({ x: 325, y: 170, width: 8, height: 12 }, [seconds])).toBe(false);
    expect(extendsChanging({ x: 200, y: 190, width: 160, height: 30 }, [seconds])).toBe(false);
    expect(extendsChanging({ x: 300, y: 199, width: 20, height: 12 }, [seconds])).toBe(false);
  });
});
