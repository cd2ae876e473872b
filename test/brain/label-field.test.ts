/** fieldLabelledBy: the field a label names, by name or relation first, else by where it sits. */
import { describe, expect, test } from 'vitest';
import type { Element } from '../../src/desktop/types.ts';
import { fieldLabelledBy } from '../../src/brain/paced-typing.ts';

const element = (
  ref: string,
  role: string,
  name: string,
  box: [number, number, number, number],
  extra: Partial<Element> = {},
): Element => ({
  ref,
  role,
  toolkitRole: role === 'entry' ? 'text' : role,
  name,
  description: '',
  states: { focused: false, checked: false, sensitive: true, showing: true, editable: role === 'entry', selected: false, expanded: false },
  ...(role === 'entry' && { text: '' }),
  box: { x: box[0], y: box[1], width: box[2], height: box[3] },
  index: 0,
  depth: 2,
  ...extra,
});

describe('fieldLabelledBy', () => {
  const name = element('l1', 'label', 'Name', [10, 10, 60, 20]);
  const city = element('l2', 'label', 'City', [10, 50, 60, 20]);
  const nameField = element('e1', 'entry', '', [80, 10, 150, 20]);
  const cityField = element('e2', 'entry', '', [80, 50, 150, 20]);

  test('without names or relations: the nearest field right of the label on its row', () => {
    expect(fieldLabelledBy([name, nameField, city, cityField], city)?.ref).toBe('e2');
    expect(fieldLabelledBy([name, nameField, city, cityField], name)?.ref).toBe('e1');
  });

  test('a field below the label in its column, when none is to its right', () => {
    const above = element('l3', 'label', 'Notes', [10, 100, 60, 20]);
    const under = element('e3', 'entry', '', [10, 125, 200, 60]);
    expect(fieldLabelledBy([above, under, cityField], above)?.ref).toBe('e3');
  });

  test('a field named by the label, or labelled by it, wins over position', () => {
    const named = element('e9', 'entry', 'City', [300, 300, 100, 20]);
    expect(fieldLabelledBy([city, cityField, named], city)?.ref).toBe('e9');
    const related = element('e8', 'entry', '', [300, 300, 100, 20], { label: 'City' });
    expect(fieldLabelledBy([city, cityField, related], city)?.ref).toBe('e8');
  });

  test('the field the label is tied to (its label-for relation) wins over one named like it', () => {
    // Chromium names an unlabelled password field "Password"; the label "Password" is tied to the other field.
    const password = element('l4', 'label', 'Password', [10, 90, 60, 20]);
    const user = element('e4', 'entry', 'Username Password', [10, 60, 150, 20]);
    const secret = element('e5', 'entry', 'Password', [10, 115, 150, 20]);
    expect(fieldLabelledBy([user, password, secret], password, ['e4'])?.ref).toBe('e4');
    expect(fieldLabelledBy([user, password, secret], password)?.ref).toBe('e5');
    expect(fieldLabelledBy([user, password, secret], password, ['gone'])?.ref).toBe('e5');
  });

  test('a field itself, an unnamed element, or a label with no field near: none', () => {
    expect(fieldLabelledBy([cityField], cityField)).toBeUndefined();
    expect(fieldLabelledBy([element('x', 'label', '', [0, 0, 5, 5]), cityField], element('x', 'label', '', [0, 0, 5, 5]))).toBeUndefined();
    expect(fieldLabelledBy([city, element('e0', 'entry', '', [0, 0, 5, 5])], city)).toBeUndefined();
  });
});
