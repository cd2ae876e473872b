/** Telling a change nobody recorded from content that changes on its own, and from the focus moving. */
import { describe, expect, test } from 'vitest';
import type { ElementEffect, Frame, Region } from '../../src/domain.ts';
import type { Element } from '../../src/desktop/types.ts';
import { isFocusFeedback, unexplainedChanges } from '../../src/brain/unexpected.ts';
import { elementChanges, focusMoves, leafBoxes, type ElementVerdict } from '../../src/brain/element-effects.ts';
import { effectBoxes, goneBoxes } from '../../src/brain/element-news.ts';
import { continuingChanging, extendsChanging, makeEffects } from '../../src/brain/observe.ts';
import { cloneFrame, createFrame, fillRegion, inflateRegion, regionsIntersect, strokeRegion } from '../../src/vision/frame.ts';
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
    // Without the tree, the pixels alone tell the same: the first field's inside shows what it showed.
    const byPixels = await makeEffects({ before, after, dynamic: [], secret: false, sink: new Map(), reader: blindReader, target: second });
    expect(byPixels.map((e) => e.kind)).toEqual(['feedback', 'look']);
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

const STATES = { focused: false, checked: false, sensitive: true, showing: true, editable: false, selected: false, expanded: false };
/** An element of the window "w" (itself when `depth` is 0). */
const el = (ref: string, role: string, name: string, box: Region, depth = 1): Element => ({
  ref,
  role,
  toolkitRole: role,
  name,
  description: '',
  states: STATES,
  box,
  ...(depth > 0 && { parent: 'w' }),
  index: 0,
  depth,
});

describe('a dialog recorded as appearing, drawn at another size', () => {
  const window = el('w', 'window', 'Order', { x: 0, y: 0, width: 400, height: 300 }, 0);
  // Recorded 190 × 125; at twice the scale it came 260 × 170, its frame and background its own.
  const dialogBox = { x: 70, y: 60, width: 260, height: 170 };
  const labelBox = { x: 100, y: 90, width: 200, height: 24 };
  const okBox = { x: 150, y: 170, width: 100, height: 34 };
  const before = createFrame(400, 300, [240, 240, 240, 255]);
  const drawDialog = (): Frame => {
    const after = cloneFrame(before);
    fillRegion(after, dialogBox, [255, 248, 224, 255]);
    strokeRegion(after, inflateRegion(dialogBox, -8), [180, 180, 180, 255], 2);
    fillRegion(after, { x: labelBox.x + 4, y: labelBox.y + 6, width: 180, height: 12 }, [30, 30, 30, 255]);
    fillRegion(after, okBox, [230, 230, 230, 255]);
    return after;
  };
  const dialog = el('d', 'dialog', '', dialogBox);
  const label = { ...el('l', 'label', 'Order sent for Alice', labelBox), parent: 'd' };
  const ok = { ...el('o', 'button', 'OK', okBox), parent: 'd' };
  const appeared = (e: Element) => ({ role: e.role, name: e.name, path: [], after: { name: e.name }, change: 'appeared' as const });
  const found = [dialog, label, ok].map((element) => ({ effect: appeared(element), element }));
  const leftOver = (after: Frame, elements: readonly Element[]): Region[] =>
    unexplainedChanges(before, after, [...effectBoxes(found, elements, after), ...leafBoxes(elements)], []);

  test('its frame, background and margins are its own, not news', () => {
    expect(leftOver(drawDialog(), [window, dialog, label, ok])).toEqual([]);
  });

  test('what draws in it what the tree does not tell (an image) is still judged by its pixels', () => {
    const after = drawDialog();
    const picture = { x: 90, y: 125, width: 40, height: 30 };
    fillRegion(after, picture, [200, 30, 30, 255]);
    const changes = leftOver(after, [window, dialog, label, ok, { ...el('i', 'image', '', picture), parent: 'd' }]);
    expect(changes.some((c) => regionsIntersect(c, picture))).toBe(true);
  });

  test('a list the dialog lies over is not in it: the dialog covering it is its own drawing', () => {
    const beneath = el('r', 'list', 'Orders', { x: 10, y: 200, width: 380, height: 90 });
    expect(leftOver(drawDialog(), [window, dialog, label, ok, beneath])).toEqual([]);
  });

  test('so is a window shown inside the app’s (Qt publishes its in-window dialog, a frame, as one): recorded as appearing, its box its own', () => {
    const frame = el('d', 'window', 'Order', dialogBox);
    const appearing = elementChanges([window], [window, frame, label, ok], { dynamic: [], secret: false });
    expect(appearing.map((e) => [e.role, e.name, e.change])).toEqual([
      ['window', 'Order', 'appeared'],
      ['label', 'Order sent for Alice', 'appeared'],
      ['button', 'OK', 'appeared'],
    ]);
    const shown = [frame, label, ok].map((element) => ({ effect: appeared(element), element }));
    const after = drawDialog();
    expect(
      unexplainedChanges(before, after, [...effectBoxes(shown, [window, frame, label, ok], after), ...leafBoxes([label, ok])], []),
    ).toEqual([]);
  });

  test('the app’s own window is no surface: it neither appears nor accounts for what is drawn in it', () => {
    const small = el('w', 'window', 'Order', dialogBox, 0);
    expect(elementChanges([], [small, label, ok], { dynamic: [], secret: false }).map((e) => e.role)).toEqual(['label', 'button']);
    const after = drawDialog();
    const shown = [{ effect: appeared(small), element: small }];
    expect(unexplainedChanges(before, after, effectBoxes(shown, [small, label, ok], after), [])).not.toEqual([]);
  });

  test('a dialog that did not appear (it changed) accounts for nothing but its own elements', () => {
    const changedOnly = [{ effect: { ...appeared(dialog), change: undefined }, element: dialog }];
    const after = drawDialog();
    expect(
      unexplainedChanges(before, after, [...effectBoxes(changedOnly, [dialog, label, ok], after), ...leafBoxes([label, ok])], []),
    ).not.toEqual([]);
  });
});

