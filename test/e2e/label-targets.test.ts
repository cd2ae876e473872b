/**
 * `type "…" into "Label"` types into the field the label names, never into the label: a zenity
 * form (GTK 3) through the real CLI, learned by text targets and replayed. Without this, a click
 * on the label "City" left the focus in "Name", which got both texts. A page label tied (for=) to
 * another field than the one a toolkit names like it types into the field it is tied to. Fields tied to a label by
 * position only are covered by test/brain/label-field.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';

const FORM = `name: form by labels
app:
  launch: zenity --forms --title "Label form" --text "Sign up" --add-entry Name --add-entry City
  window: Label form
goals:
  - id: fill
    goal: type "Paris" into "City", type "Alice" into "Name"
    expect:
      - element: { role: entry, name: City, text: Paris }
      - element: { role: entry, name: Name, text: Alice }
`;

// The login page with its "Password" label tied (for=) to the Username field: Chromium still
// names the untied password field "Password", so only the label's own tie tells which field it names.
const TIED = `name: a label tied to another field
app:
  launch: \${env.FIXTURES}/open login 'bug=wrong-focus'
  window: Retrace Login
goals:
  - id: fill
    goal: type "hunter2" into "Password"
    expect:
      - element: { role: entry, name: Username Password, text: hunter2 }
`;

const RUN_MS = 180_000;

describe('a text target that is a label', () => {
  test(
    'types into the field the label names, learned and replayed',
    async () => {
      const project = new Project().write('specs/form.yaml', FORM);
      const learned = await project.cli(['run'], {}, RUN_MS);
      expect(learned.code, learned.stdout + learned.stderr).toBe(0);
      const replayed = await project.cli(['run', '--learn', 'off'], {}, RUN_MS);
      expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
      expect(project.summary().goals[0]).toMatchObject({ status: 'passed', mode: 'replayed' });
    },
    2 * RUN_MS,
  );

  test(
    'types into the field the label is tied to, not the one a toolkit names like it',
    async () => {
      const project = new Project().write('specs/tied.yaml', TIED);
      const learned = await project.cli(['run'], {}, RUN_MS);
      expect(learned.code, learned.stdout + learned.stderr).toBe(0);
    },
    RUN_MS,
  );
});
