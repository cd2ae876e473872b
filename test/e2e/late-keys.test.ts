/**
 * A field that shows each key late (fixtures/apps/gtk-greeter.py --late-keys: a second after it
 * came, the app's main loop free meanwhile, as a browser's tree behind on a loaded machine): typing
 * paced by the field's text waits for each key rather than sending it again, so "Tea" is typed
 * once, learned and replayed. Sent again after half a second, as before, it read "TTeaa", as a CI run did on Chromium.
 */
import { describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';

const SPEC = `name: Late keys
app:
  launch: /usr/bin/python3 \${env.FIXTURES}/gtk-greeter.py --late-keys 1000
  window: Retrace GTK greeter
goals:
  - id: greet
    goal: type "Tea" into entry "Your name:", click button "Greet"
    expect:
      - element: { role: label, name: "Hello, Tea!" }
`;

describe('a field that shows its keys late', () => {
  const project = new Project().write('specs/late.yaml', SPEC);

  test('gets each key once, learned and replayed', { timeout: 240_000 }, async () => {
    for (const mode of ['learned', 'replayed'] as const) {
      const result = await project.cli(['run', '--planner', 'rules']);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      const [goal] = project.summary().goals;
      expect(goal).toMatchObject({ status: 'passed', mode });
      expect(goal?.actions?.[0]).toMatchObject({ retries: 0 });
    }
  });
});
