/**
 * Invalid input exits 2, names the file and line, prints no stack, and writes nothing.
 * These runs stop before any display or app starts, so they are quick.
 */
import { describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';
import { createFrame, encodePng } from '../../src/vision/frame.ts';
import type { Path } from '../../src/domain.ts';

const APP = 'app:\n  launch: ${env.FIXTURES}/open calculator\n  window: Retrace Calculator\n';
const SPEC = `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n`;

/** A small valid path of goal g of specs/a.yaml, recorded in a 400×300 window, with its one image. */
const IMAGE = '0123456789abcdef.png';
const PNG = encodePng(createFrame(8, 8, [200, 40, 40, 255]));
const PATH: Path = {
  version: 1,
  spec: 'specs/a.yaml',
  goal: 'g',
  source: { kind: 'goal', hash: '0000000000000000', text: 'click "1"' },
  planner: 'rules',
  window: { width: 400, height: 300 },
  actions: [
    {
      action: { kind: 'click', target: { text: '1' } },
      anchor: { point: { x: 10, y: 10 }, box: { x: 0, y: 0, width: 20, height: 20 }, image: IMAGE, text: '1' },
      before: 'a',
      after: 'b',
      effects: [{ region: { x: 0, y: 0, width: 40, height: 20 }, image: IMAGE }],
      dynamic: [],
      settleMs: 5,
    },
  ],
};
type Json = Record<string, any>;

/** The path file of goal g after `edit`, with its image. */
const pathFiles = (edit: (path: Json) => void = () => {}): Record<string, string | Buffer> => {
  const path = structuredClone(PATH) as Json;
  edit(path);
  return { 'paths/specs/a/g.path.json': `${JSON.stringify(path, null, 2)}\n`, [`paths/specs/a/g.assets/${IMAGE}`]: PNG };
};

/** "paths/specs/a/g.path.json:<line>" of the first line of the edited path file holding `needle`. */
const pathLine = (edit: (path: Json) => void, needle: string): string => {
  const text = pathFiles(edit)['paths/specs/a/g.path.json'] as string;
  return `paths/specs/a/g.path.json:${text.split('\n').findIndex((l) => l.includes(needle)) + 1}`;
};

const HOSTILE_IMAGE = (p: Json): void => void (p.actions[0].anchor.image = '../../../../etc/passwd');
const MISSING_IMAGE = (p: Json): void => void (p.actions[0].effects[0].image = 'fedcba9876543210.png');
const FAR_POINT = (p: Json): void => void (p.actions[0].anchor.point = { x: -50, y: 1e12 });
const FAR_CLICK = (p: Json): void => void (p.actions[0].action.target = { x: 99999999, y: 5 });
const FAR_EFFECT = (p: Json): void => void (p.actions[0].effects[0].region = { x: 5000, y: 0, width: 10, height: 10 });
const BAD_COMBO = (p: Json): void => void (p.actions[0].action = { kind: 'key', combo: 'ctrl+shfit+s' });

/** A spec of goal g with these steps, with or without app.size. */
const stepsSpec = (steps: string, size = ''): string => `name: A\n${APP}${size}goals:\n  - id: g\n    steps:\n${steps}`;
const SIZED = '  size: [400, 300]\n';

interface Case {
  readonly name: string;
  readonly files: Record<string, string | Buffer>;
  readonly args?: readonly string[];
  readonly env?: Record<string, string | undefined>;
  /** Text the message must contain (file:line and what was expected). */
  readonly message: readonly (string | RegExp)[];
}

const CASES: readonly Case[] = [
  {
    name: 'an unknown step',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    steps:\n      - tap: { x: 1, y: 2 }\n` },
    message: ['specs/a.yaml:8:9', 'tap'],
  },
  {
    name: 'a wrong type',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    steps:\n      - wait: soon\n` },
    message: ['specs/a.yaml:8:15', 'wait'],
  },
  {
    name: 'a duplicate goal id',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n  - id: g\n    goal: click "2"\n` },
    message: ['specs/a.yaml:8', 'line 6', 'used twice'],
  },
  {
    name: 'a missing app.window',
    files: { 'specs/a.yaml': 'name: A\napp:\n  launch: xterm\ngoals:\n  - id: g\n    goal: click "1"\n' },
    message: ['specs/a.yaml:', 'window'],
  },
  {
    name: 'a YAML syntax error',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: "unclosed\n` },
    message: ['specs/a.yaml:'],
  },
  {
    name: 'an unset ${env.X}',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    steps:\n      - type: "\${env.RETRACE_NOT_SET}"\n` },
    message: ['specs/a.yaml:8', 'RETRACE_NOT_SET'],
  },
  {
    name: 'a binary file as a spec',
    files: { 'specs/a.yaml': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3, 0xff, 0xfe]) },
    message: ['specs/a.yaml', /text/i],
  },
  {
    name: 'an unknown flag',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n` },
    args: ['run', '--wrokers', '2'],
    message: ['--wrokers', '--workers'],
  },
  {
    name: '--shard 3/2',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n` },
    args: ['run', '--shard', '3/2'],
    message: ['--shard', '3/2'],
  },
  {
    name: 'a truncated path file',
    files: {
      'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n`,
      'paths/specs/a/g.path.json': '{"version": 1, "spec": "specs/a.yaml", "goal": "g", "actions": [',
    },
    message: ['paths/specs/a/g.path.json', /truncated|valid/],
  },
  {
    name: 'a path file from a future version',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n`, 'paths/specs/a/g.path.json': '{"version": 99}\n' },
    message: ['paths/specs/a/g.path.json', 'newer'],
  },
  {
    name: 'a goal outside the rules grammar without an API key',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: Compute twelve times seven\n` },
    env: { ANTHROPIC_API_KEY: undefined },
    message: ['specs/a.yaml:6', 'ANTHROPIC_API_KEY', 'click "T"'],
  },
  {
    name: 'an unknown --goal',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n` },
    args: ['run', '--goal', 'nope'],
    message: ['--goal nope'],
  },
  {
    name: 'a bad config file',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n`, 'retrace.config.yaml': 'workers: many\n' },
    message: ['retrace.config.yaml:1', 'workers'],
  },
  {
    name: 'an unknown config key',
    files: { 'specs/a.yaml': SPEC, 'retrace.config.yaml': 'learn: auto\nwrokers: 2\n' },
    message: ['retrace.config.yaml:2', 'wrokers'],
  },
  { name: 'an empty spec file', files: { 'specs/a.yaml': '' }, message: ['specs/a.yaml'] },
  { name: 'a spec that is a list, not a mapping', files: { 'specs/a.yaml': '- name: A\n' }, message: ['specs/a.yaml:1'] },
  {
    name: 'an unknown top-level key, with a suggestion',
    files: { 'specs/a.yaml': `name: A\n${APP}goal:\n  - id: g\n` },
    message: ['specs/a.yaml:5', 'goals'],
  },
  {
    name: 'a goal id that cannot name a file',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: "../escape"\n    goal: click "1"\n` },
    message: ['specs/a.yaml:6', 'id'],
  },
  {
    name: 'a region with a negative width',
    files: {
      'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n    expect:\n      - text: "1"\n        region: [0, 0, -5, 10]\n`,
    },
    message: ['specs/a.yaml:10', 'region'],
  },
  {
    name: 'an invalid regex in match: regex',
    files: {
      'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n    expect:\n      - text: "(unclosed"\n        match: regex\n`,
    },
    message: ['specs/a.yaml:9', 'regex'],
  },
  {
    name: 'an unknown match mode',
    files: {
      'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n    expect:\n      - text: "1"\n        match: exactly\n`,
    },
    message: ['specs/a.yaml:10', 'contains'],
  },
  {
    name: 'an unquoted number as text',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n    expect:\n      - text: 84\n` },
    message: ['specs/a.yaml:9', '"84"'],
  },
  {
    name: 'an unset ${secret.X}',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    steps:\n      - type: "\${secret.RETRACE_NO_SUCH_SECRET}"\n` },
    message: ['specs/a.yaml:8', 'RETRACE_NO_SUCH_SECRET'],
  },
  {
    name: 'an unknown interpolation namespace',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    steps:\n      - type: "\${vault.X}"\n` },
    message: ['specs/a.yaml:8', 'vault'],
  },
  {
    name: 'a restart mode that does not exist',
    files: { 'specs/a.yaml': `name: A\n${APP}  restart: never\ngoals:\n  - id: g\n    goal: click "1"\n` },
    message: ['specs/a.yaml:5', 'restart'],
  },
  { name: 'an unknown command', files: { 'specs/a.yaml': SPEC }, args: ['rnu'], message: ['rnu', 'run'] },
  { name: '--workers 0', files: { 'specs/a.yaml': SPEC }, args: ['run', '--workers', '0'], message: ['--workers'] },
  { name: '--shard 0/2', files: { 'specs/a.yaml': SPEC }, args: ['run', '--shard', '0/2'], message: ['--shard'] },
  {
    name: 'an unknown --update-baselines mode',
    files: { 'specs/a.yaml': SPEC },
    args: ['run', '--update-baselines', 'some'],
    message: ['--update-baselines', 'missing'],
  },
  { name: '--goal without a value', files: { 'specs/a.yaml': SPEC }, args: ['run', '--goal'], message: ['--goal needs a value'] },
  {
    name: 'a spec folder that does not exist',
    files: { 'specs/a.yaml': SPEC },
    args: ['run', 'nowhere/'],
    message: ['nowhere', 'no such file'],
  },
  {
    name: '--planner claude without an API key',
    files: { 'specs/a.yaml': SPEC },
    args: ['run', '--planner', 'claude'],
    env: { ANTHROPIC_API_KEY: undefined },
    message: ['ANTHROPIC_API_KEY'],
  },
  {
    name: 'a missing baseline directory under --update-baselines none',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1"\n    expect:\n      - screenshot: result\n` },
    args: ['run', '--update-baselines', 'none'],
    message: ['specs/a.yaml:9', 'no baseline'],
  },
  {
    name: 'a path file that is not an object',
    files: { 'specs/a.yaml': SPEC, 'paths/specs/a/g.path.json': '[1, 2]\n' },
    message: ['paths/specs/a/g.path.json', 'object'],
  },
  {
    name: 'a path file with a broken action',
    files: {
      'specs/a.yaml': SPEC,
      'paths/specs/a/g.path.json':
        '{"version":1,"spec":"specs/a.yaml","goal":"g","planner":"rules","source":{"kind":"goal","hash":"x","text":"y"},"window":{"width":1,"height":1},"actions":[{"action":{"kind":"teleport"}}]}\n',
    },
    message: ['paths/specs/a/g.path.json', 'actions[0]'],
  },
  {
    name: 'a malformed statistics file (retrace paths)',
    files: { 'specs/a.yaml': SPEC, 'reports/history/runs.jsonl': '{"v":1}\nnot json\n{"v":1}\n' },
    args: ['paths'],
    message: ['runs.jsonl:1'],
  },
  {
    name: 'a malformed statistics file (retrace report)',
    files: { 'specs/a.yaml': SPEC, 'reports/history/runs.jsonl': 'garbage\n{}\n' },
    args: ['report'],
    message: ['runs.jsonl:1'],
  },
  {
    name: 'merging a folder that holds no summary',
    files: { 'specs/a.yaml': SPEC, 'shard-1/notes.txt': 'x' },
    args: ['merge', 'shard-1'],
    message: ['shard-1', 'summary.json'],
  },
  {
    name: 'merging a malformed summary',
    files: { 'specs/a.yaml': SPEC, 'shard-1/summary.json': '{"totals": 3}' },
    args: ['merge', 'shard-1'],
    message: ['shard-1/summary.json', 'totals'],
  },
  {
    name: 'accepting a proposal that does not exist',
    files: { 'specs/a.yaml': SPEC },
    args: ['paths', 'accept', 'specs/a.yaml#g'],
    message: ['no proposed path'],
  },
  // Issue 16.4: a <spec>#<goal> argument names a known spec and goal, or nothing is touched.
  {
    name: 'paths reject of a proposal outside paths/ (../victim#x)',
    files: { 'specs/a.yaml': SPEC, 'victim/x.proposed.path.json': '{}\n', 'victim/x.path.json': '{}\n' },
    args: ['paths', 'reject', '../victim#x'],
    message: ['../victim#x', 'no spec file'],
  },
  {
    name: 'paths accept of a proposal outside paths/ (../victim#x)',
    files: {
      'specs/a.yaml': SPEC,
      'victim/x.proposed.path.json': `${JSON.stringify({ ...PATH, goal: 'x' })}\n`,
      'victim/x.path.json': '{}\n',
    },
    args: ['paths', 'accept', '../victim#x'],
    message: ['../victim#x', 'no spec file'],
  },
  {
    name: "paths accept '../../etc#x'",
    files: { 'specs/a.yaml': SPEC },
    args: ['paths', 'accept', '../../etc#x'],
    message: ['../../etc#x', 'no spec file'],
  },
  {
    name: 'paths reject of a goal the spec does not have',
    files: { 'specs/a.yaml': SPEC, 'paths/specs/a/nope.proposed.path.json': '{}\n' },
    args: ['paths', 'reject', 'specs/a.yaml#nope'],
    message: ['specs/a.yaml has no goal "nope"', 'g'],
  },
  {
    name: 'paths reject with a goal that climbs out (specs/a.yaml#../../x)',
    files: { 'specs/a.yaml': SPEC, 'x.proposed.path.json': '{}\n' },
    args: ['paths', 'reject', 'specs/a.yaml#../../x'],
    message: ['no goal "../../x"'],
  },
  // Issue 16.5: path files are checked completely before anything is launched.
  {
    name: 'a path file whose image name climbs out of its folder',
    files: { 'specs/a.yaml': SPEC, ...pathFiles(HOSTILE_IMAGE) },
    message: [pathLine(HOSTILE_IMAGE, '../../../../etc/passwd'), 'anchor.image', 'without any folder part'],
  },
  {
    name: 'a path file whose image is missing',
    files: { 'specs/a.yaml': SPEC, ...pathFiles(MISSING_IMAGE) },
    message: [pathLine(MISSING_IMAGE, 'fedcba9876543210.png'), 'fedcba9876543210.png', 'missing'],
  },
  {
    name: 'a path file whose image is not a PNG',
    files: { 'specs/a.yaml': SPEC, ...pathFiles(), [`paths/specs/a/g.assets/${IMAGE}`]: 'root:x:0:0:root:/root:/bin/bash\n' },
    message: [pathLine(() => {}, IMAGE), 'not a PNG'],
  },
  {
    name: 'a path file with a point far outside its window ({x: -50, y: 1e12})',
    files: { 'specs/a.yaml': SPEC, ...pathFiles(FAR_POINT) },
    message: [pathLine(FAR_POINT, '"point"'), 'anchor.point', '400×300'],
  },
  {
    name: 'a path file with a click far outside its window',
    files: { 'specs/a.yaml': SPEC, ...pathFiles(FAR_CLICK) },
    message: [pathLine(FAR_CLICK, '"target"'), 'action.target', '400×300', '{"x":99999999,"y":5}'],
  },
  {
    name: 'a path file with an effect region outside its window',
    files: { 'specs/a.yaml': SPEC, ...pathFiles(FAR_EFFECT) },
    message: [pathLine(FAR_EFFECT, '"region"'), 'effects[0].region'],
  },
  {
    name: 'a path file with a key combo no keyboard has',
    files: { 'specs/a.yaml': SPEC, ...pathFiles(BAD_COMBO) },
    message: [pathLine(BAD_COMBO, '"combo"'), 'shfit'],
  },
  {
    name: 'a hostile path file, at validate',
    files: { 'specs/a.yaml': SPEC, ...pathFiles(HOSTILE_IMAGE) },
    args: ['validate'],
    message: [pathLine(HOSTILE_IMAGE, '../../../../etc/passwd')],
  },
  // Issue 16.7: bounds on input.
  {
    name: 'a spec larger than 1 MB',
    files: { 'specs/a.yaml': `${SPEC}# ${'x'.repeat(1024 * 1024)}\n` },
    message: ['specs/a.yaml', '1 MB'],
  },
  {
    name: 'a wait of 99999999999999999999 ms',
    files: { 'specs/a.yaml': stepsSpec('      - wait: 99999999999999999999\n') },
    message: ['specs/a.yaml:8:15', 'wait', '3600000'],
  },
  {
    name: 'a click outside app.size',
    files: { 'specs/a.yaml': stepsSpec('      - click: { x: 5000, y: 5000 }\n', SIZED) },
    message: ['specs/a.yaml:9', '(5000, 5000)', '400×300', 'app.size'],
  },
  // Issue 26.5, 26.9: values no display or toolkit can take.
  {
    name: "a click at x: 99999999, out of X's range",
    files: { 'specs/a.yaml': stepsSpec('      - click: { x: 99999999, y: 10 }\n') },
    args: ['validate'],
    message: ['specs/a.yaml:8:21', 'click.x must be an integer from 0 to 32767 (got 99999999)'],
  },
  {
    name: "a region past X's range",
    files: { 'specs/a.yaml': `${stepsSpec('      - wait: 10\n')}    expect:\n      - text: "1"\n        region: [0, 0, 40000, 20]\n` },
    message: ['specs/a.yaml:11', 'region'],
  },
  {
    name: 'a NUL byte in app.launch',
    files: { 'specs/a.yaml': 'name: A\napp:\n  launch: "xterm\\0 -e sh"\n  window: x\ngoals:\n  - id: g\n    goal: click "1"\n' },
    args: ['validate'],
    message: ['specs/a.yaml:3', 'app.launch holds a NUL character'],
  },
  {
    name: 'type: "" (nothing to type)',
    files: { 'specs/a.yaml': stepsSpec('      - type: ""\n') },
    args: ['validate'],
    message: ['specs/a.yaml:8:15', 'type must not be empty'],
  },
  {
    name: 'an unknown role in element:',
    files: { 'specs/a.yaml': `${stepsSpec('      - wait: 10\n')}    expect:\n      - element: { role: buton, name: OK }\n` },
    args: ['validate'],
    message: ['specs/a.yaml:10', 'expect[0]: unknown role "buton" (did you mean "button"?)'],
  },
  {
    name: "an unknown role in a step's target",
    files: { 'specs/a.yaml': stepsSpec('      - click: { role: knob, name: Volume }\n') },
    message: ['specs/a.yaml:6', 'steps[0]: unknown role "knob"'],
  },
  {
    name: 'an element nth of 1e308',
    files: { 'specs/a.yaml': stepsSpec('      - click: { role: button, nth: 1e308 }\n') },
    args: ['validate'],
    message: ['specs/a.yaml:8', 'nth must be an integer from 0 to 999 (got 1e308)'],
  },
  {
    name: 'a text region entirely off the window (app.size)',
    files: {
      'specs/a.yaml': `${stepsSpec('      - wait: 10\n', SIZED)}    expect:\n      - absent: Error\n        region: [500, 0, 50, 20]\n`,
    },
    message: ['specs/a.yaml:11', 'entirely outside the 400×300 window'],
  },
  {
    name: 'a click outside the window the path was recorded in',
    files: { 'specs/a.yaml': stepsSpec('      - click: { x: 900, y: 10 }\n'), ...pathFiles() },
    message: ['specs/a.yaml:6', 'steps[0]', '(900, 10)', 'paths/specs/a/g.path.json'],
  },
  {
    name: 'a corrupt baseline PNG',
    files: {
      'specs/a.yaml': `${SPEC}    expect:\n      - screenshot: result\n`,
      [`fixtures/baselines/specs/a/result-${process.platform}-400x300.png`]: Buffer.concat([PNG.subarray(0, 40), Buffer.from('garbage')]),
    },
    message: [`fixtures/baselines/specs/a/result-${process.platform}-400x300.png`, 'not a readable PNG'],
  },
  {
    name: 'a corrupt baseline PNG, at validate',
    files: {
      'specs/a.yaml': `${SPEC}    expect:\n      - screenshot: result\n`,
      [`fixtures/baselines/specs/a/result-${process.platform}-400x300.png`]: 'not a png',
    },
    args: ['validate'],
    message: [`result-${process.platform}-400x300.png`, 'not a readable PNG'],
  },
  {
    name: 'a YAML nested 5000 deep',
    files: { 'specs/a.yaml': `${SPEC}x: ${'['.repeat(5000)}${']'.repeat(5000)}\n` },
    message: ['specs/a.yaml:8', 'nests more than 64 levels'],
  },
  // Issue 18.8: key combos are checked before anything runs.
  {
    name: 'a key combo with a misspelt modifier (ctrl+shfit+s)',
    files: { 'specs/a.yaml': stepsSpec('      - key: ctrl+shfit+s\n') },
    message: ['specs/a.yaml:8:14', '"shfit" is not a modifier'],
  },
  {
    name: 'a key combo with a misspelt modifier, at validate',
    files: { 'specs/a.yaml': stepsSpec('      - key: ctrl+shfit+s\n') },
    args: ['validate'],
    message: ['specs/a.yaml:8:14', 'shfit'],
  },
  {
    name: 'a rules goal that presses a misspelt combo',
    files: { 'specs/a.yaml': `name: A\n${APP}goals:\n  - id: g\n    goal: click "1", press ctrl+shfit+s\n` },
    message: ['specs/a.yaml:6', 'shfit'],
  },
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

  test('the path file these cases break is valid as it is (retrace validate passes)', async () => {
    const project = new Project().write('specs/a.yaml', `${stepsSpec('      - click: { x: 390, y: 10 }\n', SIZED)}`);
    for (const [file, data] of Object.entries(pathFiles())) project.write(file, data as string);
    const result = await project.cli(['validate']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});
