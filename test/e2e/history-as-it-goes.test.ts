/**
 * The run history is written as the run goes: each goal's line is appended when the goal ends,
 * before its verdict is printed. A `kill -9` of the whole run right after a goal printed
 * "passed (learned)" leaves its new path file and its history line, never one without the other.
 */
import { describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';
import { groupMembers, pollFor, startCli } from '../support/faults-cli.ts';
import { readHistory } from '../../src/report/history.ts';
import { calculatorSpec, notesSpec } from '../support/specs.ts';

describe('the history, written as the run goes', () => {
  test('kill -9 right after "passed (learned)": the learned goal has its history line', { timeout: 240_000 }, async () => {
    const project = new Project().write('specs/calc.yaml', calculatorSpec()).write('specs/notes.yaml', notesSpec('kept'));
    const cli = startCli(project, ['run']);
    const line = await cli.line(/✓ (specs\/\S+) › (\S+) passed \(learned/, 180_000);
    cli.killGroup('SIGKILL');
    const end = await cli.ended;
    expect(end.signal).toBe('SIGKILL');
    await pollFor('the killed run to be gone', () => (groupMembers(cli.pid).length === 0 ? true : undefined), 10_000);

    const [, spec, goal] = /✓ (specs\/\S+) › (\S+) passed/.exec(line.text) ?? [];
    // The run never got to its summary: the other goal was still running, or not started.
    expect(project.exists('reports/summary.json')).toBe(false);
    expect(project.exists(`paths/${spec?.replace(/\.yaml$/, '')}/${goal}.path.json`)).toBe(true);
    const records = await readHistory(`${project.root}/reports`, { warn: () => undefined });
    expect(records.filter((r) => r.spec === spec && r.goal === goal)).toEqual([
      expect.objectContaining({ status: 'passed', mode: 'learned', attempt: 1 }),
    ]);
  });
});
