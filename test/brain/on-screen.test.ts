/**
 * Which published elements are on screen: an element whose clipping ancestor has no area is not
 * (Qt's closed combo list, 0 × 0, publishes its items over the fields below), while a frame whose
 * extents the toolkit does not know (the Java ATK wrapper's window says -1 × -1) clips nothing.
 */
import { describe, expect, test } from 'vitest';
import type { Element } from '../../src/desktop/types.ts';
import type { Region } from '../../src/domain.ts';
import { indexByRef, onScreen } from '../../src/brain/elements.ts';
import { coveredAt } from '../../src/brain/element-target.ts';

const STATES = { focused: false, checked: false, sensitive: true, showing: true, editable: false, selected: false, expanded: false };

const element = (ref: string, role: string, box: Region, parent?: string): Element => ({
  ref,
  role,
  toolkitRole: role,
  name: ref,
  description: '',
  states: STATES,
  box,
  ...(parent !== undefined && { parent }),
  index: 0,
  depth: parent === undefined ? 0 : 1,
});

const entryUnder = (window: Region): readonly Element[] => [
  element('frame', 'window', window),
  element('Name', 'entry', { x: 214, y: 0, width: 206, height: 44 }, 'frame'),
];

describe('onScreen', () => {
  test('an element inside its window is on screen', () => {
    const elements = entryUnder({ x: 0, y: 0, width: 420, height: 200 });
    expect(onScreen(elements[1]!, indexByRef(elements))).toBe(true);
  });

  test('an element under a clipping ancestor with no area is not', () => {
    const elements = entryUnder({ x: 0, y: 0, width: 0, height: 0 });
    expect(onScreen(elements[1]!, indexByRef(elements))).toBe(false);
  });

  test('a window whose extents are not known (-1 × -1) clips nothing', () => {
    const elements = entryUnder({ x: -1, y: -1, width: -1, height: -1 });
    expect(onScreen(elements[1]!, indexByRef(elements))).toBe(true);
  });
});

describe('coveredAt', () => {
  const window = element('frame', 'window', { x: 0, y: 0, width: 400, height: 380 });
  const submit = element('Submit', 'button', { x: 96, y: 132, width: 80, height: 25 }, 'frame');
  const point = { x: 136, y: 150 };
  const over = (role: string): readonly Element[] => [
    window,
    submit,
    element('Order', role, { x: 118, y: 140, width: 164, height: 68 }, 'frame'),
  ];
  const covered = (elements: readonly Element[]): boolean => coveredAt(submit, point, elements, indexByRef(elements));

  test('a dialog or a window shown inside the app’s (Qt’s in-window dialog, a frame) over the point covers it', () => {
    expect(covered(over('dialog'))).toBe(true);
    expect(covered(over('window'))).toBe(true);
  });

  test('a group, a tooltip, or a surface that is not showing, does not', () => {
    expect(covered(over('group'))).toBe(false);
    expect(covered(over('tooltip'))).toBe(false);
    const hidden = over('window').map((e) => (e.ref === 'Order' ? { ...e, states: { ...STATES, showing: false } } : e));
    expect(covered(hidden)).toBe(false);
  });
});
