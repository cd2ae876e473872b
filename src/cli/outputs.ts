/**
 * The places a command writes to (`--reports`, `--paths`, `--junit`, the baselines), checked
 * before anything runs or is deleted: a location that cannot be written fails at once with a
 * message that names it, instead of a run that hangs or dies half-way.
 */
import { mkdtempSync, rmdirSync, statSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { InfrastructureError, InvalidInputError, ioCause } from '../errors.ts';

export interface OutputLocation {
  /** How the user names it: "--reports", "--junit", "the baselines folder". */
  readonly what: string;
  readonly path: string;
  /** A folder the command fills, or one file it writes. */
  readonly kind: 'folder' | 'file';
}

const checked: OutputLocation[] = [];

/** "--reports /x/reports, --paths /x/paths": where the running command writes, for fault messages. */
export const outputsInUse = (): string => checked.map((o) => `${o.what} ${o.path}`).join(', ');

const statOrUndefined = (path: string): Stats | undefined => {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
};

/** The deepest part of `path` that exists, with its stat. */
function nearestExisting(path: string): { readonly at: string; readonly stat: Stats } {
  for (let at = path; ; at = dirname(at)) {
    const stat = statOrUndefined(at);
    if (stat) return { at, stat };
    if (dirname(at) === at) throw new InfrastructureError('IO', `no part of ${path} exists`);
  }
}

function check(location: OutputLocation): void {
  const { what, path, kind } = location;
  const usage = (detail: string): InvalidInputError => new InvalidInputError({ file: 'command line' }, `${what} ${path}: ${detail}`);
  const own = statOrUndefined(path);
  if (own && kind === 'file' && own.isDirectory()) throw usage('is a folder; give a file name');
  const { at, stat } = nearestExisting(kind === 'folder' ? path : dirname(path));
  if (!stat.isDirectory()) throw usage(at === path ? 'is a file, not a folder' : `${at} is a file, not a folder`);
  // Permissions alone do not tell (root, read-only mounts, /proc): make and remove an entry.
  try {
    rmdirSync(mkdtempSync(join(at, '.retrace-probe-')));
  } catch (error) {
    throw new InfrastructureError(
      'IO',
      `cannot write ${what} ${path}: creating a file in ${at} fails: ${ioCause(error) ?? (error as Error).message}`,
    );
  }
}

/**
 * Checks that every location can be written, and remembers them for fault messages.
 * @throws InvalidInputError when a location names a file where a folder is needed (or the
 *   reverse); InfrastructureError('IO') when the file system refuses to write there.
 */
export function checkOutputs(locations: readonly OutputLocation[]): void {
  for (const location of locations) check(location);
  checked.push(...locations);
}
