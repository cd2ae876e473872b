/** Comparing an effect's text by what it means. */
import { describe, expect, test } from 'vitest';
import { findLines, findSaid, knownReading, readingOrder, sameText } from '../../src/brain/effect-text.ts';
import { makeEffects } from '../../src/brain/observe.ts';
import { asElementEvidence } from '../../src/brain/element-effects.ts';
import type { Element } from '../../src/desktop/types.ts';
import type { Frame } from '../../src/domain.ts';
import { cloneFrame, createFrame, fillRegion, strokeRegion } from '../../src/vision/frame.ts';
import type { Rgba, TextBox, TextReader } from '../../src/vision/types.ts';
import { drawText, glyphReader, textBox } from '../support/glyphs.ts';

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

describe('knownReading: what learning records is never a misreading of a text known to be there', () => {
  const typed = (text: string) => ({ text, from: 'typed' as const });
  const tree = (text: string) => ({ text, from: 'tree' as const });

  test('what was typed wins over a misread: typed digits read as letters, a caret read as a glyph', () => {
    expect(knownReading('El', [typed('3')])).toBe('3');
    expect(knownReading('Buy Milk]', [typed('Buy Milk')])).toBe('Buy Milk');
    expect(knownReading('|Buy Milk', [typed('Buy Milk')])).toBe('Buy Milk');
  });

  test('what the tree says wins over a misread', () => {
    expect(knownReading('n', [tree('on')])).toBe('on');
    expect(knownReading('Total: 8', [tree('Total: 3')])).toBe('Total: 3');
  });

  test('what the app made of typed text stays as read: a clamp, a cut, another case, a mark it added', () => {
    expect(knownReading('4', [typed('5')])).toBe('4');
    expect(knownReading('ab', [typed('abc')])).toBe('ab');
    expect(knownReading('ABC', [typed('abc')])).toBe('ABC');
    expect(knownReading('Hi!', [typed('Hi')])).toBe('Hi!');
    expect(knownReading('13', [typed('3'), typed('13')])).toBe('13');
  });

  test('a region of several lines: the line that misreads a known text is that text', () => {
    expect(knownReading('Tea\nEl', [typed('3')])).toBe('Tea\n3');
    expect(knownReading('El\nE', [typed('3')])).toBe('El\nE');
    expect(knownReading('OK\nE', [typed('3')])).toBe('OK\n3');
  });

  test('a read far from every known text, or near several, stays as read', () => {
    expect(knownReading('OK', [typed('3')])).toBe('OK');
    expect(knownReading('Saved', [typed('3'), tree('Total: 3')])).toBe('Saved');
    expect(knownReading('Al', [typed('3'), typed('8')])).toBe('Al');
    expect(knownReading('', [typed('3')])).toBe('');
  });
});

describe('learning records a known text, not its misreading (makeEffects)', () => {
  const INK: Rgba = [0, 0, 0, 255];
  const before = createFrame(120, 60, [255, 255, 255, 255]);
  // An OCR that reads the test font, except a typed "3" (as "E") and a toggle's "ON" (as "N").
  const MISREADS: Readonly<Record<string, string>> = { '3': 'E', ON: 'N' };
  const misread = (text: string): string =>
    text
      .split(' ')
      .map((w) => MISREADS[w] ?? w)
      .join(' ');
  const misreader: TextReader = {
    read: async (frame) => {
      const read = await glyphReader.read(frame);
      const fix = (t: TextBox): TextBox => ({ ...t, text: misread(t.text) });
      return { text: read.text.split('\n').map(misread).join('\n'), words: read.words.map(fix), lines: read.lines.map(fix) };
    },
    close: async () => undefined,
  };
  const drawn = (text: string): Frame => {
    const after = cloneFrame(before);
    drawText(after, text, { x: 30, y: 20 }, INK);
    return after;
  };
  const effects = (after: Frame, known?: Parameters<typeof makeEffects>[0]['known']) =>
    makeEffects({ before, after, dynamic: [], secret: false, sink: new Map(), reader: misreader, ...(known && { known }) });

  test('a typed "3" read as "E" is recorded as "3"', async () => {
    const after = drawn('3');
    expect((await effects(after)).map((e) => e.text)).toEqual(['E']);
    expect((await effects(after, { typed: '3' })).map((e) => e.text)).toEqual(['3']);
  });

  test('a label the tree says reads "ON", read as "N", is recorded as "ON"', async () => {
    const after = drawn('ON');
    const label: Element = {
      ref: 'toggle',
      role: 'label',
      toolkitRole: 'label',
      name: 'ON',
      description: '',
      states: { focused: false, checked: false, sensitive: true, showing: true, editable: false, selected: false, expanded: false },
      box: { ...textBox('ON', { x: 30, y: 20 }) },
      index: 0,
      depth: 0,
    };
    expect((await effects(after)).map((e) => e.text)).toEqual(['N']);
    expect((await effects(after, { elements: [label] })).map((e) => e.text)).toEqual(['ON']);
  });
});

