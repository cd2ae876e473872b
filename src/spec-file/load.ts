/**
 * Loads a spec file: read → decode → parse → validate against `specShape` → build a `Spec`.
 * Every problem of the file is collected and thrown at once as `InvalidInputErrors`, each
 * message starting with `file:line:column:` (exit code 2 of the CLI contract).
 *
 * Decisions (documented in the reference too):
 * - A goal needs `goal:`, `steps:` or `expect:`. With `steps:`, `goal:` is an optional description;
 *   a goal with only `expect:` gets its path (and its steps) from `retrace record`.
 * - Strings keep their `${env.X}`/`${secret.X}` placeholders; validation only checks they
 *   resolve in `env`. The exception is `app.cwd`: it is a path, resolved at load time against
 *   the spec's directory, so it takes `${env.X}` only (resolved then) and no secrets.
 * - A relative `file` is resolved against `root`.
 * - Loading teaches the process-wide `secretMasker` the value of every `${secret.X}` the spec
 *   uses (opt out with `masker: null`), and no message ever quotes a resolved secret.
 */
import { basename, dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { type Env, placeholders, resolveTemplate } from './interpolate.ts';
import { secretMasker, type SecretMasker } from './secrets.ts';
import { specShape } from './format.ts';
import { toAction, toExpectation, type RawSpec } from './convert.ts';
import type { Spec } from './types.ts';
import { validateYaml } from './validate.ts';
import { outsideWindow } from './window-bounds.ts';
import { decodeText, issuesToError, parseYaml, readYaml, type Issue, type YamlSource } from './yaml-source.ts';

export interface LoadSpecOptions {
  /** Project root: `Spec.id` and error messages name files relative to it. */
  readonly root: string;
  /** Environment that placeholders must resolve in; usually `process.env`. */
  readonly env: Env;
  /**
   * Learns the value of every `${secret.X}` the spec uses as soon as it is loaded, so output
   * is masked even before the secret is first typed (the app may show it earlier).
   * @default the process-wide `secretMasker`; `null` learns nothing.
   */
  readonly masker?: SecretMasker | null;
}

/** Where a file is inside the root, with forward slashes; undefined when it is outside. */
export function relativeToRoot(root: string, file: string): string | undefined {
  const rel = relative(resolve(root), file);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/** `specs/calc.yaml` inside the root; the file name for a spec outside it (PRODUCT.md). */
export const specId = (root: string, file: string): string => relativeToRoot(root, file) ?? basename(file);

/** How messages name a file: relative to the root when inside it, else the absolute path. */
export const displayName = (root: string, file: string): string => relativeToRoot(root, file) ?? file;

/**
 * Loads and validates one spec file.
 * @throws InvalidInputErrors listing every problem, each with file:line:column.
 */
export function loadSpec(file: string, options: LoadSpecOptions): Spec {
  const absolute = resolve(options.root, file);
  return build(absolute, options, readYaml(absolute));
}

/** Like `loadSpec`, for a text or bytes already in memory (as if read from `file`). */
export function parseSpec(source: string | Uint8Array, file: string, options: LoadSpecOptions): Spec {
  const absolute = resolve(options.root, file);
  if (typeof source === 'string') return build(absolute, options, parseYaml(source));
  const decoded = decodeText(source);
  return build(absolute, options, 'issue' in decoded ? { issues: [decoded.issue] } : parseYaml(decoded.text));
}

function build(file: string, options: LoadSpecOptions, parsed: { source: YamlSource } | { issues: readonly Issue[] }): Spec {
  const shown = displayName(options.root, file);
  if ('issues' in parsed) throw issuesToError(shown, parsed.issues);
  const { source } = parsed;
  if (source.doc.contents === null) {
    throw issuesToError(shown, [{ line: 1, column: 1, detail: 'is empty: a spec needs at least app: (launch, window) and goals:' }]);
  }
  const validated = validateYaml({ ...source, env: options.env }, specShape);
  const issues = [...validated.issues];
  if (issues.length) throw issuesToError(shown, issues);

  // Safe: validateYaml checked the value against specShape, which RawSpec mirrors.
  const raw = validated.value as RawSpec;
  const masker = options.masker === undefined ? secretMasker : options.masker;
  if (masker) learnSecrets(raw, options.env, masker);
  const lineOf = (path: string): number => validated.positions.get(path)?.line ?? 1;

  let cwd: string | undefined;
  if (raw.app.cwd !== undefined) {
    const r = resolveTemplate(raw.app.cwd, options.env);
    // Cannot fail: the validator already checked that every placeholder resolves.
    cwd = resolve(dirname(file), r.ok ? r.value : raw.app.cwd);
  }

  const app = {
    launch: raw.app.launch,
    window: raw.app.window,
    restart: raw.app.restart,
    animations: raw.app.animations,
    accessibility: raw.app.accessibility,
    isolate: raw.app.isolate,
    env: raw.app.env,
    ...(raw.app.size && { size: [raw.app.size[0], raw.app.size[1]] as const }),
    ...(cwd !== undefined && { cwd }),
    ...(raw.app.setup !== undefined && { setup: raw.app.setup }),
    ...(raw.app.teardown !== undefined && { teardown: raw.app.teardown }),
    ...(raw.app.windowTimeoutMs !== undefined && { windowTimeoutMs: raw.app.windowTimeoutMs }),
  };

  const goals = raw.goals.map((g, i) => ({
    id: g.id,
    ...(g.goal !== undefined && { goal: g.goal }),
    ...(g.steps !== undefined && { steps: g.steps.map(toAction) }),
    expect: g.expect.map((e, j) => toExpectation(e, lineOf(`goals[${i}].expect[${j}]`))),
    line: lineOf(`goals[${i}]`),
  }));
  if (app.size) {
    const size = { width: app.size[0], height: app.size[1] };
    const outside = goals.flatMap((goal, i) =>
      outsideWindow(goal, size).map((o) => {
        const at = o.step !== undefined ? `goals[${i}].steps[${o.step}]` : `goals[${i}].expect[${o.expect ?? 0}]`;
        return { line: lineOf(at), detail: `${at}: ${o.detail} (app.size)` };
      }),
    );
    if (outside.length) throw issuesToError(shown, outside);
  }

  return {
    file,
    id: specId(options.root, file),
    name: raw.name ?? basename(file, extname(file)),
    app,
    goals,
    options: raw.options ?? {},
  };
}

/** Teaches the masker the value of every secret placeholder in any string of `value`. */
function learnSecrets(value: unknown, env: Env, masker: SecretMasker): void {
  if (typeof value === 'string') {
    for (const p of placeholders(value)) {
      const secret = p.namespace === 'secret' ? env[p.name] : undefined;
      if (secret !== undefined) masker.learn(secret);
    }
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) learnSecrets(v, env, masker);
  }
}
