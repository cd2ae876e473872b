/**
 * Input that only the run can judge: without `app.size` or a recorded path, the window's size is
 * known once the app is up. An expectation region wholly outside it says so, and fails: an
 * `absent:` there must not pass by reading nothing.
 */
import { describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';

const SPEC = `name: Off
app:
  launch: \${env.FIXTURES}/open calculator
  window: Retrace Calculator
goals:
  - id: off
    steps:
      - wait: 10
    expect:
      - absent: "Error"
        region: [5000, 0, 40, 20]
      - text: "0"
        region: [0, 5000, 40, 20]
`;

describe('a region entirely off the window', () => {
  test('fails its expectations, saying the region lies outside the window', { timeout: 240_000 }, async () => {
    const project = new Project().write('specs/off.yaml', SPEC);
    const result = await project.cli(['run']);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const goal = project.summary().goals[0]!;
    expect(goal).toMatchObject({ status: 'failed', category: 'expectation-failed' });
    expect(goal.message).toMatch(/region \[5000, 0, 40, 20\] lies entirely outside the \d+×\d+ window: there is nothing to read there/);
    expect(goal.message).toMatch(/region \[0, 5000, 40, 20\] lies entirely outside/);
    expect(goal.message).not.toContain('the screen shows');
  });
});

describe("a step's point off the window, its size unknown before the run", () => {
  test('is refused before any input: exit 2 naming the file and line, no path file, no image', { timeout: 240_000 }, async () => {
    const project = new Project().write(
      'specs/off.yaml',
      `name: Off
app:
  launch: \${env.FIXTURES}/open calculator
  window: Retrace Calculator
goals:
  - id: off
    steps:
      - click: { text: "7" }
      - click: { x: 5000, y: 5000 }
`,
    );
    const result = await project.cli(['run']);
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stdout + result.stderr).toMatch(
      /specs\/off\.yaml:6: goal "off", steps\[1\]: click at \(5000, 5000\) is outside the \d+×\d+ window the app opened/,
    );
    expect(project.summary().goals[0]).toMatchObject({ status: 'broken', actions: [] });
    expect(Object.keys(project.snapshot()).filter((f) => f.startsWith('paths/') || f.endsWith('.png'))).toEqual([]);
  });
});
