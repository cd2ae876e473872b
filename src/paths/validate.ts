/**
 * Validation of path files read from disk. A path file is input like a spec: a malformed,
 * truncated, future-version or hostile file is an InvalidInputError naming the file and the line
 * of the offending value, and the file is left untouched. Checked completely, because replay
 * trusts what it reads: every action's kind and fields, image names (plain file names inside the
 * goal's assets folder, never a path that leads elsewhere), and every point and region inside
 * the window the path was recorded in.
 */
import { LineCounter, parseDocument, isNode } from 'yaml';
import type { Path } from '../domain.ts';
import { InvalidInputError } from '../errors.ts';
import { parseKeyCombo } from '../key-combo.ts';
import { isObject } from '../spec-file/check-value.ts';

/**
 * 2: effects say what they mean (`kind`: feedback, text or look; `role` of a text's colours).
 * Version 1 files still load: an effect without a kind is verified as text when it has text, as
 * a look otherwise.
 * 3: element effects may say that an element appeared or went (`change`) and where it was
 * (`box`); a pixel effect on such an element is `element` (evidence, decided by the tree).
 * Version 2 files still load: their element effects are changes, their pixel effects conditions.
 */
export const PATH_FORMAT_VERSION = 3;

const EFFECT_KINDS = new Set(['feedback', 'text', 'look', 'exit', 'element']);
const ELEMENT_CHANGES = new Set(['appeared', 'gone']);
const TEXT_ROLES = new Set(['alert', 'success']);

const isExitStatus = (v: unknown): boolean => {
  if (typeof v !== 'object' || v === null) return false;
  const { code, signal } = v as { code?: unknown; signal?: unknown };
  return (code === null || Number.isInteger(code)) && (signal === null || typeof signal === 'string');
};

/** What an image of a path may be called: a file name in `<goal>.assets/`, nothing more. */
export const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*\.png$/;

/** The largest window X can make, and so the largest coordinate a path may hold. */
const MAX_WINDOW_SIDE = 32_767;
/** A fixed wait or a wait-for longer than an hour is not a recording. */
const MAX_PATH_WAIT_MS = 3_600_000;

const CLICKS = new Set(['click', 'double-click', 'right-click']);
const ACTION_KINDS = [...CLICKS, 'type', 'key', 'scroll', 'drag', 'wait', 'wait-for', 'check', 'select'];
const SCROLL_DIRECTIONS = new Set(['up', 'down', 'left', 'right']);

type Json = Record<string, unknown>;
type Where = readonly (string | number)[];

/** The first problem found: where in the JSON it is, and what is wrong. */
class PathProblem extends Error {
  constructor(
    readonly where: Where,
    readonly detail: string,
  ) {
    super(detail);
  }
}

