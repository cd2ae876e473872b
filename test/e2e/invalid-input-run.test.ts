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
