/**
 * `retrace.config.yaml`: optional project-wide defaults at the project root, validated like a
 * spec (every problem, with file:line:column). Its keys and their defaults are declared in
 * `options-format.ts`; merging with the CLI and the spec happens once, in `resolveOptions`.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Env } from './interpolate.ts';
import { displayName } from './load.ts';
import { configShape } from './options-format.ts';
import type { ConfigOptions } from './types.ts';
import { validateYaml } from './validate.ts';
import { issuesToError, readYaml } from './yaml-source.ts';

export const CONFIG_FILE_NAME = 'retrace.config.yaml';

export interface ProjectConfig {
  /** Absolute path of the file read; absent when the project has none. */
  readonly file?: string;
  /** Directory that relative `paths`/`reports` in the file are resolved against. */
  readonly dir: string;
  /** The keys the file sets, as written; absent keys fall through to the defaults. */
  readonly values: ConfigOptions;
}

export interface LoadConfigOptions {
  /** Environment for placeholders; the config takes none today, kept for symmetry with specs. */
  readonly env?: Env;
  /** Another file than `<root>/retrace.config.yaml` (e.g. a `--config` flag), relative to root. */
  readonly file?: string;
}

/**
 * Reads the project's config file. A missing default file is no error (an empty config);
 * a missing file named explicitly is. An empty file is an empty config.
 * @throws InvalidInputErrors listing every problem, each with file:line:column.
 */
export function loadConfig(root: string, options: LoadConfigOptions = {}): ProjectConfig {
  const dir = resolve(root);
  const file = resolve(dir, options.file ?? CONFIG_FILE_NAME);
  if (options.file === undefined && !existsSync(file)) return { dir, values: {} };
  const shown = displayName(dir, file);
  const parsed = readYaml(file);
  if ('issues' in parsed) throw issuesToError(shown, parsed.issues);
  if (parsed.source.doc.contents === null) return { file, dir, values: {} };
  const validated = validateYaml({ ...parsed.source, env: options.env ?? {} }, configShape);
  if (validated.issues.length) throw issuesToError(shown, validated.issues);
  // Safe: validated against configShape, which ConfigOptions mirrors.
  const values = validated.value as ConfigOptions;
  const missingFonts = (values.display?.fonts ?? []).flatMap((font, i) => {
    if (existsSync(resolve(dir, font))) return [];
    const at = validated.positions.get(`display.fonts[${i}]`);
    return [{ ...at, detail: `display.fonts[${i}]: no font file or folder "${font}" (relative to ${dir})` }];
  });
  if (missingFonts.length) throw issuesToError(shown, missingFonts);
  return { file, dir, values };
}
