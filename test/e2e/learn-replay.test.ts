/**
 * The heart of retrace, end to end through the real CLI, real windows and real OCR:
 * learn offline, replay with zero model calls, heal a moved layout, catch regressions.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from '../support/project.ts';
import type { Path } from '../../src/domain.ts';
import { calculatorSpec, notesSpec } from '../support/specs.ts';

const CALC_SPEC = calculatorSpec({ variant: true, multiply: true });
const NOTES_SPEC = notesSpec('Milk & eggs @ 3!');

const project = new Project().write('specs/calc.yaml', CALC_SPEC).write('specs/notes.yaml', NOTES_SPEC);
const run = (variant: string, ...args: string[]) => project.cli(['run', ...args], { VARIANT: variant });
const goal = (id: string) => {
  const found = project.summary().goals.find((g) => g.goal === id);
  if (!found) throw new Error(`no verdict for ${id}`);
  return found;
};
// Each run launches the app for every goal: on a loaded 2-core machine a test takes over a minute.
const RUN_MS = 180_000;
const pathFile = join(project.root, 'paths/specs/calc/add.path.json');

describe('learn, replay, heal, catch', () => {
  let learnedText = '';

  beforeAll(async () => {
    const result = await run('');
    expect(result.code, result.stdout + result.stderr).toBe(0);
    learnedText = readFileSync(pathFile, 'utf8');
  }, 180_000);

  test('run 1 learns with the rules planner and no API key; steps goals are scripted', () => {
    expect(goal('add')).toMatchObject({ status: 'passed', mode: 'learned', modelCalls: 0 });
    expect(goal('multiply')).toMatchObject({ status: 'passed', mode: 'learned', modelCalls: 0 });
    expect(goal('save')).toMatchObject({ status: 'passed', mode: 'scripted' });
    const path = JSON.parse(learnedText) as Path;
    expect(path.actions.map((a) => a.action)).toEqual([
      { kind: 'click', target: { text: '7' } },
      { kind: 'click', target: { text: '+' } },
      { kind: 'click', target: { text: '8' } },
      { kind: 'click', target: { text: '=' } },
    ]);
    expect(path.actions.every((a) => a.anchor !== undefined)).toBe(true);
    expect(path.actions.at(-1)?.effects.length).toBeGreaterThan(0);
  });

  test(
    'run 2 replays every goal with zero model calls, verifying every action, without rewriting the path',
    async () => {
      const result = await run('', '--verbose');
      expect(result.code, result.stdout + result.stderr).toBe(0);
      // The time split: the run's start-up, and per goal phases that add up to its durationMs.
      expect(project.summary().startup).toEqual({
        cliMs: expect.any(Number),
        engineMs: expect.any(Number),
        displayMs: expect.any(Number),
        loadMs: expect.any(Number),
      });
      expect(project.summary().startup!.displayMs).toBeGreaterThan(0);
      expect(result.stdout).toMatch(/start-up: cli \d+ · engine \d+ · display \d+ · load \d+ ms/);
      expect(
        result.stderr.match(/ {2}time: start \d+ · launch \d+ · ready \d+ · actions \d+ · hold \d+ · check \d+ · report \d+ ms/g),
      ).toHaveLength(3);
      // The desktop's backends, chosen once when the worker opened its display, and why.
      expect(result.stderr).toMatch(
        /:\d+: capture x-protocol \(own X connection, 32-bit BGRX pixels\) · input xtest \(XTEST on the own X connection\) · tree direct \(/,
      );
      for (const id of ['add', 'multiply', 'save']) {
        const verdict = goal(id);
        const { phases } = verdict;
        if (!phases) throw new Error(`no time split for ${id}`);
        expect(phases.launchMs + phases.readyMs + phases.actionsMs + phases.holdMs + phases.checkMs).toBe(verdict.durationMs);
        expect(phases.actionsMs).toBeGreaterThan(0);
        expect(phases.checkMs).toBeGreaterThan(0);
        expect(verdict).toMatchObject({ status: 'passed', mode: 'replayed', modelCalls: 0 });
        expect(verdict.actions.length).toBeGreaterThan(0);
        for (const action of verdict.actions) {
          expect(action).toMatchObject({ verified: true, resolvedBy: expect.stringMatching(/^(element|recorded)$/) });
          expect(action.ms).toBeGreaterThan(0);
        }
      }
      expect(readFileSync(pathFile, 'utf8')).toBe(learnedText);
    },
    RUN_MS,
  );

  test.each([
    ['bug=wrong-result', 'multiply', 'effect-not-verified', /action 5 \(click "="\)/],
    ['bug=missing-button', 'add', 'target-not-found', /action 3 \(click "8"\)/],
    ['bug=swapped-labels', 'add', 'effect-not-verified', /action 1 \(click "7"\)/],
  ])(
    'regression %s fails %s, naming the action (%s)',
    async (variant, id, category, action) => {
      const result = await run(variant, '--learn', 'off', '--goal', id, '--keep-open');
      expect(result.code, result.stdout + result.stderr).toBe(1);
      expect(result.stderr).toMatch(/--keep-open: the app is still running on display :\d+/);
      expect(goal(id)).toMatchObject({ status: 'failed', category });
      expect(goal(id).message).toMatch(action);
    },
    RUN_MS,
  );

  test(
    'a moved layout passes as healed with 0 model calls, and the healed path is only proposed',
    async () => {
      const result = await run('layout=moved', '--learn', 'off', '--goal', 'add');
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(goal('add')).toMatchObject({ status: 'passed', mode: 'healed', modelCalls: 0 });
      expect(goal('add').actions.some((a) => a.resolvedBy !== 'recorded')).toBe(true);
      expect(readFileSync(pathFile, 'utf8')).toBe(learnedText);
      expect(project.exists('paths/specs/calc/add.proposed.path.json')).toBe(true);
      expect(result.stdout).toContain('flaky: specs/calc.yaml#add');

      const accepted = await project.cli(['paths', 'accept', 'specs/calc.yaml#add']);
      expect(accepted.code, accepted.stderr).toBe(0);
      expect(project.exists('paths/specs/calc/add.proposed.path.json')).toBe(false);
      const again = await run('layout=moved', '--learn', 'off', '--goal', 'add');
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(goal('add')).toMatchObject({ status: 'passed', mode: 'replayed' });
    },
    RUN_MS,
  );

  test(
    'an edited goal is stale: --learn off fails it, --learn auto relearns it and says so',
    async () => {
      project.write(
        'specs/calc.yaml',
        CALC_SPEC.replace('click "7", click "+", click "8"', 'click "7", click "+", click "9"').replace('"15"', '"16"'),
      );
      const off = await run('', '--learn', 'off', '--goal', 'add');
      expect(off.code).toBe(1);
      expect(goal('add')).toMatchObject({ status: 'failed', category: 'no-path' });
      expect(goal('add').message).toMatch(/stale/);
      const auto = await run('', '--goal', 'add');
      expect(auto.code, auto.stdout + auto.stderr).toBe(0);
      expect(goal('add')).toMatchObject({ status: 'passed', mode: 'learned' });
      expect(auto.stderr).toMatch(/changed: learning it again/);
    },
    RUN_MS,
  );
});
