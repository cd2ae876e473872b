/** The `exited:` expectation in a spec: an exit code or `any`, and the bad input around it. */
import { describe, expect, it } from 'vitest';
import { APP, load, problems } from './helpers.ts';

const goal = (expect: string): string => `${APP}goals:\n  - id: g\n    goal: click "Yes"\n    expect:\n${expect}`;

describe('exited: expectations', () => {
  it('reads an exit code, any, and a timeout', () => {
    const spec = load(goal('      - exited: 0\n      - exited: any\n        timeoutMs: 3000\n'));
    expect(spec.goals[0]?.expect).toEqual([
      { kind: 'exited', code: 0, line: 8 },
      { kind: 'exited', code: 'any', timeoutMs: 3000, line: 9 },
    ]);
  });

  it('names the line and what is expected for a code out of range, a word, or an unknown key', () => {
    const must = 'goals[0].expect[0].exited must be an exit code from 0 to 255, or any';
    expect(problems(goal('      - exited: 256\n'))).toEqual([`specs/calc.yaml:8:17: ${must} (got 256)`]);
    expect(problems(goal('      - exited: yes\n'))).toEqual([`specs/calc.yaml:8:17: ${must} (got "yes")`]);
    expect(problems(goal('      - exited: 0\n        region: [0, 0, 10, 10]\n'))).toEqual([
      'specs/calc.yaml:9:9: goals[0].expect[0] has an unknown key "region" for an exited expectation (expected one of: timeoutMs)',
    ]);
  });
});
