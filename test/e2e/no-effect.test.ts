/**
 * Learning refuses keys that did nothing: a learned `type` with no effect on screen or in the
 * elements fails the learning with the reason, and no path is saved; a step marked
 * `changes: nothing` is learned. A Tk window with one static label: nothing there reacts.
 */
import { describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';

const STATIC = `name: static
app:
  launch: python3 -c "import tkinter as t; r = t.Tk(); r.title('Static'); r.geometry('300x120'); t.Label(r, text='Nothing here', font=('DejaVu Sans', 16)).pack(pady=30); r.mainloop()"
  window: Static
goals:
  - id: type
    steps:
      - type: abc
    expect:
      - text: Nothing here
  - id: marked
    steps:
      - click: Nothing
        changes: nothing
      - type: abc
        changes: nothing
    expect:
      - text: Nothing here
`;

describe('learning an action that changed nothing', () => {
  test('fails with the reason unless the step is marked changes: nothing', async () => {
    const project = new Project().write('specs/static.yaml', STATIC);
    const result = await project.cli(['run'], {}, 180_000);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const goals = Object.fromEntries(project.summary().goals.map((g) => [g.goal, g]));
    expect(goals.type).toMatchObject({
      status: 'failed',
      category: 'effect-not-verified',
      message: expect.stringMatching(
        /type "abc": the keys changed nothing on screen or in the app's elements \(the keyboard focus is in "Static"\)/,
      ),
    });
    expect(goals.marked).toMatchObject({ status: 'passed', mode: 'scripted' });
    expect(Object.keys(project.snapshot()).filter((f) => f.endsWith('.path.json'))).toEqual(['paths/specs/static/marked.path.json']);
  }, 180_000);
});
