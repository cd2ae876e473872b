/**
 * Invalid input exits 2, names the file and line, prints no stack, and writes nothing.
 * These runs stop before any display or app starts, so they are quick.
 */
import { describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';

const APP = 'app:\n  launch: ${env.FIXTURES}/open calculator\n  window: Retrace Calculator\n';

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
];

describe('invalid input exits 2 and writes nothing', () => {
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
