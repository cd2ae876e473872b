/** `--paths` and `--reports` of any command, resolved like `run` resolves them (CLI > config > default). */
import type { ParsedArgs } from './flags.ts';
import { loadConfig } from '../spec-file/config.ts';
import { resolveOptions } from '../spec-file/options.ts';

export function resolveDirs(args: ParsedArgs): { readonly root: string; readonly paths: string; readonly reports: string } {
  const root = process.cwd();
  const cli = {
    ...(typeof args.flags.paths === 'string' ? { paths: args.flags.paths } : {}),
    ...(typeof args.flags.reports === 'string' ? { reports: args.flags.reports } : {}),
  };
  const options = resolveOptions({ root, cli, config: loadConfig(root, { env: process.env }), env: process.env });
  return { root, paths: options.paths, reports: options.reports };
}
