/**
 * Element targets on real apps of two toolkits, through the real CLI: galculator (GTK 3) and the
 * Chromium fixture calculator (`--force-renderer-accessibility`, which retrace asks for when its
 * display has an accessibility bus), each driven by `click button "…"` with the rules planner, the
 * sums read back by `element:` expectations from the toolkit: they pass, and one on a calculator
 * that shows another number fails saying what the toolkit holds. With the accessibility bus
 * switched off (RETRACE_ACCESSIBILITY=off) a spec that uses text targets, learned with the bus
 * on and so anchored on elements too, still passes: its pixels find every key.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Path } from '../../src/domain.ts';
import { Project } from '../support/project.ts';

const GALCULATOR = `name: Galculator
app:
  launch: galculator
  window: galculator
goals:
  - id: add
    goal: click button "7", click button "+", click button "8", click button "="
    expect:
      - element: { role: textarea, text: "15" }
`;

// The display's number is the label named by digits alone (the expression above it is another label).
const CHROMIUM = `name: Chromium calculator
app:
  launch: \${env.FIXTURES}/open calculator
  window: Retrace Calculator
goals:
  - id: keys
    goal: click button "4", click button "2"
    expect:
      - element: { role: label, name: "/^[0-9]+$/", text: "42" }
  - id: fresh
    steps:
      - wait: 10
    expect:
      - element: { role: label, name: "/^[0-9]+$/", text: "42" }
        timeoutMs: 500
`;

const TEXT_TARGETS = `name: Calculator by its texts
app:
  launch: \${env.FIXTURES}/open calculator
  window: Retrace Calculator
goals:
  - id: keys
    goal: click "4", click "2"
    expect:
      - text: "42"
        region: [14, 40, 332, 54]
        match: exact
`;

// Its sum is an element effect (the display's label): the tree decides it while it can be read.
const SUM = `name: Calculator sum
app:
  launch: \${env.FIXTURES}/open calculator "\${env.VARIANT}"
  window: Retrace Calculator
goals:
  - id: sum
    goal: click button "4", click button "+", click button "2", click button "="
`;

const project = new Project()
  .write('specs/galculator.yaml', GALCULATOR)
  .write('specs/chromium.yaml', CHROMIUM)
  .write('specs/texts.yaml', TEXT_TARGETS)
  .write('specs/sum.yaml', SUM);

const verdict = (spec: string, goal: string) => {
  const found = project.summary().goals.find((g) => g.spec.endsWith(`/${spec}.yaml`) && g.goal === goal);
  if (!found) throw new Error(`no verdict for ${spec} ${goal}`);
  return found;
};
const path = (spec: string, goal: string) => JSON.parse(project.read(`paths/specs/${spec}/${goal}.path.json`)) as Path;
const buttons = (...names: string[]) => names.map((name) => ({ kind: 'click', target: { role: 'button', name } }));

describe('element targets on galculator and a Chromium app', () => {
  beforeAll(async () => {
    const result = await project.cli(['run'], { VARIANT: '' });
    // "fresh" fails, as it should.
    expect(result.code, result.stdout + result.stderr).toBe(1);
  }, 240_000);

  test.each([
    ['galculator', 'add', ['7', '+', '8', '=']],
    ['chromium', 'keys', ['4', '2']],
  ])('%s is driven by click button "…", each action anchored on its element; the element: expectation passes', (spec, goal, keys) => {
    expect(verdict(spec, goal)).toMatchObject({ status: 'passed', mode: 'learned', modelCalls: 0 });
    const learned = path(spec, goal);
    expect(learned.actions.map((a) => a.action)).toEqual(buttons(...keys));
    expect(learned.actions.map((a) => [a.anchor?.element?.role, a.anchor?.element?.name])).toEqual(keys.map((n) => ['button', n]));
  });

  test('an element: expectation fails on a calculator that shows another number, saying what the toolkit holds', () => {
    expect(verdict('chromium', 'fresh')).toMatchObject({ status: 'failed', category: 'expectation-failed', modelCalls: 0 });
    expect(verdict('chromium', 'fresh').message).toBe('element label "/^[0-9]+$/": its text is "0", expected "42"');
  });

  test('with the accessibility bus off, the text-target spec learned with it on replays by its pixels', async () => {
    expect(path('texts', 'keys').actions.map((a) => a.anchor?.element?.name)).toEqual(['4', '2']);
    const result = await project.cli(['run', 'specs/texts.yaml', '--learn', 'off'], { RETRACE_ACCESSIBILITY: 'off' });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const keys = verdict('texts', 'keys');
    expect(keys).toMatchObject({ status: 'passed', mode: 'replayed', modelCalls: 0 });
    expect(keys.actions.map((a) => [a.verified, a.resolvedBy])).toEqual([
      [true, 'recorded'],
      [true, 'recorded'],
    ]);
  }, 120_000);

  test('with the accessibility bus off, an effect the tree decided when learned is checked by its pixels: a wrong sum fails', async () => {
    const sum = path('sum', 'sum').actions.at(-1);
    expect(sum?.effects.some((e) => e.kind === 'element')).toBe(true);
    const right = await project.cli(['run', 'specs/sum.yaml', '--learn', 'off'], { RETRACE_ACCESSIBILITY: 'off', VARIANT: '' });
    expect(right.code, right.stdout + right.stderr).toBe(0);
    expect(verdict('sum', 'sum').actions.every((a) => a.verified && a.resolvedBy === 'recorded')).toBe(true);
    const wrong = await project.cli(['run', 'specs/sum.yaml', '--learn', 'off'], {
      RETRACE_ACCESSIBILITY: 'off',
      VARIANT: 'bug=wrong-result',
    });
    expect(wrong.code, wrong.stdout + wrong.stderr).toBe(1);
    expect(verdict('sum', 'sum')).toMatchObject({ status: 'failed', category: 'effect-not-verified' });
    expect(verdict('sum', 'sum').message).toMatch(/^action 4 \(click button "="\): its effect did not verify/);
  }, 180_000);
});
