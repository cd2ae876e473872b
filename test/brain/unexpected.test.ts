/** Telling a change nobody recorded from content that changes on its own. */
import { describe, expect, test } from 'vitest';
import { continuingChanging, extendsChanging } from '../../src/brain/observe.ts';

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

describe('continuingChanging', () => {
  const seconds = { x: 333, y: 199, width: 8, height: 12 };

  test("the minutes beside the tens digit beside the ticking seconds are all the clock's", () => {
    const tens = { x: 325, y: 199, width: 7, height: 12 };
    // Past the colon: further than the slack, within one character of the line.
    const minutes = { x: 302, y: 198, width: 14, height: 13 };
    const status = { x: 360, y: 199, width: 40, height: 12 };
    expect(continuingChanging([minutes, status, tens], [seconds])).toEqual([tens, minutes]);
  });

  test('the end of a longer headline beside the part seen rotating is the banner', () => {
    const seenRotating = { x: 29, y: 380, width: 294, height: 18 };
    expect(continuingChanging([{ x: 323, y: 381, width: 44, height: 15 }], [seenRotating])).toHaveLength(1);
    // The tops of taller letters (a larger font) are its fringe.
    expect(continuingChanging([{ x: 73, y: 376, width: 19, height: 7 }], [seenRotating])).toHaveLength(1);
    // An error box over the banner is taller: not more of the headline.
    expect(continuingChanging([{ x: 8, y: 377, width: 544, height: 35 }], [seenRotating])).toEqual([]);
  });
});
