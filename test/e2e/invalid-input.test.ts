/**
 * Invalid input exits 2, names the file and line, prints no stack, and writes nothing.
 * These runs stop before any display or app starts, so they are quick.
 */
import { describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';

const APP = 'app:\n  launch: ${env.FIXTURES}/open calculator\n  window: Retrace Calculator\n';
const SPEC = `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n`;

interface Case {
  readonly name: string;
  readonly files: Record<string, string | Buffer>;
  readonly args?: readonly string[];
  readonly env?: Record<string, string | undefined>;
  /** Text the message must contain (file:line and what was expected). */
  readonly message: readonly (string | RegExp)[];
}

const CASES: readonly Case[] = [
  { name: 'an unknown step', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    steps:\n      - tap: { x: 1, y: 2 }\n` }, message: ['specs/a.yaml:8:9', 'tap'] },
  { name: 'a wrong type', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    steps:\n      - wait: soon\n` }, message: ['specs/a.yaml:8:15', 'wait'] },
  { name: 'a duplicate goal id', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n  - id: g\n    goal: click "2"\n` }, message: ['specs/a.yaml:8', 'line 6', 'used twice'] },
  { name: 'a missing app.window', files: { 'specs/a.yaml': 'name: A\napp:\n  launch: xterm\ngoals:\n  - id: g\n    goal: click "1"\n' }, message: ['specs/a.yaml:', 'window'] },
  { name: 'a YAML syntax error', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: "unclosed\n` }, message: ['specs/a.yaml:'] },
  { name: 'an unset ${env.X}', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    steps:\n      - type: "\${env.RETRACE_NOT_SET}"\n` }, message: ['specs/a.yaml:8', 'RETRACE_NOT_SET'] },
  { name: 'a binary file as a spec', files: { 'specs/a.yaml': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3, 0xff, 0xfe]) }, message: ['specs/a.yaml', /text/i] },
  { name: 'an unknown flag', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n` }, args: ['run', '--wrokers', '2'], message: ['--wrokers', '--workers'] },
  { name: '--shard 3/2', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n` }, args: ['run', '--shard', '3/2'], message: ['--shard', '3/2'] },
  { name: 'a truncated path file', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n`, 'paths/specs/a/g.path.json': '{"version": 1, "spec": "specs/a.yaml", "goal": "g", "actions": [' }, message: ['paths/specs/a/g.path.json', /truncated|valid/] },
  { name: 'a path file from a future version', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n`, 'paths/specs/a/g.path.json': '{"version": 99}\n' }, message: ['paths/specs/a/g.path.json', 'newer'] },
  { name: 'a goal outside the rules grammar without an API key', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: Compute twelve times seven\n` }, env: { ANTHROPIC_API_KEY: undefined }, message: ['specs/a.yaml:6', 'ANTHROPIC_API_KEY', 'click "T"'] },
  { name: 'an unknown --goal', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n` }, args: ['run', '--goal', 'nope'], message: ['--goal nope'] },
  { name: 'a bad config file', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n`, 'retrace.config.yaml': 'workers: many\n' }, message: ['retrace.config.yaml:1', 'workers'] },
  { name: 'an unknown config key', files: { 'specs/a.yaml': SPEC, 'retrace.config.yaml': 'learn: auto\nwrokers: 2\n' }, message: ['retrace.config.yaml:2', 'wrokers'] },
  { name: 'an empty spec file', files: { 'specs/a.yaml': '' }, message: ['specs/a.yaml'] },
  { name: 'a spec that is a list, not a mapping', files: { 'specs/a.yaml': '- name: A\n' }, message: ['specs/a.yaml:1'] },
  { name: 'an unknown top-level key, with a suggestion', files: { 'specs/a.yaml': `name: A\n${APP}goal:\n  - id: g\n` }, message: ['specs/a.yaml:5', 'goals'] },
  { name: 'a goal id that cannot name a file', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: "../escape"\n    goal: click "1"\n` }, message: ['specs/a.yaml:6', 'id'] },
  { name: 'a region with a negative width', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n    expect:\n      - text: "1"\n        region: [0, 0, -5, 10]\n` }, message: ['specs/a.yaml:10', 'region'] },
  { name: 'an invalid regex in match: regex', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n    expect:\n      - text: "(unclosed"\n        match: regex\n` }, message: ['specs/a.yaml:9', 'regex'] },
  { name: 'an unknown match mode', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n    expect:\n      - text: "1"\n        match: exactly\n` }, message: ['specs/a.yaml:10', 'contains'] },
  { name: 'an unquoted number as text', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n    expect:\n      - text: 84\n` }, message: ['specs/a.yaml:9', '"84"'] },
  { name: 'an unset ${secret.X}', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    steps:\n      - type: "\${secret.RETRACE_NO_SUCH_SECRET}"\n` }, message: ['specs/a.yaml:8', 'RETRACE_NO_SUCH_SECRET'] },
  { name: 'an unknown interpolation namespace', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    steps:\n      - type: "\${vault.X}"\n` }, message: ['specs/a.yaml:8', 'vault'] },
  { name: 'a restart mode that does not exist', files: { 'specs/a.yaml': `name: A\n${APP}  restart: never\ngoals:\n  - id: g\n    goal: click "1"\n` }, message: ['specs/a.yaml:5', 'restart'] },
  { name: 'an unknown command', files: { 'specs/a.yaml': SPEC }, args: ['rnu'], message: ['rnu', 'run'] },
  { name: '--workers 0', files: { 'specs/a.yaml': SPEC }, args: ['run', '--workers', '0'], message: ['--workers'] },
  { name: '--shard 0/2', files: { 'specs/a.yaml': SPEC }, args: ['run', '--shard', '0/2'], message: ['--shard'] },
  { name: 'an unknown --update-baselines mode', files: { 'specs/a.yaml': SPEC }, args: ['run', '--update-baselines', 'some'], message: ['--update-baselines', 'missing'] },
  { name: '--goal without a value', files: { 'specs/a.yaml': SPEC }, args: ['run', '--goal'], message: ['--goal needs a value'] },
  { name: 'a spec folder that does not exist', files: { 'specs/a.yaml': SPEC }, args: ['run', 'nowhere/'], message: ['nowhere', 'no such file'] },
  { name: '--planner claude without an API key', files: { 'specs/a.yaml': SPEC }, args: ['run', '--planner', 'claude'], env: { ANTHROPIC_API_KEY: undefined }, message: ['ANTHROPIC_API_KEY'] },
  { name: 'a missing baseline directory under --update-baselines none', files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n    expect:\n      - screenshot: result\n` }, args: ['run', '--update-baselines', 'none'], message: ['specs/a.yaml:9', 'no baseline'] },
  { name: 'a path file that is not an object', files: { 'specs/a.yaml': SPEC, 'paths/specs/a/g.path.json': '[1, 2]\n' }, message: ['paths/specs/a/g.path.json', 'object'] },
  { name: 'a path file with a broken action', files: { 'specs/a.yaml': SPEC, 'paths/specs/a/g.path.json': '{"version":1,"spec":"specs/a.yaml","goal":"g","planner":"rules","source":{"kind":"goal","hash":"x","text":"y"},"window":{"width":1,"height":1},"actions":[{"action":{"kind":"teleport"}}]}\n' }, message: ['paths/specs/a/g.path.json', 'actions[0]'] },
  { name: 'a malformed statistics file (retrace paths)', files: { 'specs/a.yaml': SPEC, 'reports/history/runs.jsonl': '{"v":1}\nnot json\n{"v":1}\n' }, args: ['paths'], message: ['runs.jsonl:1'] },
  { name: 'a malformed statistics file (retrace report)', files: { 'specs/a.yaml': SPEC, 'reports/history/runs.jsonl': 'garbage\n{}\n' }, args: ['report'], message: ['runs.jsonl:1'] },
  { name: 'merging a folder that holds no summary', files: { 'specs/a.yaml': SPEC, 'shard-1/notes.txt': 'x' }, args: ['merge', 'shard-1'], message: ['shard-1', 'summary.json'] },
  { name: 'merging a malformed summary', files: { 'specs/a.yaml': SPEC, 'shard-1/summary.json': '{"totals": 3}' }, args: ['merge', 'shard-1'], message: ['shard-1/summary.json', 'totals'] },
  { name: 'accepting a proposal that does not exist', files: { 'specs/a.yaml': SPEC }, args: ['paths', 'accept', 'specs/a.yaml#g'], message: ['no proposed path'] },
];

describe(`invalid input exits 2 and writes nothing (${CASES.length} cases)`, () => {
  test('the matrix has at least 30 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(30));

  test.each(CASES)('$name', async ({ files, args, env, message }) => {
    const project = new Project();
    for (const [file, text] of Object.entries(files)) project.write(file, text as string);
    const before = project.snapshot();
    const result = await project.cli(args ?? ['run'], env ?? {});
    expect(result.code, result.stderr).toBe(2);
    for (const m of message) {
      if (typeof m === 'string') expect(result.stderr).toContain(m);
      else expect(result.stderr).toMatch(m);
    }
    expect(result.stderr).not.toMatch(/\n\s+at .*\.(ts|js):\d+/);
    expect(project.snapshot()).toEqual(before);
  });
});