describe('learning records what changed, not the noise OCR reads around it (makeEffects)', () => {
  const INK: Rgba = [0, 0, 0, 255];
  const before = createFrame(160, 80, [255, 255, 255, 255]);
  // An OCR that reads the test font, and whatever it reads, a speck in the corner of the read
  // as well: the foot of a neighbour's label showing in the padding around a change.
  const specked: TextReader = {
    read: async (frame) => {
      const read = await glyphReader.read(frame);
      const speck: TextBox = { text: '.', box: { x: 0, y: 0, width: 2, height: 2 }, confidence: 40 };
      return { text: ['.', read.text].filter(Boolean).join('\n'), words: [speck, ...read.words], lines: [speck, ...read.lines] };
    },
    close: async () => undefined,
  };
  const effects = (after: Frame, reader: TextReader) => makeEffects({ before, after, dynamic: [], secret: false, sink: new Map(), reader });

  test('a speck read in the padding around a new text is no part of it', async () => {
    const after = cloneFrame(before);
    drawText(after, 'ORDER', { x: 40, y: 30 }, INK);
    expect((await effects(after, specked)).map((e) => e.text)).toEqual(['ORDER']);
  });

  test('a radio button’s dot going records no letters read in its circle', async () => {
    const dot = (frame: Frame, x0: number, y0: number, size: number): void => {
      for (let y = y0; y < y0 + size; y++) for (let x = x0; x < x0 + size; x++) frame.data.set(INK, (y * frame.width + x) * 4);
    };
    // A circle (a ring, 12 px across) with its dot; the action leaves the ring alone.
    const selected = cloneFrame(before);
    dot(selected, 56, 36, 12);
    for (let y = 38; y < 46; y++) for (let x = 58; x < 66; x++) selected.data.set([255, 255, 255, 255], (y * selected.width + x) * 4);
    dot(selected, 60, 40, 4);
    const cleared = cloneFrame(selected);
    for (let y = 40; y < 44; y++) for (let x = 60; x < 64; x++) cleared.data.set([255, 255, 255, 255], (y * cleared.width + x) * 4);
    // What OCR makes of the ring around it: letters spanning all it was given to read.
    const letters: TextReader = {
      read: async (frame) => {
        const word: TextBox = { text: 'io', box: { x: 0, y: 0, width: frame.width, height: frame.height }, confidence: 14 };
        return { text: 'io', words: [word], lines: [word] };
      },
      close: async () => undefined,
    };
    const [gone] = await makeEffects({ before: selected, after: cleared, dynamic: [], secret: false, sink: new Map(), reader: letters });
    expect(gone?.region).toEqual({ x: 57, y: 37, width: 10, height: 10 });
    expect(gone?.text).toBeUndefined();
  });
});

