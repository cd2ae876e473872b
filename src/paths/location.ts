/** Where a goal's path, proposal and images live (PRODUCT.md, "Where things live"). */
import { isAbsolute, join, relative } from 'node:path';
import { InvalidInputError } from '../errors.ts';
import { FILE_NAME_PATTERN } from '../spec-file/format.ts';

export interface PathLocation {
  /** `paths/<spec without .yaml>/<goal>.path.json` */
  readonly file: string;
  /** `…/<goal>.proposed.path.json`, a healed path waiting for accept/reject. */
  readonly proposed: string;
  /** `…/<goal>.assets/`, images of both. */
  readonly assets: string;
}

export const specDirName = (specId: string): string => specId.replace(/\.ya?ml$/i, '');

const GOAL_FILE_NAME = new RegExp(FILE_NAME_PATTERN.source);

/** @throws InvalidInputError when spec and goal would name a file outside `pathsDir`. */
export function pathLocation(pathsDir: string, specId: string, goalId: string): PathLocation {
  const dir = join(pathsDir, specDirName(specId));
  const inside = relative(pathsDir, dir);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside) || !GOAL_FILE_NAME.test(goalId)) {
    throw new InvalidInputError(undefined, `"${specId}#${goalId}" does not name a path inside ${pathsDir}`);
  }
  return {
    file: join(dir, `${goalId}.path.json`),
    proposed: join(dir, `${goalId}.proposed.path.json`),
    assets: join(dir, `${goalId}.assets`),
  };
}
