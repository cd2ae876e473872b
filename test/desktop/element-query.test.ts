import { describe, expect, test } from 'vitest';
import { accessibleName, labelBeside, matchElements, withLayoutLabels } from '../../src/desktop/element-query.ts';
import type { Element } from '../../src/desktop/types.ts';

let serial = 0;
const element = (role: string, name: string, box: [number, number, number, number], extra: Partial<Element> = {}): Element => ({
  ref: `:1.1/e${serial++}`,
  role,
  toolkitRole: role === 'button' ? 'push button' : role,
  name,
  description: '',
  states: { focused: false, checked: false, sensitive: true, showing: true, editable: false, selected: false, expanded: false },
  box: { x: box[0], y: box[1], width: box[2], height: box[3] },
  parent: ':1.1/window',
  index: 0,
  depth: 1,
  ...extra,
});

describe('matchElements', () => {
  const ok = element('button', 'OK', [100, 100, 80, 30]);
  const cancel = element('button', ' Cancel ', [10, 100, 80, 30]);
  const toggle = element('button', 'Dark mode', [10, 10, 40, 20], { toolkitRole: 'toggle button' });
  const hidden = element('button', 'OK', [0, 0, 0, 0]);
  const tree = [cancel, ok, toggle, hidden];

  test('by role and exact name (white space normalised), by regex, nth among the matches', () => {
    expect(matchElements(tree, { role: 'button', name: 'OK' })).toEqual([ok]);
    expect(matchElements(tree, { name: 'Cancel' })).toEqual([cancel]);
    expect(matchElements(tree, { name: 'ok' })).toEqual([]);
    expect(matchElements(tree, { role: 'button', name: /^(ok|cancel)$/i })).toEqual([cancel, ok]);
    expect(matchElements(tree, { role: 'button', name: /^(ok|cancel)$/i, nth: 1 })).toEqual([ok]);
    expect(matchElements(tree, { role: 'button', nth: 5 })).toEqual([]);
  });

  test('a toolkit role works too, and a checkbox query also finds a toggle button', () => {
    expect(matchElements(tree, { role: 'push button', name: 'OK' })).toEqual([ok]);
    expect(matchElements(tree, { role: 'checkbox', name: 'Dark mode' })).toEqual([toggle]);
    expect(matchElements(tree, { role: 'label' })).toEqual([]);
  });

  test('an element with no area is never matched', () => {
    expect(matchElements([hidden], { name: 'OK' })).toEqual([]);
  });
});

describe('labels of unnamed fields', () => {
  const name = element('label', 'Name', [20, 37, 39, 34]);
  const city = element('label', 'City', [20, 77, 26, 34]);
  const above = element('label', 'Notes', [20, 120, 60, 16]);
  const status = element('label', 'Status: ready', [0, 200, 400, 16]);
  const nameEntry = element('entry', '', [69, 37, 168, 34]);
  const cityEntry = element('entry', '', [69, 77, 168, 34]);
  const notes = element('textarea', '', [20, 140, 300, 50]);
  const icon = element('checkbox', '', [300, 220, 20, 20]);
  const named = element('entry', 'Search', [69, 0, 168, 30]);

  test('the label left on the same row, else the one above in the same column', () => {
    expect(labelBeside(nameEntry, [name, city, above])).toBe(name);
    expect(labelBeside(cityEntry, [name, city, above])).toBe(city);
    expect(labelBeside(notes, [name, city, above, status])).toBe(above);
  });

  test('withLayoutLabels names fields only: not named ones, not check boxes, not across windows', () => {
    const other = element('label', 'City', [20, 77, 26, 34], { parent: undefined, ref: ':1.1/other-window' });
    const window = element('window', 'Form', [0, 0, 400, 300], { parent: undefined, ref: ':1.1/window', depth: 0 });
    const result = withLayoutLabels([window, name, city, nameEntry, cityEntry, icon, named, status, other]);
    const labelOf = (e: Element): string | undefined => result.find((r) => r.ref === e.ref)?.label;
    expect(labelOf(nameEntry)).toBe('Name');
    expect(labelOf(cityEntry)).toBe('City');
    expect(labelOf(icon)).toBeUndefined();
    expect(labelOf(named)).toBeUndefined();
    expect(accessibleName(result.find((r) => r.ref === cityEntry.ref) as Element)).toBe('City');
    expect(matchElements(result, { role: 'entry', name: 'City' }).map((e) => e.ref)).toEqual([cityEntry.ref]);
  });
});