const isCount = (v: unknown, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
const show = (where: Where): string => where.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${k}` : k), '');

/** The checks of one path file, against the window it was recorded in. */
class Checker {
  constructor(private readonly window: { readonly width: number; readonly height: number }) {}

  fail(where: Where, detail: string): never {
    throw new PathProblem(where, `${show(where)} ${detail}`);
  }

  object(v: unknown, where: Where, what: string): Json {
    if (!isObject(v)) this.fail(where, `must be ${what}`);
    return v;
  }

  string(v: unknown, where: Where): string {
    if (typeof v !== 'string') this.fail(where, 'must be a string');
    return v;
  }

  point(v: unknown, where: Where): void {
    const p = this.object(v, where, 'a point { x, y }');
    const { width, height } = this.window;
    if (!isCount(p.x, width - 1) || !isCount(p.y, height - 1)) {
      this.fail(where, `(${String(p.x)}, ${String(p.y)}) must be a point inside the recorded ${width}×${height} window`);
    }
  }

  /** A region must overlap the window: a region wholly outside it can hold nothing of the app. */
  region(v: unknown, where: Where): void {
    const r = this.object(v, where, 'a region { x, y, width, height }');
    const { width, height } = this.window;
    const ok =
      isCount(r.x, width - 1) && isCount(r.y, height - 1) && isCount(r.width, MAX_WINDOW_SIDE) && isCount(r.height, MAX_WINDOW_SIDE);
    if (!ok) {
      this.fail(
        where,
        `[${[r.x, r.y, r.width, r.height].map(String).join(', ')}] must be a region [x, y, width, height] inside the recorded ${width}×${height} window`,
      );
    }
  }

  target(v: unknown, where: Where): void {
    if (isObject(v) && 'text' in v) this.string(v.text, [...where, 'text']);
    else if (isObject(v) && 'role' in v) {
      this.string(v.role, [...where, 'role']);
      if (v.name !== undefined) this.string(v.name, [...where, 'name']);
      if (v.nth !== undefined && !isCount(v.nth, 10_000)) this.fail([...where, 'nth'], 'must be a whole number from 0');
    } else this.point(v, where);
  }

  /** An element's box may reach past the window (a scrolled list); it only has to be one. */
  box(v: unknown, where: Where): void {
    const r = this.object(v, where, 'a box { x, y, width, height }');
    const ok = [r.x, r.y].every((n) => Number.isInteger(n)) && isCount(r.width, MAX_WINDOW_SIDE) && isCount(r.height, MAX_WINDOW_SIDE);
    if (!ok) this.fail(where, 'must be a box { x, y, width, height } in whole pixels');
  }

  /** Where an element sits: its role and index at each level from its window down. */
  elementPath(v: unknown, where: Where): void {
    if (!Array.isArray(v)) this.fail(where, 'must be a list of { role, index }');
    v.forEach((step: unknown, i: number) => {
      const s = this.object(step, [...where, i], 'a step { role, index }');
      this.string(s.role, [...where, i, 'role']);
      if (!isCount(s.index, 100_000)) this.fail([...where, i, 'index'], 'must be a whole number from 0');
    });
  }

  elementEffect(v: unknown, where: Where): void {
    const e = this.object(v, where, 'an element effect { role, name, path, after }');
    this.string(e.role, [...where, 'role']);
    this.string(e.name, [...where, 'name']);
    this.elementPath(e.path, [...where, 'path']);
    this.object(e.after, [...where, 'after'], 'the properties it changed');
    if (e.change !== undefined && !ELEMENT_CHANGES.has(String(e.change)))
      this.fail([...where, 'change'], `must be one of ${[...ELEMENT_CHANGES].join(', ')}`);
    if (e.box !== undefined) this.box(e.box, [...where, 'box']);
  }

  image(v: unknown, where: Where): string {
    const name = this.string(v, where);
    if (!ASSET_NAME.test(name))
      this.fail(where, `"${name}" must be the file name of a PNG image in the goal's .assets folder, without any folder part`);
    return name;
  }

  action(v: unknown, where: Where): void {
    const a = this.object(v, where, 'an action');
    const kind = a.kind;
    if (typeof kind !== 'string' || !ACTION_KINDS.includes(kind))
      this.fail([...where, 'kind'], `must be one of ${ACTION_KINDS.join(', ')}`);
    const at = (key: string): Where => [...where, key];
    if (CLICKS.has(kind)) this.target(a.target, at('target'));
    else if (kind === 'type') {
      this.string(a.text, at('text'));
      if (a.into !== undefined) this.target(a.into, at('into'));
    } else if (kind === 'key') {
      try {
        parseKeyCombo(this.string(a.combo, at('combo')));
      } catch (error) {
        this.fail(at('combo'), `is not a key combo: ${(error as Error).message}`);
      }
    } else if (kind === 'scroll') {
      if (typeof a.direction !== 'string' || !SCROLL_DIRECTIONS.has(a.direction))
        this.fail(at('direction'), `must be one of ${[...SCROLL_DIRECTIONS].join(', ')}`);
      if (!isCount(a.amount, 1000) || a.amount < 1) this.fail(at('amount'), 'must be a whole number of notches from 1 to 1000');
      if (a.target !== undefined) this.target(a.target, at('target'));
    } else if (kind === 'drag') {
      this.target(a.from, at('from'));
      this.target(a.to, at('to'));
    } else if (kind === 'check') {
      this.target(a.target, at('target'));
      if (typeof a.checked !== 'boolean') this.fail(at('checked'), 'must be true or false');
    } else if (kind === 'select') {
      this.string(a.option, at('option'));
      this.target(a.target, at('target'));
    } else if (kind === 'wait') {
      if (!isCount(a.ms, MAX_PATH_WAIT_MS)) this.fail(at('ms'), `must be milliseconds from 0 to ${MAX_PATH_WAIT_MS}`);
    } else {
      this.string(a.text, at('text'));
      if (a.timeoutMs !== undefined && !isCount(a.timeoutMs, MAX_PATH_WAIT_MS))
        this.fail(at('timeoutMs'), `must be milliseconds from 0 to ${MAX_PATH_WAIT_MS}`);
    }
  }

  recorded(entry: unknown, where: Where): void {
    const e = this.object(entry, where, 'an object');
    this.action(e.action, [...where, 'action']);
    if (typeof e.before !== 'string' || typeof e.after !== 'string') this.fail(where, '.before and .after must be fingerprints (strings)');
    if (!Array.isArray(e.effects)) this.fail([...where, 'effects'], 'must be a list of { region, image }');
    e.effects.forEach((effect: unknown, i: number) => {
      const f = this.object(effect, [...where, 'effects', i], 'an effect { region, image }');
      this.region(f.region, [...where, 'effects', i, 'region']);
      if (f.image !== undefined) this.image(f.image, [...where, 'effects', i, 'image']);
      if (f.kind !== undefined && !EFFECT_KINDS.has(String(f.kind)))
        this.fail([...where, 'effects', i, 'kind'], `must be one of ${[...EFFECT_KINDS].join(', ')}`);
      if (f.role !== undefined && !TEXT_ROLES.has(String(f.role)))
        this.fail([...where, 'effects', i, 'role'], `must be one of ${[...TEXT_ROLES].join(', ')}`);
      if (f.kind === 'exit' && !isExitStatus(f.exit))
        this.fail([...where, 'effects', i, 'exit'], 'must be { code, signal }: an exit code (or null) and a signal name (or null)');
    });
    if (!Array.isArray(e.dynamic)) this.fail([...where, 'dynamic'], 'must be a list of regions');
    e.dynamic.forEach((region: unknown, i: number) => this.region(region, [...where, 'dynamic', i]));
    if (typeof e.settleMs !== 'number') this.fail([...where, 'settleMs'], 'must be a number');
    if (e.anchor !== undefined) {
      const anchor = this.object(e.anchor, [...where, 'anchor'], '{ point, box, image, text? }');
      this.point(anchor.point, [...where, 'anchor', 'point']);
      this.region(anchor.box, [...where, 'anchor', 'box']);
      this.image(anchor.image, [...where, 'anchor', 'image']);
      if (anchor.element !== undefined) {
        const element = this.object(anchor.element, [...where, 'anchor', 'element'], '{ role, name, box, path }');
        this.string(element.role, [...where, 'anchor', 'element', 'role']);
        this.string(element.name, [...where, 'anchor', 'element', 'name']);
        this.box(element.box, [...where, 'anchor', 'element', 'box']);
        this.elementPath(element.path, [...where, 'anchor', 'element', 'path']);
      }
    }
    if (e.beforeLine !== undefined) {
      const line = this.object(e.beforeLine, [...where, 'beforeLine'], '{ region, image }');
      this.region(line.region, [...where, 'beforeLine', 'region']);
      this.image(line.image, [...where, 'beforeLine', 'image']);
    }
    if (e.elements !== undefined) {
      if (!Array.isArray(e.elements)) this.fail([...where, 'elements'], 'must be a list of element effects');
      e.elements.forEach((effect: unknown, i: number) => this.elementEffect(effect, [...where, 'elements', i]));
    }
  }
}

