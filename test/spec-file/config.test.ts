import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidInputErrors } from '../../src/errors.ts';
import { loadConfig } from '../../src/spec-file/config.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'retrace-config-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (text: string, name = 'retrace.config.yaml'): void => writeFileSync(join(root, name), text);

const messages = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (e) {
    if (e instanceof InvalidInputErrors) return e.errors.map((x) => x.message);
    throw e;
  }
  throw new Error('expected InvalidInputErrors');
};

describe('loadConfig', () => {
  it('is an empty config when the project has no file, or an empty one', () => {
    expect(loadConfig(root)).toEqual({ dir: root, values: {} });
    write('# nothing\n');
    expect(loadConfig(root).values).toEqual({});
  });

  it('reads every key as written, without filling defaults', () => {
    write(`learn: off
planner: rules
relearn: true
healWithModel: false
updateBaselines: changed
workers: 4
paths: out/paths
reports: out/reports
model: claude-opus-4-1
timeouts: { goalMs: 60000, settleMs: 2000 }
bounds: { maxSteps: 10 }
display: { size: [1024, 768] }
`);
    expect(loadConfig(root)).toEqual({
      file: join(root, 'retrace.config.yaml'),
      dir: root,
      values: {
        learn: 'off',
        planner: 'rules',
        relearn: true,
        healWithModel: false,
        updateBaselines: 'changed',
        workers: 4,
        paths: 'out/paths',
        reports: 'out/reports',
        model: 'claude-opus-4-1',
        timeouts: { goalMs: 60000, settleMs: 2000 },
        bounds: { maxSteps: 10 },
        display: { size: [1024, 768] },
      },
    });
  });

  it('reports every problem with file:line:column and the exact key', () => {
    write(`learn: sometimes
workers: 0
timeouts:
  goalMS: 5
display: { size: [0, 10] }
relearn: "yes"
planer: rules
`);
    expect(messages(() => loadConfig(root))).toEqual([
      'retrace.config.yaml:1:8: learn must be one of auto, off, force (got "sometimes")',
      'retrace.config.yaml:2:10: workers must be an integer ≥ 1 (got 0)',
      'retrace.config.yaml:4:3: timeouts has an unknown key "goalMS" (did you mean "goalMs"?)',
      'retrace.config.yaml:5:18: display.size must be [width, height]: positive integers (got [0, 10])',
      'retrace.config.yaml:6:10: relearn must be true or false (got "yes")',
      'retrace.config.yaml:7:1: the top level has an unknown key "planer" (did you mean "planner"?)',
    ]);
  });

  it('display.fonts names files or folders that exist, relative to the file; each missing one with its line', () => {
    mkdirSync(join(root, 'fonts'));
    write(`display:
  fonts:
    - fonts
    - fonts/Missing.ttf
    - /nowhere/font.ttf
`);
    expect(messages(() => loadConfig(root))).toEqual([
      `retrace.config.yaml:4:7: display.fonts[1]: no font file or folder "fonts/Missing.ttf" (relative to ${root})`,
      `retrace.config.yaml:5:7: display.fonts[2]: no font file or folder "/nowhere/font.ttf" (relative to ${root})`,
    ]);
    write('display:\n  fonts: [fonts]\n');
    expect(loadConfig(root).values).toEqual({ display: { fonts: ['fonts'] } });
    write('display:\n  fonts: []\n');
    expect(messages(() => loadConfig(root))[0]).toMatch(/^retrace\.config\.yaml:2:10: display\.fonts /);
  });

  it('reports YAML errors and a top level that is not a mapping', () => {
    write('learn: [auto\n');
    expect(messages(() => loadConfig(root))[0]).toMatch(/^retrace\.config\.yaml:\d+:\d+: YAML syntax error: /);
    write('- learn\n');
    expect(messages(() => loadConfig(root))).toEqual(['retrace.config.yaml:1:1: the top level must be a mapping (got a list of 1 item)']);
  });

  it('reports an explicitly named file that does not exist', () => {
    mkdirSync(join(root, 'conf'));
    expect(messages(() => loadConfig(root, { file: 'conf/ci.yaml' }))).toEqual(['conf/ci.yaml: cannot be read: no such file']);
  });
});
