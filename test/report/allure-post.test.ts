/** postProcessAllureResults on hand-made result files: the fallbacks when no verdict is given. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { InvalidInputError } from '../../src/errors.ts';
import { formatProperties, postProcessAllureResults } from '../../src/report/allure-post.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'retrace-allure-post-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, status: string, message: string, trace: string): void =>
  writeFileSync(
    join(dir, `${name}-result.json`),
    JSON.stringify({ uuid: name, name, status, statusDetails: { message, trace }, labels: [], steps: [], parameters: [] }),
  );
const statusOf = (name: string): string =>
  (JSON.parse(readFileSync(join(dir, `${name}-result.json`), 'utf8')) as { status: string }).status;

test('without verdicts, the message marker, then the error name, decides failed vs broken', async () => {
  write('marker-failed', 'broken', '[effect-not-verified] display unchanged', 'GoalFailure: …');
  write('marker-broken', 'failed', '[infrastructure] X server died (assert)', 'Error: …');
  write('name-failed', 'broken', 'no marker here', 'GoalFailure: no marker here\n    at x');
  write('name-broken', 'failed', 'no marker', 'InfrastructureError: no marker\n    at x');
  write('other', 'broken', 'TypeError in a helper', 'TypeError: boom');
  const report = await postProcessAllureResults({ resultsDir: dir });
  expect(report).toEqual({ results: 5, updated: 4, unmatched: [] });
  expect(statusOf('marker-failed')).toBe('failed');
  expect(statusOf('marker-broken')).toBe('broken');
  expect(statusOf('name-failed')).toBe('failed');
  expect(statusOf('name-broken')).toBe('broken');
  expect(statusOf('other')).toBe('broken');
});

test('a results dir that does not exist is invalid input', async () => {
  await expect(postProcessAllureResults({ resultsDir: join(dir, 'nope') })).rejects.toBeInstanceOf(InvalidInputError);
});

test('environment.properties is escaped for java.util.Properties and merged on rewrite', async () => {
  expect(formatProperties({ 'app command': 'calc --mode=sci', path: 'C:\\apps', name: 'Grüße' })).toBe(
    'app\\ command=calc --mode=sci\npath=C:\\\\apps\nname=Gr\\u00fc\\u00dfe\n',
  );
  await postProcessAllureResults({ resultsDir: dir, environment: { a: '1', 'b c': 'x=y\\z' } });
  await postProcessAllureResults({ resultsDir: dir, environment: { a: '2' } });
  expect(readFileSync(join(dir, 'environment.properties'), 'utf8')).toBe('a=2\nb\\ c=x=y\\\\z\n');
});