describe('unexplainedChanges at another scale', () => {
  const WHITE = [255, 255, 255, 255] as const;
  const INK = [20, 20, 20, 255] as const;
  const before = createFrame(200, 120, [...WHITE]);
  const button = { x: 40, y: 40, width: 60, height: 30 };

  test("a focus ring 8–11 px around a target drawn twice as large is the target's; at the recorded scale it is news", () => {
    const after = cloneFrame(before);
    strokeRegion(after, inflateRegion(button, 8), [...INK], 3);
    expect(unexplainedChanges(before, after, [button], [])).not.toEqual([]);
    expect(unexplainedChanges(before, after, [button], [], 2)).toEqual([]);
  });

  test('a speck of 3 × 3 pixels is a change at the recorded scale, and a speck at twice the scale', () => {
    const after = cloneFrame(before);
    fillRegion(after, { x: 150, y: 90, width: 3, height: 3 }, [...INK]);
    expect(unexplainedChanges(before, after, [], [])).toHaveLength(1);
    expect(unexplainedChanges(before, after, [], [], 2)).toEqual([]);
  });

  test('an error message beside a target drawn twice as large is still news', () => {
    const after = cloneFrame(before);
    fillRegion(after, { x: 130, y: 40, width: 50, height: 14 }, [...INK]);
    expect(unexplainedChanges(before, after, [button], [], 2)).toHaveLength(1);
  });

  test('a caret blinking in a line drawn twice as tall is a caret; at the recorded scale a bar that tall is news', () => {
    const after = cloneFrame(before);
    fillRegion(after, { x: 150, y: 20, width: 2, height: 56 }, [...INK]);
    expect(unexplainedChanges(before, after, [], [])).toHaveLength(1);
    expect(unexplainedChanges(before, after, [], [], 2)).toEqual([]);
  });
});

describe('a text that went, its replacement drawn elsewhere (settings layout=moved)', () => {
  const window = el('w', 'window', 'Settings', { x: 0, y: 0, width: 480, height: 400 }, 0);
  // Learned, the note's place lay inside the menu that replaced it; here the menu is on the right.
  const noteBox = { x: 18, y: 63, width: 204, height: 22 };
  const note = el('n', 'label', 'Welcome to the demo.', noteBox);
  const path = [
    { role: 'window', index: 0 },
    { role: 'label', index: 0 },
  ];
  const gone: ElementEffect = { role: 'label', name: 'Welcome to the demo.', path, after: {}, change: 'gone' };
  const before = createFrame(480, 400, [244, 244, 244, 255]);
  fillRegion(before, { x: 20, y: 68, width: 190, height: 12 }, [60, 60, 60, 255]);
  const after = createFrame(480, 400, [244, 244, 244, 255]);
  const leftOver = (
    beforeElements: readonly Element[],
    afterElements: readonly Element[] = [window],
    found: ElementVerdict['found'] = [{ effect: gone, element: undefined }],
  ): Region[] =>
    unexplainedChanges(before, after, [...goneBoxes(found, beforeElements, afterElements, after), ...leafBoxes(afterElements)], []);

  test('its going accounts for the place it left', () => {
    expect(leftOver([window, note])).toEqual([]);
  });

  test('so it does when the tree placed it one sibling further (a sibling published late)', () => {
    expect(leftOver([window, { ...note, index: 1 }])).toEqual([]);
  });

  test('a text still in the tree after the action, or another text, accounts for nothing', () => {
    // Still there (hidden, or drawn over): its ref is in the tree after the action.
    expect(
      leftOver([window, note], [window, { ...note, states: { ...STATES, showing: false }, box: { x: 0, y: 0, width: 0, height: 0 } }]),
    ).not.toEqual([]);
    expect(leftOver([window, el('n', 'label', 'Other news', noteBox)])).not.toEqual([]);
  });

  test('a text recorded as changed, not gone, accounts for nothing where it was', () => {
    expect(
      leftOver([window, note], [window], [{ effect: { role: gone.role, name: gone.name, path, after: {} }, element: undefined }]),
    ).not.toEqual([]);
  });
});
