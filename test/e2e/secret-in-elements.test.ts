/**
 * An app echoes a typed secret into its elements: a label's name, an entry's text, a spin
 * button's value, its window title (fixtures/apps/gtk-greeter.py, GTK 3 over AT-SPI). Learned and
 * replayed through the real CLI, no byte written under the project (paths, reports, anything
 * else) and no console line holds either secret: element effects before and after each action,
 * anchors and element expectations see them masked, the same on both runs.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from '../support/project.ts';

const NAME = 'Zebra7Quartz';
const PIN = '48213907';

const SPEC = `name: Secret greeting
app:
  launch: /usr/bin/python3 \${env.FIXTURES}/gtk-greeter.py
  window: "/^Retrace GTK greeter/"
  restart: goal
goals:
  - id: greet
    steps:
      - click: { role: entry, name: "Your name:" }
      - type: "\${secret.NAME}"
      - click: { role: spinbutton, name: "PIN:" }
      - key: ctrl+a
      - type: "\${secret.PIN}"
      - click: { role: button, name: Greet }
    expect:
      - element: { role: entry, name: Echo, text: "\${secret.NAME}" }
      - element: { role: label, name: "Hello, \${secret.NAME}!" }
  - id: greet-and-clear
    steps:
      - click: { role: entry, name: "Your name:" }
      - type: "\${secret.NAME}"
      - click: { role: spinbutton, name: "PIN:" }
      - key: ctrl+a
      - type: "\${secret.PIN}"
      - click: { role: button, name: Greet }
      - click: { role: button, name: Clear }
    expect:
      - element: { role: label, text: "Nobody greeted yet" }
`;

describe('a secret the app echoes into its elements', () => {
  const project = new Project().write('specs/greeter.yaml', SPEC);
  const env = { NAME, PIN };

  test('learns and replays, and no byte written holds it', { timeout: 300_000 }, async () => {
    let console = '';
    for (const mode of ['scripted', 'replayed'] as const) {
      const result = await project.cli(['run'], env);
      console += result.stdout + result.stderr;
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(project.summary().goals.map((g) => [g.goal, g.status, g.mode])).toEqual([
        ['greet', 'passed', mode],
        ['greet-and-clear', 'passed', mode],
      ]);
    }
    // The effects were recorded from the elements, masked: the greeting before and after Clear.
    const path = JSON.stringify(JSON.parse(project.read('paths/specs/greeter/greet-and-clear.path.json')));
    expect(path).toContain('"name":"Hello, ••••!"');
    const written = Object.keys(project.snapshot()).filter((f) => !f.startsWith('specs/'));
    expect(written.length).toBeGreaterThan(5);
    for (const secret of [NAME, PIN]) {
      for (const file of written) expect(readFileSync(join(project.root, file)).includes(secret), file).toBe(false);
      expect(console.includes(secret), console).toBe(false);
    }
  });
});
