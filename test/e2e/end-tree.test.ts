/**
 * The goal ends on a checked tree (issue 24, item 5; src/brain/replay-end.ts): on a real GTK 3 app
 * (fixtures/apps/gtk-late.py), learned on its plain form and replayed through the real CLI with
 * `--learn off` on variants of it. Its "Save" shows "Saved" 300 ms after the click, so the final
 * check waits ~0.9 s of quiet before it judges the expectations; a change 1 s after the click comes
 * after the last action's hold looked (it ends as the clicked button repaints, ~0.5 s after the
 * click), while the check waits — only the tree read after the expectations sees it.
 */
import { describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';

const spec = (args: string, goal = 'save'): string => `name: Late changes
app:
  launch: /usr/bin/python3 \${env.FIXTURES}/gtk-late.py ${args}
  window: Retrace GTK late
goals:
  - id: ${goal}
    goal: click button "Save"
    expect:
      - element: { role: label, name: Saved }
`;

/** Replays the learned path on the app with `args`; the goal's verdict. */
async function replayOn(project: Project, args: string, flags: readonly string[] = []) {
  project.write('specs/late.yaml', spec(args));
  const result = await project.cli(['run', '--learn', 'off', ...flags]);
  const [goal] = project.summary().goals;
  return { result, goal: goal! };
}

describe('the tree after the expectations', () => {
  test('a late change nobody recorded fails the goal, named; the app as learned passes', { timeout: 300_000 }, async () => {
    const project = new Project().write('specs/late.yaml', spec(''));
    const learned = await project.cli(['run']);
    expect(learned.code, learned.stdout + learned.stderr).toBe(0);

    const same = await replayOn(project, '');
    expect([same.goal.status, same.goal.mode, same.goal.warnings], same.result.stdout).toEqual(['passed', 'replayed', undefined]);

    const late = await replayOn(project, 'late=1000');
    expect(late.goal.status, late.result.stdout).toBe('failed');
    expect(late.goal.category).toBe('unexpected-change');
    expect(late.goal.message).toContain('label "Idle" changed: name "Sync failed" after the expectations');

    // Told, not failed, under --unexpected-changes warn.
    const warned = await replayOn(project, 'late=1000', ['--unexpected-changes', 'warn']);
    expect(warned.goal.status, warned.result.stdout).toBe('passed');
    expect(warned.goal.warnings?.join('\n')).toContain('label "Idle" changed: name "Sync failed" after the expectations');

    // A recorded effect the expectations do not look at, fallen back after them: an effect that
    // did not hold, whatever --unexpected-changes says.
    const reverted = await replayOn(project, 'revert=1000', ['--unexpected-changes', 'warn']);
    expect(reverted.goal.status, reverted.result.stdout).toBe('failed');
    expect(reverted.goal.category).toBe('effect-not-verified');
    expect(reverted.goal.message).toContain(
      'the goal\'s end, after the expectations: an effect did not hold — the label "Saves: 0" has name "Saves: 0", recorded "Saves: 1"',
    );

    // A clock the path never saw ticks on its own: no news.
    const clock = await replayOn(project, 'clock');
    expect(clock.goal.status, clock.goal.message ?? clock.result.stdout).toBe('passed');
  });

  test('a path learned with a clock replays green on it', { timeout: 300_000 }, async () => {
    const project = new Project().write('specs/late.yaml', spec('clock'));
    const learned = await project.cli(['run']);
    expect(learned.code, learned.stdout + learned.stderr).toBe(0);
    const replayed = await project.cli(['run', '--learn', 'off']);
    const [goal] = project.summary().goals;
    expect([goal?.status, goal?.mode], goal?.message ?? replayed.stdout).toEqual(['passed', 'replayed']);
  });

  test('what changes while a path waits is not judged at its end: nothing recorded it', { timeout: 300_000 }, async () => {
    const waits = `name: Late changes
app:
  launch: /usr/bin/python3 \${env.FIXTURES}/gtk-late.py late=5000
  window: Retrace GTK late
goals:
  - id: save
    steps:
      - click: { role: button, name: Save }
      - wait: 6000
    expect:
      - element: { role: label, name: Saved }
`;
    const project = new Project().write('specs/late.yaml', waits);
    const learned = await project.cli(['run']);
    expect(learned.code, learned.stdout + learned.stderr).toBe(0);
    const replayed = await project.cli(['run', '--learn', 'off']);
    const [goal] = project.summary().goals;
    expect([goal?.status, goal?.mode], goal?.message ?? replayed.stdout).toEqual(['passed', 'replayed']);
  });
});
