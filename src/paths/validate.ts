/**
 * Reading a path file from disk. A path file is input like a spec: a malformed, truncated,
 * future-version or hostile file is an InvalidInputError naming the file and the line of the
 * offending value, and the file is left untouched. What a valid one holds is its shape
 * (path-shape.ts), checked completely, because replay trusts what it reads.
 */
import { LineCounter, parseDocument, isNode } from 'yaml';
import type { Path } from '../domain.ts';
import { InvalidInputError } from '../errors.ts';
import { isObject, valueIssue, type Where } from '../spec-file/check-value.ts';
import { PATH_FORMAT_VERSION, pathShape, WINDOW_SHAPE, type RecordedWindow } from './path-shape.ts';

const lineOfOffset = (text: string, offset: number): number => text.slice(0, offset).split('\n').length;

/** The line of the value at `where` (JSON is YAML, whose parser keeps positions); the first line when it is absent. */
export function lineOfPathValue(text: string, where: Where): number {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  for (let depth = where.length; depth > 0; depth--) {
    const node: unknown = doc.getIn(where.slice(0, depth), true);
    if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]).line;
  }
  return 1;
}

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

export function parsePathFile(file: string, text: string): Path {
  const data = parseJson(file, text);
  if (!isObject(data)) throw new InvalidInputError({ file, line: 1 }, 'a path file must hold a JSON object');
  const version = data.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new InvalidInputError({ file, line: lineOfPathValue(text, ['version']) }, 'version must be a positive integer');
  }
  if (version > PATH_FORMAT_VERSION) {
    throw new InvalidInputError(
      { file, line: lineOfPathValue(text, ['version']) },
      `path format version ${version} is newer than this retrace reads (up to ${PATH_FORMAT_VERSION}); upgrade retrace`,
    );
  }
  // The window first: the actions' shape is made for it.
  const issue = valueIssue(data.window, WINDOW_SHAPE, ['window']) ?? valueIssue(data, pathShape(data.window as RecordedWindow));
  if (issue !== undefined) {
    throw new InvalidInputError(
      { file, line: lineOfPathValue(text, issue.where) },
      `${issue.message} (delete the file to learn the goal again)`,
    );
  }
  return data as unknown as Path;
}

/** Every image name a path refers to, each with where it is referred to. */
export function pathImages(path: Path): { readonly name: string; readonly where: Where }[] {
  return path.actions.flatMap((recorded, i) => [
    ...(recorded.anchor ? [{ name: recorded.anchor.image, where: ['actions', i, 'anchor', 'image'] }] : []),
    ...recorded.effects.flatMap((effect, j) =>
      effect.image ? [{ name: effect.image, where: ['actions', i, 'effects', j, 'image'] }] : [],
    ),
    ...(recorded.beforeLine ? [{ name: recorded.beforeLine.image, where: ['actions', i, 'beforeLine', 'image'] }] : []),
  ]);
}
