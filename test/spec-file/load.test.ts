import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidInputError, InvalidInputErrors } from '../../src/errors.ts';
import { loadSpec, parseSpec } from '../../src/spec-file/load.ts';
import { MASK, SecretMasker, secretMasker } from '../../src/spec-file/secrets.ts';
import { APP, FILE, load, problems, ROOT } from './helpers.ts';

const FIXTURE = resolve(import.meta.dirname, 'fixtures/calc.yaml');
const PROJECT = resolve(import.meta.dirname, '../..');

describe('loadSpec: the PRODUCT.md example', () => {
  const spec = loadSpec(FIXTURE, { root: PROJECT, env: { USER_NAME: 'Ada' } });

  it('names the spec by its path from the root, with forward slashes', () => {
    expect(spec.id).toBe('test/spec-file/fixtures/calc.yaml');
    expect(spec.file).toBe(FIXTURE);
    expect(spec.name).toBe('Calculator');
  });

  it('reads the app with its defaults', () => {
    expect(spec.app).toEqual({
      launch: 'galculator',
      window: 'galculator',
      size: [400, 360],
      restart: 'goal',
      env: { LANG: 'C.UTF-8' },
      animations: 'off',
      accessibility: 'on',
      isolate: true,
    });
  });

  it('reads free-form, rules-grammar and scripted goals with their lines', () => {
    expect(spec.goals.map((g) => [g.id, g.line])).toEqual([
      ['multiply', 10],
      ['add', 17],
      ['note', 23],
    ]);
    expect(spec.goals[1]?.goal).toBe('click "7", click "+", click "8", click "="');
    expect(spec.goals[0]?.steps).toBeUndefined();
  });

  it('turns expectations into the domain types, defaults filled in', () => {
    expect(spec.goals[0]?.expect).toEqual([
      { kind: 'text', text: '84', match: 'contains', region: { x: 0, y: 30, width: 330, height: 55 }, line: 13 },
      { kind: 'screenshot', name: 'multiply', mask: [], maxDiffPixelRatio: 0.001, line: 15 },
    ]);
    expect(spec.goals[1]?.expect).toEqual([
      { kind: 'text', text: '15', match: 'contains', line: 20 },
      { kind: 'absent', text: 'Error', line: 21 },
      { kind: 'window', title: 'galculator', line: 22 },
    ]);
  });

  it('turns steps into actions and keeps placeholders unresolved', () => {
    expect(spec.goals[2]?.goal).toBe('Write a note');
    expect(spec.goals[2]?.steps).toEqual([
      { kind: 'click', target: { text: 'New' } },
      { kind: 'type', text: 'Hello, ${env.USER_NAME}!' },
      { kind: 'key', combo: 'ctrl+s' },
      { kind: 'wait', ms: 200 },
    ]);
  });

  it('rejects the example when USER_NAME is unset, naming the variable and the line', () => {
    expect(() => loadSpec(FIXTURE, { root: PROJECT, env: {} })).toThrow(
      'test/spec-file/fixtures/calc.yaml:27:15: goals[2].steps[1].type uses ${env.USER_NAME}, but the environment variable USER_NAME is not set',
    );
  });
});

describe('loadSpec: every step kind', () => {
  const spec = load(
    `${APP}goals:
  - id: all-steps
    steps:
      - click: "OK"
      - double-click: { x: 10, y: 20 }
      - right-click: { text: File }
      - type: { text: "\${secret.PASSWORD}", into: { text: Password } }
      - key: Enter
      - wait: 0
      - wait-for: Saved
      - wait-for: { text: Done, timeoutMs: 500 }
      - scroll: { direction: down }
      - scroll: { direction: left, amount: 5, in: { x: 1, y: 2 } }
      - drag: { from: { x: 1, y: 2 }, to: Trash }
`,
    { PASSWORD: 'hunter2' },
  );

  it('maps each step to its Action', () => {
    expect(spec.goals[0]?.steps).toEqual([
      { kind: 'click', target: { text: 'OK' } },
      { kind: 'double-click', target: { x: 10, y: 20 } },
      { kind: 'right-click', target: { text: 'File' } },
      { kind: 'type', text: '${secret.PASSWORD}', into: { text: 'Password' } },
      { kind: 'key', combo: 'Enter' },
      { kind: 'wait', ms: 0 },
      { kind: 'wait-for', text: 'Saved' },
      { kind: 'wait-for', text: 'Done', timeoutMs: 500 },
      { kind: 'scroll', direction: 'down', amount: 3 },
      { kind: 'scroll', direction: 'left', amount: 5, target: { x: 1, y: 2 } },
      { kind: 'drag', from: { x: 1, y: 2 }, to: { text: 'Trash' } },
    ]);
  });

  it('gives a goal with steps and no goal text no goal', () => {
    expect(spec.goals[0]?.goal).toBeUndefined();
    expect(spec.goals[0]?.expect).toEqual([]);
  });
});

