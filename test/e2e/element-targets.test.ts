/**
 * Element targets end to end, through the real CLI, on a real GTK dialog (zenity --forms) that
 * publishes its widgets over the accessibility bus of retrace's own display: learned by role and
 * name with the rules planner, replayed by the element rung with 0 model calls, and replayed on the
 * dialog with its fields in the other order, where each field gets its own value, which the
 * `element:` expectations read back from the toolkit.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Path } from '../../src/domain.ts';
import { Project } from '../support/project.ts';

const FORM_SPEC = `name: Form
app:
  launch: zenity --forms --title Form --text Details \${env.FIELDS}
  window: Form
goals:
  - id: fill
    goal: type "Alice" into entry "Name", type "Paris" into entry "City"
    expect:
      - element: { role: entry, name: Name, text: Alice }
      - element: { role: entry, name: City, text: "\${env.CITY}" }
        timeoutMs: 1000
`;
const IN_ORDER = '--add-entry Name --add-entry City';
const SWAPPED = '--add-entry City --add-entry Name';

const project = new Project().write('specs/form.yaml', FORM_SPEC);
const run = (fields: string, city: string, ...args: string[]) => project.cli(['run', ...args], { FIELDS: fields, CITY: city });
const fill = () => {
  const found = project.summary().goals.find((g) => g.goal === 'fill');
  if (!found) throw new Error('no verdict for fill');
  return found;
};
const pathFile = join(project.root, 'paths/specs/form/fill.path.json');

describe('a zenity form filled by entry names', () => {
  let learnedText = '';

  beforeAll(async () => {
    const result = await run(IN_ORDER, 'Paris');
    expect(result.code, result.stdout + result.stderr).toBe(0);
    learnedText = readFileSync(pathFile, 'utf8');
  });

  test('is learned by the rules planner with an element anchor and the text each entry took', () => {
    expect(fill()).toMatchObject({ status: 'passed', mode: 'learned', modelCalls: 0 });
    const path = JSON.parse(learnedText) as Path;
    expect(path.actions.map((a) => a.action)).toEqual([
      { kind: 'type', text: 'Alice', into: { role: 'entry', name: 'Name' } },
      { kind: 'type', text: 'Paris', into: { role: 'entry', name: 'City' } },
    ]);
    expect(path.actions.map((a) => a.anchor?.element?.name)).toEqual(['Name', 'City']);
    expect(path.actions.map((a) => a.elements?.find((e) => e.after.text !== undefined))).toEqual([
      expect.objectContaining({ role: 'entry', name: 'Name', after: { text: 'Alice' } }),
      expect.objectContaining({ role: 'entry', name: 'City', after: { text: 'Paris' } }),
    ]);
  });

  test('replays by the element rung with 0 model calls, verifying each action, without rewriting the path', async () => {
    const result = await run(IN_ORDER, 'Paris');
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(fill()).toMatchObject({ status: 'passed', mode: 'replayed', modelCalls: 0 });
    expect(fill().actions.map((a) => [a.verified, a.resolvedBy])).toEqual([
      [true, 'element'],
      [true, 'element'],
    ]);
    expect(readFileSync(pathFile, 'utf8')).toBe(learnedText);
  });

  // Typing into Name takes the focus from City (first now): City's focus ring going is the focus
  // moving, not news (City's element changed only its focus), and the text typed into City was
  // recorded apart from the ring leaving Name, so it follows City (a heal). The `element:`
  // expectations read each field's value back from the toolkit: Name holds Alice, City Paris.
  test('with the fields in the other order, fills each with its own value and passes', async () => {
    const result = await run(SWAPPED, 'Paris', '--learn', 'off');
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(fill()).toMatchObject({ status: 'passed', mode: 'healed', modelCalls: 0 });
    expect(fill().actions.map((a) => [a.verified, a.resolvedBy, a.unexpected])).toEqual([
      [true, 'element', undefined],
      [true, 'element', undefined],
    ]);
  });
});
