/** Where a goal's path, proposal and images live (PRODUCT.md, "Where things live"). */
import { join } from 'node:path';

export interface PathLocation {
  /** `paths/<spec without .yaml>/<goal>.path.json` */
  readonly file: string;
  /** `…/<goal>.proposed.path.json`, a healed path waiting for accept/reject. */
  readonly proposed: string;
  /** `…/<goal>.assets/`, images of both. */
  readonly assets: string;
}

export const specDirName = (specId: string): string => specId.replace(/\.ya?ml$/i, '');

export function pathLocation(pathsDir: string, specId: string, goalId: string): PathLocation {
  const dir = join(pathsDir, specDirName(specId));
  return {
    file: join(dir, `${goalId}.path.json`),
    proposed: join(dir, `${goalId}.proposed.path.json`),
    assets: join(dir, `${goalId}.assets`),
  };
}