describe('loadSpec: app and spec-level keys', () => {
  it('resolves cwd against the spec directory, with ${env.X} resolved', () => {
    const spec = load(`app:\n  launch: x\n  window: x\n  cwd: \${env.SUB}/bin\ngoals:\n  - id: a\n    goal: b\n`, { SUB: 'tools' });
    expect(spec.app.cwd).toBe(resolve(ROOT, 'specs/tools/bin'));
  });

  it('keeps restart, setup, teardown, windowTimeoutMs and options', () => {
    const spec = load(`name: S
app:
  launch: x
  window: /^Calc(ulator)?$/i
  restart: spec
  setup: make demo
  teardown: rm -rf /tmp/x
  windowTimeoutMs: 9000
options:
  learn: off
  timeouts: { goalMs: 1000 }
  bounds: { maxSteps: 3 }
goals:
  - id: a
    goal: b
`);
    expect(spec.app).toMatchObject({ restart: 'spec', setup: 'make demo', teardown: 'rm -rf /tmp/x', windowTimeoutMs: 9000 });
    expect(spec.options).toEqual({ learn: 'off', timeouts: { goalMs: 1000 }, bounds: { maxSteps: 3 } });
  });

  it('keeps animations and isolate, and rejects a value outside their choices', () => {
    const spec = load(`app:\n  launch: x\n  window: x\n  animations: allow\n  isolate: false\ngoals:\n  - id: a\n    goal: b\n`);
    expect(spec.app).toMatchObject({ animations: 'allow', isolate: false });
    expect(problems(`app:\n  launch: x\n  window: x\n  animations: none\n  isolate: no\ngoals:\n  - id: a\n    goal: b\n`)).toEqual([
      'specs/calc.yaml:4:15: app.animations must be one of off, allow (got "none")',
      'specs/calc.yaml:5:12: app.isolate must be true or false (got "no")',
    ]);
  });

  it('defaults the name to the file name and the options to {}', () => {
    const spec = load(`${APP}goals:\n  - id: a\n    goal: b\n`);
    expect(spec.name).toBe('calc');
    expect(spec.options).toEqual({});
    expect(spec.id).toBe('specs/calc.yaml');
  });

  it('names a spec outside the root by its file name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'retrace-spec-'));
    try {
      const file = join(dir, 'outside.yaml');
      writeFileSync(file, `${APP}goals:\n  - id: a\n    goal: b\n`);
      const spec = loadSpec(file, { root: ROOT, env: {} });
      expect(spec.id).toBe('outside.yaml');
      expect(spec.file).toBe(file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('loadSpec: invalid files name file:line:column and what was expected', () => {
  it('reports a YAML syntax error with its line', () => {
    const messages = problems(`${APP}goals: [\n  - id: a\n`);
    expect(messages[0]).toBe('specs/calc.yaml:5:3: YAML syntax error: Block collections are not allowed within flow collections');
    expect(messages.every((m) => /^specs\/calc\.yaml:\d+:\d+: YAML syntax error: /.test(m))).toBe(true);
  });

  it('reports two documents in one file', () => {
    expect(problems(`${APP}---\nx: 1\n`)).toEqual([expect.stringMatching(/^specs\/calc\.yaml:4:1: holds more than one YAML document/)]);
  });

  it('reports an empty file, and a file of only comments', () => {
    const empty = 'specs/calc.yaml:1:1: is empty: a spec needs at least app: (launch, window) and goals:';
    expect(problems('')).toEqual([empty]);
    expect(problems('# nothing yet\n\n')).toEqual([empty]);
  });

  it('reports a top level that is not a mapping', () => {
    expect(problems('- id: a\n- id: b\n')).toEqual(['specs/calc.yaml:1:1: the top level must be a mapping (got a list of 2 items)']);
    expect(problems('just text\n')).toEqual(['specs/calc.yaml:1:1: the top level must be a mapping (got "just text")']);
  });

  it('reports a binary file', () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]);
    expect(problems(bytes)).toEqual(['specs/calc.yaml:3: is not a YAML text file (it holds binary data)']);
  });

  it('reports a file that is not UTF-8, with the line of the bad byte', () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode('name: x\nfoo: caf'), 0xe9, 0x0a]);
    expect(problems(latin1)).toEqual(['specs/calc.yaml:2: is not a YAML text file (not valid UTF-8 at byte 16; save it as UTF-8)']);
  });

  it('accepts a UTF-8 byte order mark', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(`${APP}goals:\n  - id: a\n    goal: b\n`)]);
    expect(load(bytes).app.launch).toBe('galculator');
  });

  it('reports an unknown key with the closest known key', () => {
    expect(problems(`${APP}gaols:\n  - id: a\n    goal: b\n`)).toEqual([
      'specs/calc.yaml:1:1: goals is required (the goals, run in order)',
      'specs/calc.yaml:4:1: the top level has an unknown key "gaols" (did you mean "goals"?)',
    ]);
    expect(problems(`${APP}goals:\n  - id: a\n    goal: b\n    expect:\n      - text: "1"\n        regoin: [0, 0, 1, 1]\n`)).toEqual([
      'specs/calc.yaml:9:9: goals[0].expect[0] has an unknown key "regoin" for a text expectation (did you mean "region"?)',
    ]);
  });

  it('lists the known keys when no key is close', () => {
    expect(problems(`app:\n  launch: x\n  window: y\n  colour: red\ngoals:\n  - id: a\n    goal: b\n`)).toEqual([
      'specs/calc.yaml:4:3: app has an unknown key "colour" (expected one of: launch, window, size, restart, env, cwd, setup, teardown, windowTimeoutMs, animations, accessibility, isolate)',
    ]);
  });

  it('reports wrong types, with a hint to quote numbers', () => {
    expect(problems(`app: galculator\ngoals:\n  - id: a\n    goal: b\n    expect:\n      - text: 84\n`)).toEqual([
      'specs/calc.yaml:1:6: app must be a mapping (got "galculator")',
      'specs/calc.yaml:6:15: goals[0].expect[0].text must be a non-empty string (got 84); quote it: "84"',
    ]);
    expect(problems(`${APP}goals: {id: a}\n`)).toEqual(['specs/calc.yaml:4:8: goals must be a list of goals (got a mapping)']);
  });

  it('reports an enum value that is not allowed', () => {
    expect(
      problems(`${APP}goals:\n  - id: a\n    goal: b\n  - id: c\n    goal: d\n    expect:\n      - text: "1"\n        match: exactly\n`),
    ).toEqual(['specs/calc.yaml:11:16: goals[1].expect[0].match must be one of contains, substring, exact, regex, fuzzy (got "exactly")']);
  });

  it('reports a duplicate goal id, naming both lines', () => {
    expect(problems(`${APP}goals:\n  - id: add\n    goal: b\n  - id: add\n    goal: c\n`)).toEqual([
      'specs/calc.yaml:7:9: goals[1].id "add" is used twice: also by goals[0] at line 5; ids must be unique in the file',
    ]);
  });

  it('reports a duplicate key, naming the first line', () => {
    expect(problems(`${APP}goals:\n  - id: a\n    goal: b\n    goal: c\n`)).toEqual([
      'specs/calc.yaml:7:5: goals[0].goal is given twice (first at line 6)',
    ]);
  });

  it('reports a missing app.launch and app.window at the app key', () => {
    expect(problems(`name: x\napp:\n  size: [1, 1]\ngoals:\n  - id: a\n    goal: b\n`)).toEqual([
      'specs/calc.yaml:2:1: app.launch is required (command line that starts the application, run through a shell)',
      "specs/calc.yaml:2:1: app.window is required (title of the application's window to wait for: a substring, or /regex/ with optional flags)",
    ]);
    expect(problems(`goals:\n  - id: a\n    goal: b\n`)).toEqual(['specs/calc.yaml:1:1: app is required (the application under test)']);
  });

  it('reports a goal with none of goal:, steps: and expect:, and a goal without id', () => {
    expect(problems(`${APP}goals:\n  - id: a\n  - goal: b\n`)).toEqual([
      'specs/calc.yaml:5:5: goals[0] needs goal: or steps: or expect:',
      'specs/calc.yaml:6:5: goals[1].id is required (unique in the file; names the path file)',
    ]);
  });

  it('accepts a goal with only expect: (its path is recorded with retrace record)', () => {
    const spec = load(`${APP}goals:\n  - id: a\n    expect:\n      - text: "1"\n`);
    expect(spec.goals[0]).toMatchObject({ id: 'a', expect: [{ kind: 'text', text: '1' }] });
    expect(spec.goals[0]?.goal).toBeUndefined();
    expect(spec.goals[0]?.steps).toBeUndefined();
  });

  it('accepts goal: as the description of steps:', () => {
    const spec = load(`${APP}goals:\n  - id: a\n    goal: Save it\n    steps:\n      - key: ctrl+s\n`);
    expect(spec.goals[0]).toMatchObject({ goal: 'Save it', steps: [{ kind: 'key', combo: 'ctrl+s' }] });
  });

  it('reports empty goals and empty steps lists', () => {
    expect(problems(`${APP}goals: []\n`)).toEqual(['specs/calc.yaml:4:8: goals must have at least 1 item (a list of goals)']);
    expect(problems(`${APP}goals:\n  - id: a\n    steps: []\n`)).toEqual([
      'specs/calc.yaml:6:12: goals[0].steps must have at least 1 item (a list of steps)',
    ]);
  });

  it('reports an unknown step kind with the closest kind', () => {
    expect(problems(`${APP}goals:\n  - id: a\n    steps:\n      - clik: { text: New }\n      - hover: x\n`)).toEqual([
      'specs/calc.yaml:7:9: goals[0].steps[0] has an unknown step kind "clik" (did you mean "click"?); a step is one of: click, double-click, right-click, type, key, check, uncheck, select, wait, wait-for, scroll, drag',
      'specs/calc.yaml:8:9: goals[0].steps[1] has an unknown step kind "hover"; a step is one of: click, double-click, right-click, type, key, check, uncheck, select, wait, wait-for, scroll, drag',
    ]);
  });

  it('reports a step that is not a mapping, or has two kinds', () => {
    expect(problems(`${APP}goals:\n  - id: a\n    steps:\n      - click New\n      - { click: a, key: b }\n`)).toEqual([
      'specs/calc.yaml:7:9: goals[0].steps[0] must be a mapping such as { click: … } (got "click New"); a step is one of: click, double-click, right-click, type, key, check, uncheck, select, wait, wait-for, scroll, drag',
      'specs/calc.yaml:8:21: goals[0].steps[1] has both "click" and "key"; a step holds exactly one of: click, double-click, right-click, type, key, check, uncheck, select, wait, wait-for, scroll, drag',
    ]);
  });

  it('reports bad step values', () => {
    expect(
      problems(`${APP}goals:
  - id: a
    steps:
      - click: { x: 1 }
      - click: { x: -1, y: 2 }
      - scroll: { direction: sideways }
      - scroll: { direction: up, amount: 0 }
      - key: ctrl + s
      - wait: 1.5
      - wait-for: { text: X, timeout: 5 }
      - drag: { from: A }
      - type: { into: x }
      - click: [1, 2]
`),
    ).toEqual([
      'specs/calc.yaml:7:9: goals[0].steps[0].click.y is required (pixels from the top edge of the window)',
      'specs/calc.yaml:8:21: goals[0].steps[1].click.x must be an integer from 0 to 32767 (got -1)',
      'specs/calc.yaml:9:30: goals[0].steps[2].scroll.direction must be one of up, down, left, right (got "sideways")',
      'specs/calc.yaml:10:42: goals[0].steps[3].scroll.amount must be an integer from 1 to 1000 (got 0)',
      'specs/calc.yaml:11:14: goals[0].steps[4].key must be a string of key names joined with +, such as ctrl+s or Enter (got "ctrl + s")',
      'specs/calc.yaml:12:15: goals[0].steps[5].wait must be an integer from 0 to 3600000 (got 1.5)',
      'specs/calc.yaml:13:30: goals[0].steps[6].wait-for has an unknown key "timeout" (did you mean "timeoutMs"?)',
      'specs/calc.yaml:14:9: goals[0].steps[7].drag.to is required (where the drag ends)',
      'specs/calc.yaml:15:9: goals[0].steps[8].type.text is required (the text to type)',
      'specs/calc.yaml:16:16: goals[0].steps[9].click must be a text, { text }, { x, y } or { role, name, nth } (got [1, 2])',
    ]);
  });

  it('reports bad regions, masks and sizes', () => {
    expect(
      problems(`app:
  launch: x
  window: x
  size: [400]
goals:
  - id: a
    goal: b
    expect:
      - text: "1"
        region: [0, 30, 0, 55]
      - absent: "2"
        region: [-1, 0, 5, 5]
      - screenshot: s
        region: [0, 0, 10, 10.5]
        mask: [[0, 0, 1, 1], [0, 0]]
      - screenshot: t
        region: { x: 1 }
`),
    ).toEqual([
      'specs/calc.yaml:4:9: app.size must be [width, height]: positive integers (got [400])',
      'specs/calc.yaml:10:17: goals[0].expect[0].region must be [x, y, width, height]: integers up to 32767, x and y ≥ 0, width and height > 0 (got [0, 30, 0, 55])',
      'specs/calc.yaml:12:17: goals[0].expect[1].region must be [x, y, width, height]: integers up to 32767, x and y ≥ 0, width and height > 0 (got [-1, 0, 5, 5])',
      'specs/calc.yaml:14:17: goals[0].expect[2].region must be [x, y, width, height]: integers up to 32767, x and y ≥ 0, width and height > 0 (got [0, 0, 10, 10.5])',
      'specs/calc.yaml:15:30: goals[0].expect[2].mask[1] must be [x, y, width, height]: integers up to 32767, x and y ≥ 0, width and height > 0 (got [0, 0])',
      'specs/calc.yaml:17:17: goals[0].expect[3].region must be [x, y, width, height]: integers up to 32767, x and y ≥ 0, width and height > 0 (got a mapping)',
    ]);
  });

  it('reports screenshot thresholds out of range', () => {
    expect(
      problems(`${APP}goals:
  - id: a
    goal: b
    expect:
      - screenshot: s
        threshold: 1.5
        maxDiffPixels: -1
        maxDiffPixelRatio: 2
      - screenshot: "../up"
`),
    ).toEqual([
      'specs/calc.yaml:9:20: goals[0].expect[0].threshold must be a number from 0 to 1 (got 1.5)',
      'specs/calc.yaml:10:24: goals[0].expect[0].maxDiffPixels must be an integer ≥ 0 (got -1)',
      'specs/calc.yaml:11:28: goals[0].expect[0].maxDiffPixelRatio must be a number from 0 to 1 (got 2)',
      'specs/calc.yaml:12:21: goals[0].expect[1].screenshot must be a string of letters, digits, _ . - starting with a letter or digit (it names a file) (got "../up")',
    ]);
  });

  it('reports an expectation with two kinds or none', () => {
    expect(
      problems(`${APP}goals:\n  - id: a\n    goal: b\n    expect:\n      - text: x\n        absent: y\n      - match: exact\n`),
    ).toEqual([
      'specs/calc.yaml:9:9: goals[0].expect[0] has both "text" and "absent"; an expectation holds exactly one of: text, absent, screenshot, window, element, exited',
      'specs/calc.yaml:10:9: goals[0].expect[1] names no expectation kind; an expectation is one of: text, absent, screenshot, window, element, exited',
    ]);
  });

  it('reports restart other than goal or spec', () => {
    expect(problems(`app:\n  launch: x\n  window: x\n  restart: always\ngoals:\n  - id: a\n    goal: b\n`)).toEqual([
      'specs/calc.yaml:4:12: app.restart must be one of goal, spec (got "always")',
    ]);
  });

  it('reports a goal id that cannot name a file', () => {
    expect(problems(`${APP}goals:\n  - id: my goal\n    goal: b\n  - id: .hidden\n    goal: c\n  - id: 7\n    goal: d\n`)).toEqual([
      'specs/calc.yaml:5:9: goals[0].id must be a string of letters, digits, _ . - starting with a letter or digit (it names a file) (got "my goal")',
      'specs/calc.yaml:7:9: goals[1].id must be a string of letters, digits, _ . - starting with a letter or digit (it names a file) (got ".hidden")',
      'specs/calc.yaml:9:9: goals[2].id must be a string of letters, digits, _ . - starting with a letter or digit (it names a file) (got 7); quote it: "7"',
    ]);
  });

  it('reports an invalid regex in match: regex and in a /regex/ title', () => {
    expect(
      problems(
        `app:\n  launch: x\n  window: /Calc(/\ngoals:\n  - id: a\n    goal: b\n    expect:\n      - text: "[0-9"\n        match: regex\n      - window: /a)/i\n      - text: "[0-9"\n`,
      ),
    ).toEqual([
      'specs/calc.yaml:3:11: app.window is not a valid /regex/: Invalid regular expression: /Calc(/: Unterminated group',
      'specs/calc.yaml:8:15: goals[0].expect[0].text is not a valid regular expression (match: regex): Invalid regular expression: /[0-9/: Unterminated character class',
      "specs/calc.yaml:10:17: goals[0].expect[1].window is not a valid /regex/: Invalid regular expression: /a)/i: Unmatched ')'",
    ]);
  });

  it('reports unset ${env.X} and ${secret.X}, naming the variable', () => {
    expect(
      problems(`app:\n  launch: run \${env.APP_BIN}\n  window: x\ngoals:\n  - id: a\n    steps:\n      - type: "\${secret.TOKEN}"\n`),
    ).toEqual([
      'specs/calc.yaml:2:11: app.launch uses ${env.APP_BIN}, but the environment variable APP_BIN is not set',
      'specs/calc.yaml:7:15: goals[0].steps[0].type uses ${secret.TOKEN}, but the secret TOKEN is not set (secrets are read from the environment variable TOKEN)',
    ]);
    expect(() => load(`app:\n  launch: run \${env.APP_BIN}\n  window: x\ngoals:\n  - id: a\n    goal: b\n`, { APP_BIN: '' })).not.toThrow();
  });

  it('reports an unknown namespace and malformed placeholders', () => {
    expect(problems(`app:\n  launch: \${foo.X} \${env} \${env.A\n  window: x\ngoals:\n  - id: a\n    goal: b\n`)).toEqual([
      'specs/calc.yaml:2:11: app.launch uses ${foo.X}: unknown namespace "foo" (expected env or secret)',
      'specs/calc.yaml:2:11: app.launch has a malformed placeholder "${env}": write ${env.NAME} or ${secret.NAME}',
      'specs/calc.yaml:2:11: app.launch has an unterminated placeholder "${env.A": close it with } (write $${ for a literal ${)',
    ]);
  });

  it('refuses a secret in cwd and placeholders in keys that are used as written', () => {
    expect(
      problems(`name: \${env.X}\napp:\n  launch: x\n  window: x\n  cwd: \${secret.DIR}\ngoals:\n  - id: a\n    goal: b\n`, {
        X: '1',
        DIR: '/',
      }),
    ).toEqual([
      'specs/calc.yaml:1:7: name cannot hold placeholders such as ${env.X}; it is used as written',
      'specs/calc.yaml:5:8: app.cwd cannot use a secret (${secret.DIR}); only ${env.NAME} is allowed here',
    ]);
  });

  it('reports non-string env values and bad variable names', () => {
    expect(problems(`app:\n  launch: x\n  window: x\n  env: { PORT: 8080, "A B": x, OK: "1" }\ngoals:\n  - id: a\n    goal: b\n`)).toEqual([
      'specs/calc.yaml:4:16: app.env.PORT must be a string (got 8080); quote it: "8080"',
      'specs/calc.yaml:4:22: app.env["A B"]: the name must be letters, digits and _, not starting with a digit',
    ]);
  });

  it('reports bad options with their paths', () => {
    expect(
      problems(`${APP}options:\n  learn: sometimes\n  timeouts: { goalMs: 0, stepMs: 5 }\n  workers: 2\ngoals:\n  - id: a\n    goal: b\n`),
    ).toEqual([
      'specs/calc.yaml:5:10: options.learn must be one of auto, off, force (got "sometimes")',
      'specs/calc.yaml:6:23: options.timeouts.goalMs must be an integer from 1 to 3600000 (got 0)',
      'specs/calc.yaml:6:26: options.timeouts has an unknown key "stepMs" (expected one of: goalMs, actionMs, settleMs, windowMs, expectMs)',
      'specs/calc.yaml:7:3: options has an unknown key "workers" (expected one of: learn, planner, model, relearn, healWithModel, strict, unexpectedChanges, trace, timeouts, bounds)',
    ]);
  });

  it('lists every problem of a file at once, in line order', () => {
    const messages = problems(
      `app:\n  launch: x\n  window: x\n  restart: never\ngoals:\n  - id: a\n  - id: a\n    goal: b\n    expect:\n      - text: "1"\n        match: regexp\n`,
    );
    expect(messages).toEqual([
      'specs/calc.yaml:4:12: app.restart must be one of goal, spec (got "never")',
      'specs/calc.yaml:6:5: goals[0] needs goal: or steps: or expect:',
      'specs/calc.yaml:7:9: goals[1].id "a" is used twice: also by goals[0] at line 6; ids must be unique in the file',
      'specs/calc.yaml:11:16: goals[1].expect[0].match must be one of contains, substring, exact, regex, fuzzy (got "regexp")',
    ]);
  });

  it('throws InvalidInputErrors of InvalidInputError with structured locations (exit code 2)', () => {
    try {
      load(`${APP}goals:\n  - id: a\n`);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidInputErrors);
      const errors = (e as InvalidInputErrors).errors;
      expect(errors[0]).toBeInstanceOf(InvalidInputError);
      expect(errors[0]?.location).toEqual({ file: FILE, line: 5, column: 5 });
      expect(errors[0]?.detail).toBe('goals[0] needs goal: or steps: or expect:');
      expect((e as InvalidInputErrors).exitCode).toBe(2);
    }
  });

  it('reports a missing file without a crash', () => {
    expect(() => loadSpec('specs/none.yaml', { root: ROOT, env: {} })).toThrow('specs/none.yaml: cannot be read: no such file');
  });

  it('caps alias expansion', () => {
    const text = `x: &g { id: a, goal: b }\n${APP}goals: [${Array(1200).fill('*g').join(', ')}]\n`;
    const messages = problems(text);
    expect(messages.filter((m) => m.includes('too many alias (*name) expansions, more than 1000'))).toHaveLength(1);
  });
});

