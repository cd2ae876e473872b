/**
 * The shape language (shape.ts) applied to a plain JSON value instead of a YAML document: for the
 * files retrace writes and reads back (run history, summary.json). The same shapes and the same
 * words (describeShape) as a spec's messages; no positions (a JSON line is its own position) and
 * no placeholders (nothing in these files is interpolated).
 */
import { describeShape, type Shape } from './shape.ts';
import { childPath } from './validate.ts';

/** A short rendering of a bad value for an error message (never the whole blob). */
export const shown = (value: unknown): string => {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const inRange = (v: number, shape: { minimum?: number; maximum?: number }): boolean =>
  (shape.minimum === undefined || v >= shape.minimum) && (shape.maximum === undefined || v <= shape.maximum);

/**
 * The first problem of `value` against `shape`, as "<path> must be …, got …", or undefined. Keys
 * a mapping does not list are allowed only in an `open` one (a newer retrace may add some).
 */
export function valueProblem(value: unknown, shape: Shape, path = ''): string | undefined {
  const mustBe = (): string => `${path || 'the value'} must be ${describeShape(shape)}, got ${shown(value)}`;
  switch (shape.type) {
    case 'string':
      if (typeof value !== 'string') return mustBe();
      if (shape.minLength !== undefined && value.length < shape.minLength) return mustBe();
      return shape.pattern && !new RegExp(shape.pattern.source).test(value) ? mustBe() : undefined;
    case 'integer':
      return Number.isInteger(value) && inRange(value as number, shape) ? undefined : mustBe();
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && inRange(value, shape) ? undefined : mustBe();
    case 'boolean':
      return typeof value === 'boolean' ? undefined : mustBe();
    case 'enum':
      return typeof value === 'string' && shape.values.includes(value) ? undefined : mustBe();
    case 'list': {
      if (!Array.isArray(value) || value.length < (shape.minItems ?? 0)) return mustBe();
      for (const [i, item] of value.entries()) {
        const problem = valueProblem(item, shape.items, `${path}[${i}]`);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    case 'object': {
      if (!isObject(value)) return mustBe();
      for (const [key, field] of Object.entries(shape.fields)) {
        const at = childPath(path, key);
        if (value[key] === undefined) {
          if (field.required) return `${at} must be ${describeShape(field.shape)}, got nothing`;
          continue;
        }
        const problem = valueProblem(value[key], field.shape, at);
        if (problem !== undefined) return problem;
      }
      if (shape.open) return undefined;
      const unknown = Object.keys(value).find((key) => !(key in shape.fields));
      return unknown === undefined ? undefined : `${path || 'the value'} has an unknown key "${unknown}"`;
    }
    case 'record':
    case 'tuple':
    case 'union':
    case 'tagged':
      throw new Error(`valueProblem: a ${shape.type} shape is for YAML specs, not JSON records`);
  }
}
