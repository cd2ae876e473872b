/**
 * Validation of path files read from disk. A path file is input like a spec: a malformed,
 * truncated or future-version file is an InvalidInputError naming the file (and line, for
 * syntax errors), and the file is left untouched.
 */
import type { Path } from '../domain.ts';
import { InvalidInputError } from '../errors.ts';

export const PATH_FORMAT_VERSION = 1;

const ACTION_KINDS = new Set([
  'click', 'double-click', 'right-click', 'type', 'key', 'scroll', 'drag', 'wait', 'wait-for', 'check', 'select',
]);

const lineOfOffset = (text: string, offset: number): number =>
  text.slice(0, offset).split('\n').length;

function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const line = position ? lineOfOffset(text, Number(position[1])) : text.split('\n').length;
    throw new InvalidInputError(
      { file, line },
      `not a valid path file: ${message.replace(/^.*?JSON[^:]*:\s*/, '')} (the file may be truncated; delete it to learn the goal again)`,
    );
  }
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isRegion = (v: unknown): boolean =>
  isObject(v) && ['x', 'y', 'width', 'height'].every((k) => typeof v[k] === 'number');

/** Returns the first structural problem, as "<json path> must be …". */
function problem(data: Json): string | undefined {
  for (const key of ['spec', 'goal', 'planner'] as const) {
    if (typeof data[key] !== 'string') return `${key} must be a string`;
  }
  const source = data.source;
  if (!isObject(source) || typeof source.hash !== 'string' || typeof source.text !== 'string')
    return 'source must be an object with kind, hash and text';
  const window = data.window;
  if (!isObject(window) || typeof window.width !== 'number' || typeof window.height !== 'number')
    return 'window must be { width, height }';
  if (!Array.isArray(data.actions)) return 'actions must be an array';
  for (const [i, entry] of data.actions.entries()) {
    const at = `actions[${i}]`;
    if (!isObject(entry)) return `${at} must be an object`;
    const action = entry.action;
    if (!isObject(action) || typeof action.kind !== 'string' || !ACTION_KINDS.has(action.kind))
      return `${at}.action.kind must be one of ${[...ACTION_KINDS].join(', ')}`;
    if (typeof entry.before !== 'string' || typeof entry.after !== 'string')
      return `${at}.before and .after must be fingerprints (strings)`;
    if (!Array.isArray(entry.effects) || !entry.effects.every((e) => isObject(e) && isRegion(e.region)))
      return `${at}.effects must be a list of { region, image }`;
    if (!Array.isArray(entry.dynamic) || !entry.dynamic.every(isRegion))
      return `${at}.dynamic must be a list of regions`;
    if (typeof entry.settleMs !== 'number') return `${at}.settleMs must be a number`;
    if (entry.anchor !== undefined) {
      const a = entry.anchor;
      if (!isObject(a) || !isRegion(a.box) || typeof a.image !== 'string' || !isObject(a.point))
        return `${at}.anchor must be { point, box, image, text? }`;
    }
  }
  return undefined;
}

export function parsePathFile(file: string, text: string): Path {
  const data = parseJson(file, text);
  if (!isObject(data)) throw new InvalidInputError({ file, line: 1 }, 'a path file must hold a JSON object');
  const version = data.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new InvalidInputError({ file }, 'version must be a positive integer');
  }
  if (version > PATH_FORMAT_VERSION) {
    throw new InvalidInputError(
      { file },
      `path format version ${version} is newer than this retrace reads (up to ${PATH_FORMAT_VERSION}); upgrade retrace`,
    );
  }
  const issue = problem(data);
  if (issue) throw new InvalidInputError({ file }, `${issue} (delete the file to learn the goal again)`);
  return data as unknown as Path;
}
