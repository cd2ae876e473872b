/** The spec keys of elements: role targets in steps, check/uncheck/select, `element:` expectations. */
import { describe, expect, it } from 'vitest';
import { APP, load, problems } from './helpers.ts';

const goal = (body: string): string => `${APP}goals:\n  - id: g\n${body}`;

describe('element targets and steps', () => {
  it('reads { role, name, nth } wherever a target goes, and check, uncheck, select', () => {
    const spec = load(
      goal(`    steps:
      - click: { role: button, name: OK }
      - type: { text: Alice, into: { role: entry, name: Name } }
      - double-click: { role: item, name: "/^Par/i", nth: 1 }
      - check: Dark mode
      - uncheck: { role: button, name: Bold }
      - select: { option: Paris, in: { role: combobox, name: City } }
`),
    );
    expect(spec.goals[0]?.steps).toEqual([
      { kind: 'click', target: { role: 'button', name: 'OK' } },
      { kind: 'type', text: 'Alice', into: { role: 'entry', name: 'Name' } },
      { kind: 'double-click', target: { role: 'item', name: '/^Par/i', nth: 1 } },
      { kind: 'check', target: { role: 'checkbox', name: 'Dark mode' }, checked: true },
      { kind: 'check', target: { role: 'button', name: 'Bold' }, checked: false },
      { kind: 'select', option: 'Paris', target: { role: 'combobox', name: 'City' } },
    ]);
  });

  it('names the line of a target without a role, a bad regex, a negative nth', () => {
    expect(
      problems(
        goal(`    steps:
      - click: { name: OK }
      - click: { role: button, name: "/(/" }
      - click: { role: button, nth: -1 }
      - select: { option: Paris }
`),
      ),
    ).toEqual([
      'specs/calc.yaml:7:16: goals[0].steps[0].click must be a text, { text }, { x, y } or { role, name, nth } (got a mapping with name)',
      'specs/calc.yaml:8:38: goals[0].steps[1].click.name is not a valid /regex/: Invalid regular expression: /(/: Unterminated group',
      'specs/calc.yaml:9:37: goals[0].steps[2].click.nth must be an integer from 0 to 999 (got -1)',
      'specs/calc.yaml:10:9: goals[0].steps[3].select.in is required (the list or combo box, e.g. { role: combobox, name: City })',
    ]);
  });
});

describe('element expectations', () => {
  it('reads role, name, text and states, with a timeout beside them', () => {
    const spec = load(
      goal(`    goal: click button "OK"
    expect:
      - element: { role: label, name: /Total/, text: "Total: 3 items", sensitive: true }
        timeoutMs: 500
      - element: { role: checkbox, name: Dark mode, checked: false, focused: true, nth: 0 }
      - element: { role: slider, value: 0.5 }
      - element: { role: tab, name: page 3, nth: 1, selected: true }
`),
    );
    expect(spec.goals[0]?.expect).toEqual([
      { kind: 'element', role: 'label', name: '/Total/', text: 'Total: 3 items', sensitive: true, timeoutMs: 500, line: 8 },
      { kind: 'element', role: 'checkbox', name: 'Dark mode', checked: false, focused: true, nth: 0, line: 10 },
      { kind: 'element', role: 'slider', value: 0.5, line: 11 },
      { kind: 'element', role: 'tab', name: 'page 3', nth: 1, selected: true, line: 12 },
    ]);
  });

  it('rejects an element expectation without a role, and an unknown state', () => {
    expect(
      problems(
        goal(`    goal: click "OK"
    expect:
      - element: { name: OK }
      - element: { role: button, pressed: true }
`),
      ),
    ).toEqual([
      "specs/calc.yaml:8:9: goals[0].expect[0].element.role is required (the element's role: button, entry, textarea, checkbox, radio, combobox, list, item, label, link, menuitem, tab, … (or the toolkit's own role name))",
      'specs/calc.yaml:9:34: goals[0].expect[1].element has an unknown key "pressed" (expected one of: role, name, nth, text, value, checked, sensitive, focused, selected)',
    ]);
  });
});
