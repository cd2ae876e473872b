/** elementTargetText: the spec text inspect offers for an element, the one a run finds it by. */
import { describe, expect, test } from 'vitest';
import type { Element } from '../../src/desktop/types.ts';
import { elementTargetText } from '../../src/author/inspect.ts';

const element = (ref: string, role: string, name: string, extra: Partial<Element> = {}): Element => ({
  ref,
  role,
  toolkitRole: role,
  name,
  description: '',
  states: { focused: false, checked: false, sensitive: true, showing: true, editable: role === 'entry', selected: false, expanded: false },
  box: { x: 0, y: 0, width: 80, height: 24 },
  index: 0,
  depth: 2,
  ...extra,
});

describe('elementTargetText', () => {
  test('a rules-grammar line by role: click, type into, check', () => {
    const ok = element('b1', 'button', 'OK');
    const field = element('e1', 'entry', '', { label: 'Name' });
    const mute = element('c1', 'checkbox', 'Mute');
    const all = [ok, field, mute];
    expect(elementTargetText(ok, all)).toBe('click button "OK"');
    expect(elementTargetText(field, all)).toBe('type "…" into entry "Name"');
    expect(elementTargetText(mute, all)).toBe('check checkbox "Mute"');
  });

  test('a steps target where the grammar cannot say it: several with the name, a quote in it', () => {
    const first = element('b1', 'button', 'Remove');
    const second = element('b2', 'button', 'Remove');
    expect(elementTargetText(second, [first, second])).toBe('{ role: button, name: "Remove", nth: 1 }');
    const quoted = element('b3', 'button', 'Say "hi"');
    expect(elementTargetText(quoted, [quoted])).toBe('{ role: button, name: "Say \\"hi\\"" }');
  });

  test('none for an element nothing names', () => {
    const unnamed = element('p1', 'group', '');
    expect(elementTargetText(unnamed, [unnamed])).toBeUndefined();
  });
});
