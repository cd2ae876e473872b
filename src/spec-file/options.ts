/**
 * Merging run options, once. The precedence, written out in this one place:
 *
 *     CLI flags  >  the spec's `options:`  >  retrace.config.yaml  >  DEFAULT_OPTIONS
 *
 * with three documented details:
 * - `RETRACE_MODEL` in the environment counts as the CLI flag `--model` (it is how a run picks
 *   a model without editing files), so: `--model` > RETRACE_MODEL > spec > config > default;
 * - `CI` set (to anything but "", "0" or "false") makes the *default* of `updateBaselines`
 *   `none` instead of `missing`; an explicit flag or config value still wins;
 * - a spec's `app.windowTimeoutMs` counts as that spec's `options.timeouts.windowMs`.
 * Run-wide keys (`updateBaselines`, `workers`, `paths`, `reports`, `display`) have no spec layer;
 * relative `paths`, `reports` and `display.fonts` resolve against the config file's folder.
 */
import { resolve } from 'node:path';
import { Document } from 'yaml';
import { InvalidInputError, InvalidInputErrors } from '../errors.ts';
import type { ProjectConfig } from './config.ts';
import { DEFAULT_OPTIONS, deepFreeze, type Bounds, type ResolvedOptions, type Timeouts } from './defaults.ts';
import type { Env } from './interpolate.ts';
import { configShape } from './options-format.ts';
import type { ConfigOptions, SpecOptions } from './types.ts';
import { validateYaml } from './validate.ts';
import { modelSwitch } from '../switches.ts';

/** What the command line (or a programmatic caller) sets; relative dirs resolve against `cwd`. */
export type CliOptions = ConfigOptions;

export interface ResolveOptionsInput {
  /** Project root: default `paths`/`reports` are relative to it. */
  readonly root: string;
  readonly cli?: CliOptions;
  /** The spec being run (its `options:` and `app.windowTimeoutMs`); absent for run-wide options. */
  readonly spec?: { readonly options?: SpecOptions; readonly app?: { readonly windowTimeoutMs?: number } };
  readonly config?: ProjectConfig;
  /** Usually `process.env`: read for `CI` and `RETRACE_MODEL`. */
  readonly env?: Env;
  /** Directory relative CLI dirs are resolved against. @default root */
  readonly cwd?: string;
}

/** Whether the environment says this is a CI run. */
export const isCi = (env: Env): boolean => {
  const v = env['CI'];
  return v !== undefined && !['', '0', 'false'].includes(v.trim().toLowerCase());
};

const kebab = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * Checks CLI values with the config file's shapes, so a flag and a config key accept exactly
 * the same values. Messages name the flag: `--workers must be an integer ≥ 1 (got 0)`.
 */
export function checkCliOptions(cli: CliOptions): InvalidInputErrors | undefined {
  // The same validator as for files, run over a document built from the values in memory.
  const { issues } = validateYaml({ doc: new Document(cli), env: {} }, configShape);
  if (!issues.length) return undefined;
  const flag = (detail: string): string => {
    const unknown = /^the top level has an unknown key "([^"]+)"(.*)$/.exec(detail);
    if (unknown) return `unknown option --${kebab(unknown[1] ?? '')}${unknown[2] ?? ''}`;
    return `--${detail.replace(/^[\w.]+/, (path) => path.split('.').map(kebab).join('.'))}`;
  };
  return new InvalidInputErrors(issues.map((i) => new InvalidInputError(undefined, flag(i.detail))));
}

function merge<T extends object>(layers: readonly (Partial<T> | undefined)[], defaults: T): T {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(defaults) as (keyof T & string)[]) {
    out[key] = layers.map((l) => l?.[key]).find((v) => v !== undefined) ?? defaults[key];
  }
  return out as T;
}

/**
 * Every run setting with a value, merged once from the layers (see the top of this file).
 * @throws InvalidInputErrors when a CLI value is out of range (config and spec values were
 * checked when their files were loaded).
 */
export function resolveOptions(input: ResolveOptionsInput): ResolvedOptions {
  const env = input.env ?? {};
  const cli = input.cli ?? {};
  const cliProblems = checkCliOptions(cli);
  if (cliProblems) throw cliProblems;
  const spec = input.spec?.options ?? {};
  const config = input.config?.values ?? {};
  const root = resolve(input.root);
  const model = modelSwitch(env);

  const first = <K extends keyof SpecOptions>(key: K, ...layers: (SpecOptions | undefined)[]): SpecOptions[K] =>
    layers.map((l) => l?.[key]).find((v) => v !== undefined);

  const dir = (key: 'paths' | 'reports'): string => {
    if (cli[key] !== undefined) return resolve(input.cwd ?? root, cli[key]);
    if (config[key] !== undefined) return resolve(input.config?.dir ?? root, config[key]);
    return resolve(root, DEFAULT_OPTIONS[key]);
  };

  const fonts = (): string[] => {
    if (cli.display?.fonts !== undefined) return cli.display.fonts.map((f) => resolve(input.cwd ?? root, f));
    return (config.display?.fonts ?? DEFAULT_OPTIONS.display.fonts).map((f) => resolve(input.config?.dir ?? root, f));
  };

  const specWindowMs = input.spec?.app?.windowTimeoutMs;
  const specTimeouts: Partial<Timeouts> = {
    ...(specWindowMs !== undefined && { windowMs: specWindowMs }),
    ...spec.timeouts,
  };

  const resolved: ResolvedOptions = {
    learn: first('learn', cli, spec, config) ?? DEFAULT_OPTIONS.learn,
    planner: first('planner', cli, spec, config) ?? DEFAULT_OPTIONS.planner,
    relearn: first('relearn', cli, spec, config) ?? DEFAULT_OPTIONS.relearn,
    healWithModel: first('healWithModel', cli, spec, config) ?? DEFAULT_OPTIONS.healWithModel,
    strict: first('strict', cli, spec, config) ?? DEFAULT_OPTIONS.strict,
    unexpectedChanges: first('unexpectedChanges', cli, spec, config) ?? DEFAULT_OPTIONS.unexpectedChanges,
    trace: first('trace', cli, spec, config) ?? DEFAULT_OPTIONS.trace,
    model: cli.model ?? model ?? spec.model ?? config.model ?? DEFAULT_OPTIONS.model,
    updateBaselines: cli.updateBaselines ?? config.updateBaselines ?? (isCi(env) ? 'none' : DEFAULT_OPTIONS.updateBaselines),
    workers: cli.workers ?? config.workers ?? DEFAULT_OPTIONS.workers,
    paths: dir('paths'),
    reports: dir('reports'),
    timeouts: merge<Timeouts>([cli.timeouts, specTimeouts, config.timeouts], DEFAULT_OPTIONS.timeouts),
    bounds: merge<Bounds>([cli.bounds, spec.bounds, config.bounds], DEFAULT_OPTIONS.bounds),
    display: {
      size: [...(cli.display?.size ?? config.display?.size ?? DEFAULT_OPTIONS.display.size)] as [number, number],
      fonts: fonts(),
    },
  };
  return deepFreeze(resolved);
}
