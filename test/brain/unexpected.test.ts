/** Telling a change nobody recorded from content that changes on its own, and from the focus moving. */
import { describe, expect, test } from 'vitest';
import type { Frame, Region } from '../../src/domain.ts';
import type { Element } from '../../src/desktop/types.ts';
import { isFocusFeedback } from '../../src/brain/unexpected.ts';
import { focusMoves } from '../../src/brain/element-effects.ts';
import { continuingChanging, extendsChanging, makeEffects } from '../../src/brain/observe.ts';
import { cloneFrame, createFrame, fillRegion, regionsIntersect, strokeRegion } from '../../src/vision/frame.ts';
import { blindReader } from '../support/fake-desktop.ts';

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

describe('the focus moving between two fields drawn close together', () => {
  // Two entries 6 px apart: the focus ring (and the caret) leaves the first as text is typed into the second.
  const first = { x: 20, y: 20, width: 160, height: 26 };
  const second = { x: 20, y: 52, width: 160, height: 26 };
  const field = (frame: Frame, box: Region, focused: boolean): void => {
    fillRegion(frame, box, [255, 255, 255, 255]);
    strokeRegion(frame, box, focused ? [53, 132, 228, 255] : [180, 180, 180, 255], focused ? 2 : 1);
  };
  const text = (frame: Frame, box: Region, width: number): void =>
    fillRegion(frame, { x: box.x + 8, y: box.y + 8, width, height: 10 }, [30, 30, 30, 255]);
  const before = createFrame(200, 100, [240, 240, 240, 255]);
  field(before, first, true);
  field(before, second, false);
  text(before, first, 40);
  // The caret the first field shows only while focused.
  fillRegion(before, { x: first.x + 52, y: first.y + 6, width: 1, height: 14 }, [30, 30, 30, 255]);
  const after = createFrame(200, 100, [240, 240, 240, 255]);
  field(after, first, false);
  field(after, second, true);
  text(after, first, 40);
  text(after, second, 50);
  const element = (box: Region, index: number, focused: boolean, value: string): Element => ({
    ref: `:1.1/${index}`,
    role: 'entry',
    toolkitRole: 'text',
    name: `Field${index}`,
    description: '',
    index,
    depth: 0,
    box,
    text: value,
    states: { focused, checked: false, sensitive: true, showing: true, editable: true, selected: false, expanded: false },
  });
  const elementsBefore = [element(first, 0, true, 'Alice'), element(second, 1, false, '')];

  test('recorded: the ring leaving the first field is its feedback, apart from the text typed into the second', async () => {
    const moves = focusMoves(elementsBefore, [element(first, 0, false, 'Alice'), element(second, 1, true, 'Paris')]);
    expect(moves).toEqual({ focusOnly: [first], changed: [second] });
    const merged = await makeEffects({ before, after, dynamic: [], secret: false, sink: new Map(), reader: blindReader, target: second });
    expect(merged).toHaveLength(1);
    const effects = await makeEffects({
      before,
      after,
      dynamic: [],
      secret: false,
      sink: new Map(),
      reader: blindReader,
      target: second,
      focusOnly: moves.focusOnly,
    });
    expect(effects.map((e) => e.kind)).toEqual(['feedback', 'look']);
    expect(regionsIntersect(effects[0]!.region, second)).toBe(false);
    expect(regionsIntersect(effects[1]!.region, first)).toBe(false);
  });

  test('replayed: the ring leaving is not news; the field it left having new text is', () => {
    const ring = { x: 18, y: 18, width: 164, height: 30 };
    const moves = focusMoves(elementsBefore, [element(first, 0, false, 'Alice'), element(second, 1, true, 'Paris')]);
    expect(isFocusFeedback(ring, moves, before, after)).toBe(true);
    const typedThere = focusMoves(elementsBefore, [element(first, 0, false, 'AliceParis'), element(second, 1, true, '')]);
    expect(isFocusFeedback(ring, typedThere, before, after)).toBe(false);
    // Pixels that changed inside the field, whatever its element says: not a ring.
    const retyped = cloneFrame(after);
    text(retyped, first, 90);
    expect(isFocusFeedback(ring, moves, before, retyped)).toBe(false);
  });
});
