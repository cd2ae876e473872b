/** Helpers of the spec tests: load from text and collect the messages of the thrown errors. */
import { InvalidInputErrors } from '../../src/errors.ts';
import type { Env } from '../../src/spec-file/interpolate.ts';
import { parseSpec } from '../../src/spec-file/load.ts';
import type { Spec } from '../../src/spec-file/types.ts';

export const ROOT = '/project';
export const FILE = 'specs/calc.yaml';

/** A valid app block, so a test only writes what it is about. */
export const APP = 'app:\n  launch: galculator\n  window: galculator\n';

export function load(text: string | Uint8Array, env: Env = {}): Spec {
  return parseSpec(text, FILE, { root: ROOT, env });
}

/** Every message of the InvalidInputErrors thrown by loading `text`; fails when nothing is thrown. */
export function problems(text: string | Uint8Array, env: Env = {}): string[] {
  try {
    load(text, env);
  } catch (e) {
    if (e instanceof InvalidInputErrors) return e.errors.map((x) => x.message);
    throw e;
  }
  throw new Error('expected the spec to be invalid, but it loaded');
}