/** Checks everything but the version; throws the first PathProblem. */
function check(data: Json): void {
  for (const key of ['spec', 'goal', 'planner'] as const) {
    if (typeof data[key] !== 'string') throw new PathProblem([key], `${key} must be a string`);
  }
  const source = data.source;
  if (!isObject(source) || typeof source.hash !== 'string' || typeof source.text !== 'string') {
    throw new PathProblem(['source'], 'source must be an object with kind, hash and text');
  }
  const window = data.window;
  if (
    !isObject(window) ||
    !isCount(window.width, MAX_WINDOW_SIDE) ||
    !isCount(window.height, MAX_WINDOW_SIDE) ||
    window.width < 1 ||
    window.height < 1
  ) {
    throw new PathProblem(['window'], `window must be { width, height } in pixels, from 1 to ${MAX_WINDOW_SIDE}`);
  }
  const pointer = data.pointer;
  const coordinate = (v: unknown): boolean => Number.isInteger(v) && Math.abs(v as number) <= MAX_WINDOW_SIDE;
  if (pointer !== undefined && (!isObject(pointer) || !coordinate(pointer.x) || !coordinate(pointer.y))) {
    throw new PathProblem(['pointer'], `pointer must be { x, y } in whole pixels relative to the window, within ±${MAX_WINDOW_SIDE}`);
  }
  if (!Array.isArray(data.actions)) throw new PathProblem(['actions'], 'actions must be an array');
  const checker = new Checker({ width: window.width, height: window.height });
  data.actions.forEach((entry: unknown, i: number) => checker.recorded(entry, ['actions', i]));
}

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
  try {
    check(data);
  } catch (error) {
    if (!(error instanceof PathProblem)) throw error;
    throw new InvalidInputError(
      { file, line: lineOfPathValue(text, error.where) },
      `${error.detail} (delete the file to learn the goal again)`,
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
