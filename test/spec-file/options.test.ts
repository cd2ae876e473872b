import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidInputErrors } from '../../src/errors.ts';
import type { ProjectConfig } from '../../src/spec-file/config.ts';
import { DEFAULT_OPTIONS } from '../../src/spec-file/defaults.ts';
import { checkCliOptions, isCi, resolveOptions } from '../../src/spec-file/options.ts';

const root = resolve('/project');
const config = (values: ProjectConfig['values']): ProjectConfig => ({ dir: root, file: join(root, 'retrace.config.yaml'), values });

describe('resolveOptions', () => {
  it('gives the built-in defaults, with dirs under the root, deeply frozen', () => {
    const o = resolveOptions({ root });
    expect(o).toEqual({ ...DEFAULT_OPTIONS, paths: join(root, 'paths'), reports: join(root, 'reports') });
    expect(Object.isFrozen(o)).toBe(true);
    expect(Object.isFrozen(o.timeouts)).toBe(true);
    expect(Object.isFrozen(o.display.size)).toBe(true);
    expect(Object.isFrozen(DEFAULT_OPTIONS.bounds)).toBe(true);
  });

  it('merges CLI > spec > config > defaults, key by key', () => {
    const o = resolveOptions({
      root,
      cli: { learn: 'force', timeouts: { goalMs: 1 } },
      spec: { options: { learn: 'off', planner: 'rules', timeouts: { goalMs: 2, actionMs: 20 }, bounds: { maxSteps: 5 } } },
      config: config({
        learn: 'auto',
        planner: 'claude',
        relearn: true,
        timeouts: { goalMs: 3, actionMs: 30, settleMs: 300 },
        bounds: { maxSteps: 9, maxTokens: 1000 },
      }),
    });
    expect(o.learn).toBe('force');
    expect(o.planner).toBe('rules');
    expect(o.relearn).toBe(true);
    expect(o.healWithModel).toBe(false);
    expect(o.timeouts).toEqual({ ...DEFAULT_OPTIONS.timeouts, goalMs: 1, actionMs: 20, settleMs: 300 });
    expect(o.bounds).toEqual({ ...DEFAULT_OPTIONS.bounds, maxSteps: 5, maxTokens: 1000 });
  });

  it('takes trace from the CLI, then the spec, then the config, else retain-on-failure', () => {
    expect(resolveOptions({ root }).trace).toBe('retain-on-failure');
    expect(resolveOptions({ root, config: config({ trace: 'off' }) }).trace).toBe('off');
    expect(resolveOptions({ root, spec: { options: { trace: 'on' } }, config: config({ trace: 'off' }) }).trace).toBe('on');
    expect(resolveOptions({ root, cli: { trace: 'off' }, spec: { options: { trace: 'on' } } }).trace).toBe('off');
    expect(checkCliOptions({ trace: 'always' } as never)?.message).toMatch(/trace/);
  });

  it('lets an explicit false in a higher layer win over true below', () => {
    const o = resolveOptions({ root, cli: { relearn: false }, config: config({ relearn: true }) });
    expect(o.relearn).toBe(false);
  });

  it('uses app.windowTimeoutMs as the spec layer of timeouts.windowMs', () => {
    const spec = { app: { windowTimeoutMs: 7000 }, options: {} };
    expect(resolveOptions({ root, spec, config: config({ timeouts: { windowMs: 9000 } }) }).timeouts.windowMs).toBe(7000);
    const both = { app: { windowTimeoutMs: 7000 }, options: { timeouts: { windowMs: 8000 } } };
    expect(resolveOptions({ root, spec: both }).timeouts.windowMs).toBe(8000);
    expect(resolveOptions({ root, spec, cli: { timeouts: { windowMs: 1 } } }).timeouts.windowMs).toBe(1);
  });

  it('defaults updateBaselines to none when CI is set, unless a flag or the config says otherwise', () => {
    expect(resolveOptions({ root, env: {} }).updateBaselines).toBe('missing');
    expect(resolveOptions({ root, env: { CI: 'true' } }).updateBaselines).toBe('none');
    expect(resolveOptions({ root, env: { CI: 'false' } }).updateBaselines).toBe('missing');
    expect(resolveOptions({ root, env: { CI: '1' }, config: config({ updateBaselines: 'changed' }) }).updateBaselines).toBe('changed');
    expect(resolveOptions({ root, env: { CI: '1' }, cli: { updateBaselines: 'all' } }).updateBaselines).toBe('all');
  });

  it('treats RETRACE_MODEL like the --model flag', () => {
    const cfg = config({ model: 'from-config' });
    const spec = { options: { model: 'from-spec' } };
    expect(resolveOptions({ root, config: cfg, spec }).model).toBe('from-spec');
    expect(resolveOptions({ root, config: cfg, spec, env: { RETRACE_MODEL: 'from-env' } }).model).toBe('from-env');
    expect(resolveOptions({ root, spec, env: { RETRACE_MODEL: 'from-env' }, cli: { model: 'from-cli' } }).model).toBe('from-cli');
  });

  it('resolves config dirs against the config file, CLI dirs against cwd', () => {
    const cfg: ProjectConfig = { dir: '/elsewhere', values: { paths: 'p', reports: '/abs/reports' } };
    expect(resolveOptions({ root, config: cfg })).toMatchObject({ paths: resolve('/elsewhere/p'), reports: resolve('/abs/reports') });
    const o = resolveOptions({ root, config: cfg, cli: { paths: 'mine' }, cwd: '/tmp/work' });
    expect(o.paths).toBe(resolve('/tmp/work/mine'));
  });

  it('takes workers and display from CLI or config only', () => {
    const o = resolveOptions({ root, cli: { workers: 3 }, config: config({ workers: 2, display: { size: [800, 600] } }) });
    expect(o.workers).toBe(3);
    expect(o.display.size).toEqual([800, 600]);
  });

  it('resolves display.fonts against the config file, or the CLI cwd; none by default (DejaVu)', () => {
    expect(resolveOptions({ root }).display.fonts).toEqual([]);
    const cfg: ProjectConfig = { dir: '/elsewhere', values: { display: { fonts: ['fonts', '/abs/a.ttf'] } } };
    expect(resolveOptions({ root, config: cfg }).display.fonts).toEqual([resolve('/elsewhere/fonts'), resolve('/abs/a.ttf')]);
    const o = resolveOptions({ root, config: cfg, cli: { display: { fonts: ['mine.otf'] } }, cwd: '/tmp/work' });
    expect(o.display).toEqual({ size: DEFAULT_OPTIONS.display.size, fonts: [resolve('/tmp/work/mine.otf')] });
  });

  it('rejects out-of-range CLI values, naming the flag', () => {
    expect(() => resolveOptions({ root, cli: { workers: 0 } })).toThrow(InvalidInputErrors);
    const problems = checkCliOptions({ workers: 0, learn: 'never' as 'off', healWithModel: 'yes' as unknown as boolean });
    expect(problems?.errors.map((e) => e.message)).toEqual([
      '--workers must be an integer ≥ 1 (got 0)',
      '--learn must be one of auto, off, force (got "never")',
      '--heal-with-model must be true or false (got "yes")',
    ]);
    expect(checkCliOptions({ paths: 'x', workers: 2 })).toBeUndefined();
  });
});

describe('isCi', () => {
  it('reads CI as a flag', () => {
    expect(isCi({})).toBe(false);
    expect(isCi({ CI: '' })).toBe(false);
    expect(isCi({ CI: '0' })).toBe(false);
    expect(isCi({ CI: 'FALSE' })).toBe(false);
    expect(isCi({ CI: 'true' })).toBe(true);
    expect(isCi({ CI: 'github' })).toBe(true);
  });
});