describe("the target's own look is its feedback, not part of what opened beside it (makeEffects)", () => {
  const INK: Rgba = [0, 0, 0, 255];
  const button = { x: 20, y: 20, width: 60, height: 27 };
  const before = createFrame(200, 120, [255, 255, 255, 255]);
  fillRegion(before, button, [220, 220, 220, 255]);
  drawText(before, 'SEND', { x: 26, y: 26 }, INK);
  // Pressed: the button's frame darkens, its label stays; a dialog opens 4 px below it.
  const after = cloneFrame(before);
  strokeRegion(after, button, [90, 90, 90, 255], 2);
  const dialog = { x: 20, y: 51, width: 150, height: 40 };
  fillRegion(after, dialog, [255, 248, 224, 255]);
  drawText(after, 'ORDER DONE', { x: 30, y: 63 }, INK);
  const effects = (changed = after) =>
    makeEffects({ before, after: changed, dynamic: [], secret: false, sink: new Map(), reader: glyphReader, target: button });

  test('the dialog is a text of its own; the button pressed is feedback', async () => {
    const made = await effects();
    expect(made.map((e) => [e.kind, e.text])).toEqual([
      ['feedback', 'SEND'],
      ['text', 'ORDER DONE'],
    ]);
  });

  test('a dialog drawn over the button’s edge stays one change with it', async () => {
    const over = cloneFrame(before);
    strokeRegion(over, button, [90, 90, 90, 255], 2);
    fillRegion(over, { x: 20, y: 44, width: 150, height: 45 }, [255, 248, 224, 255]);
    drawText(over, 'ORDER DONE', { x: 30, y: 60 }, INK);
    const made = await effects(over);
    expect(made.map((e) => [e.kind, e.text])).toEqual([['text', 'SEND\nORDER DONE']]);
    expect(made[0]?.region).toEqual({ x: 15, y: 15, width: 158, height: 77 });
  });

  test('so is a dialog of the window’s colour whose frame alone crosses the button’s padded edge', async () => {
    const over = cloneFrame(before);
    strokeRegion(over, button, [90, 90, 90, 255], 2);
    strokeRegion(over, { x: 40, y: 46, width: 130, height: 43 }, INK, 1);
    drawText(over, 'ORDER DONE', { x: 50, y: 62 }, INK);
    const made = await effects(over);
    expect(made.map((e) => [e.kind, e.text])).toEqual([['text', 'SEND\nORDER DONE']]);
  });

  test('with the tree saying the button is unchanged, a dialog over its edge is apart from its pressed look', async () => {
    const over = cloneFrame(before);
    strokeRegion(over, button, [90, 90, 90, 255], 2);
    fillRegion(over, { x: 20, y: 44, width: 150, height: 45 }, [255, 248, 224, 255]);
    drawText(over, 'ORDER DONE', { x: 30, y: 60 }, INK);
    const made = await makeEffects({
      before,
      after: over,
      dynamic: [],
      secret: false,
      sink: new Map(),
      reader: glyphReader,
      target: button,
      targetUnchanged: true,
    });
    expect(made.map((e) => [e.kind, e.text])).toEqual([
      ['feedback', 'SEND'],
      ['text', 'ORDER DONE'],
    ]);
  });

  test('a target whose inside changed (its label) stays part of the change around it', async () => {
    const relabelled = cloneFrame(after);
    fillRegion(relabelled, { x: 22, y: 22, width: 56, height: 23 }, [220, 220, 220, 255]);
    drawText(relabelled, 'DONE', { x: 26, y: 26 }, INK);
    const made = await effects(relabelled);
    expect(made.map((e) => [e.kind, e.text])).toEqual([['text', 'DONE\nORDER DONE']]);
  });
});

describe('a pixel effect on an element the action changed keeps the words the tree says (asElementEvidence)', () => {
  const region = { x: 123, y: 153, width: 153, height: 74 };
  const read = { region, kind: 'text' as const, image: 'a.png', text: 'Order sent for AIice\nOK' };
  const appeared = (role: string, name: string) => ({
    role,
    name,
    path: [{ role, index: 1 }],
    after: { name },
    change: 'appeared' as const,
    box: { x: 126, y: 156, width: 147, height: 68 },
  });

  test('on a label, its name', () => {
    const [effect] = asElementEvidence([read], [appeared('label', 'Order sent for Alice')], []);
    expect([effect?.kind, effect?.text]).toEqual(['element', 'Order sent for Alice']);
  });

  test('on a dialog or a window that appeared, what was read: its name is its title, not what it shows', () => {
    for (const role of ['dialog', 'window']) {
      const [effect] = asElementEvidence([read], [appeared(role, 'Order')], []);
      expect([effect?.kind, effect?.text]).toEqual(['element', read.text]);
    }
  });
});