describe('loadSpec: secrets', () => {
  it('teaches the masker every secret the spec uses, at load time', () => {
    const masker = new SecretMasker();
    parseSpec(`${APP}goals:\n  - id: a\n    steps:\n      - type: { text: "\${secret.PASSWORD}", into: Password }\n`, FILE, {
      root: ROOT,
      env: { PASSWORD: 'correct horse', OTHER: 'not used' },
      masker,
    });
    expect(masker.mask('typed correct horse, not used')).toBe(`typed ${MASK}, not used`);
  });

  it('learns nothing with masker: null', () => {
    const before = secretMasker.size;
    parseSpec(`${APP}goals:\n  - id: a\n    goal: "\${secret.ONLY_HERE}"\n`, FILE, {
      root: ROOT,
      env: { ONLY_HERE: 'zz-unique-value' },
      masker: null,
    });
    expect(secretMasker.size).toBe(before);
    expect(secretMasker.mask('zz-unique-value')).toBe('zz-unique-value');
  });
});

describe('loadSpec: messages never reveal a secret', () => {
  it('masks a secret inside an invalid regex', () => {
    const env = { PART: 'pa(ss' };
    const messages = problems(
      `app:\n  launch: x\n  window: "/\${secret.PART}/"\ngoals:\n  - id: a\n    goal: b\n    expect:\n      - text: "\${secret.PART}"\n        match: regex\n`,
      env,
    );
    expect(messages).toEqual([
      `specs/calc.yaml:3:11: app.window is not a valid /regex/: Invalid regular expression: /${MASK}/: Unterminated group`,
      `specs/calc.yaml:8:15: goals[0].expect[0].text is not a valid regular expression (match: regex): Invalid regular expression: /${MASK}/: Unterminated group`,
    ]);
  });
});
