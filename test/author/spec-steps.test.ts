/** Writing recorded steps into a spec: the file keeps every other byte, and reads back as the actions. */
import { describe, expect, test } from 'vitest';
import type { Action } from '../../src/domain.ts';
import { stepsText } from '../../src/author/spec-steps.ts';
import { goalSource } from '../../src/paths/source.ts';
import { parseSpec } from '../../src/spec-file/load.ts';

const SPEC = `# Notes, recorded by demonstration
name: Notes
app:
  launch: notes
  window: Retrace Notes
goals:
  - id: other
    goal: click "New"
  - id: save          # the person shows how
    # what must hold
    expect:
      - text: "Saved"   # the status line
`;

const ACTIONS: Action[] = [
  { kind: 'click', target: { text: 'New' } },
  { kind: 'type', text: 'Buy milk: 2 @ $3 # "fresh"' },
  { kind: 'key', combo: 'ctrl+s' },
  { kind: 'double-click', target: { x: 12, y: 40 } },
  { kind: 'scroll', direction: 'down', amount: 3, target: { x: 100, y: 200 } },
  { kind: 'drag', from: { x: 1, y: 2 }, to: { x: 30, y: 40 } },
  { kind: 'type', text: '${secret.PASSWORD}' },
  { kind: 'click', target: { role: 'button', name: 'OK', nth: 1 } },
  { kind: 'type', text: 'Alice', into: { role: 'entry', name: 'Name' } },
  { kind: 'check', target: { text: 'Dark mode' }, checked: true },
  { kind: 'check', target: { role: 'checkbox', name: '/mute/i' }, checked: false },
  { kind: 'select', option: 'Paris', target: { role: 'combobox', name: 'City' } },
];

const ENV = { PASSWORD: 'hunter22' };

describe('stepsText', () => {
  test('inserts steps: above the expect: block and changes nothing else', () => {
    const { text } = stepsText(SPEC, '/p/specs/notes.yaml', '/p', 'save', ACTIONS, ENV);
    const added = text.split('\n').filter((line) => !SPEC.split('\n').includes(line));
    expect(text.replace(added.join('\n') + '\n', '')).toBe(SPEC);
    expect(text).toContain('  - id: save          # the person shows how\n    steps:\n      - click: New\n');
    expect(text).toContain('    # what must hold\n    expect:');
    expect(text).toContain('      - double-click: { x: 12, y: 40 }\n');
  });

  test("reads back as exactly the actions, so the path source hash is the steps'", () => {
    const edit = stepsText(SPEC, '/p/specs/notes.yaml', '/p', 'save', ACTIONS, ENV);
    const reread = parseSpec(edit.text, '/p/specs/notes.yaml', { root: '/p', env: ENV, masker: null }).goals.find((g) => g.id === 'save')!;
    expect(reread.steps).toEqual(ACTIONS);
    expect(goalSource(reread)).toEqual(goalSource(edit.goal));
    expect(goalSource(reread).kind).toBe('steps');
  });

  test('a goal in flow style is rewritten by the YAML library, comments kept', () => {
    const flow = SPEC.replace(
      '  - id: save          # the person shows how\n    # what must hold\n    expect:\n      - text: "Saved"   # the status line\n',
      '  - { id: save, expect: [{ text: "Saved" }] }  # flow\n',
    );
    const { text, goal } = stepsText(flow, '/p/specs/notes.yaml', '/p', 'save', ACTIONS.slice(0, 2), ENV);
    expect(text).toContain('# Notes, recorded by demonstration');
    expect(goal.steps).toEqual(ACTIONS.slice(0, 2));
  });
});
