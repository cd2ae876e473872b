/**
 * The shape language (shape.ts) applied to a plain JSON value instead of a YAML document: for the
 * files retrace writes and reads back (run history, summary.json, path files). The same shapes and
 * the same words (describeShape) as a spec's messages; no placeholders (nothing in these files is
 * interpolated). A problem names its place as a key path, and as the keys that lead to it, from
 * which a caller that has the text finds its line (paths/validate.ts).
 */
import { describeShape, type ObjectShape, type Shape } from './shape.ts';
import { keyComboProblem } from './string-problems.ts';
import { childPath } from './validate.ts';

/** A short rendering of a bad value for an error message (never the whole blob). */
export const shown = (value: unknown): string => {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The keys and indexes from the top of a value down to one place in it. */
export type Where = readonly (string | number)[];

/** The first problem of a value: where it is, and the message that names it. */
export interface ValueIssue {
  readonly where: Where;
  /** "<key path> must be …, got …". */
  readonly message: string;
}

/** `actions[0].effects[1].kind`: the key path of `where`, as spec messages write it. */
export const keyPath = (where: Where): string =>
  where.reduce<string>((path, k) => (typeof k === 'number' ? `${path}[${k}]` : childPath(path, k)), '');

const inRange = (v: number, shape: { minimum?: number; maximum?: number }): boolean =>
  (shape.minimum === undefined || v >= shape.minimum) && (shape.maximum === undefined || v <= shape.maximum);

type ObjectVariant = Shape & ObjectShape;

/**
 * The variant of a union that judges `value`, as the YAML validator picks it: by the value's type,
 * a mapping by the value under the union's `key`, or else by a required key of a variant it has.
 * `undefined`: none fits (a `key` value no variant takes is the caller's to report).
 */
function variantOf(value: unknown, variants: readonly Shape[], key: string | undefined): Shape | undefined {
  if (typeof value === 'string') return variants.find((v) => v.type === 'string' || v.type === 'enum');
  if (typeof value === 'number') return variants.find((v) => v.type === 'integer' || v.type === 'number');
  if (typeof value === 'boolean') return variants.find((v) => v.type === 'boolean');
  if (Array.isArray(value)) return variants.find((v) => v.type === 'list');
  if (!isObject(value)) return undefined;
  const objects = variants.filter((v): v is ObjectVariant => v.type === 'object');
  if (key !== undefined) {
    return objects.find((o) => {
      const field = o.fields[key];
      if (value[key] === undefined) return field !== undefined && !field.required;
      return field?.shape.type === 'enum' && field.shape.values.includes(value[key] as string);
    });
  }
  return (
    objects.find((o) => Object.entries(o.fields).some(([k, f]) => f.required && value[k] !== undefined)) ??
    (objects.length === 1 ? objects[0] : undefined)
  );
}

/** Every value the variants of a keyed union take under its key. */
const keyValues = (variants: readonly Shape[], key: string): string[] =>
  variants.flatMap((v) => {
    const shape = v.type === 'object' ? v.fields[key]?.shape : undefined;
    return shape?.type === 'enum' ? shape.values : [];
  });

/**
 * The first problem of `value` against `shape`, or undefined. Keys a mapping does not list are
 * allowed only in an `open` one (a newer retrace may add some). `where` is the place of `value`
 * itself, when it is part of a larger one.
 */
export function valueIssue(value: unknown, shape: Shape, where: Where = []): ValueIssue | undefined {
  const at = (w: Where, message: string): ValueIssue => ({ where: w, message });
  const mustBe = (): ValueIssue => at(where, `${keyPath(where) || 'the value'} must be ${describeShape(shape)}, got ${shown(value)}`);
  switch (shape.type) {
    case 'string': {
      if (typeof value !== 'string') return mustBe();
      if (shape.minLength !== undefined && value.length < shape.minLength) return mustBe();
      if (shape.pattern && !new RegExp(shape.pattern.source).test(value)) return mustBe();
      const combo = shape.format === 'key-combo' ? keyComboProblem(value) : undefined;
      return combo === undefined ? undefined : at(where, `${keyPath(where)} ${shown(value)} ${combo}`);
    }
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
        const issue = valueIssue(item, shape.items, [...where, i]);
        if (issue !== undefined) return issue;
      }
      return undefined;
    }
    case 'object': {
      if (!isObject(value)) return mustBe();
      for (const [key, field] of Object.entries(shape.fields)) {
        const child = [...where, key];
        const v = value[key];
        if (v === undefined) {
          if (!field.required) continue;
          if (shape.whole) return mustBe();
          return at(child, `${keyPath(child)} must be ${describeShape(field.shape)}, got nothing`);
        }
        if (v === null && field.nullable) continue;
        const issue = valueIssue(v, field.shape, child);
        if (issue !== undefined) return shape.whole ? mustBe() : issue;
      }
      if (shape.open) return undefined;
      const unknown = Object.keys(value).find((key) => !(key in shape.fields));
      return unknown === undefined ? undefined : at(where, `${keyPath(where) || 'the value'} has an unknown key "${unknown}"`);
    }
    case 'union': {
      const variant = variantOf(value, shape.variants, shape.key);
      if (variant !== undefined) return valueIssue(value, variant, where);
      if (shape.key === undefined || !isObject(value)) return mustBe();
      const child = [...where, shape.key];
      return at(
        child,
        `${keyPath(child)} must be one of ${keyValues(shape.variants, shape.key).join(', ')}, got ${shown(value[shape.key])}`,
      );
    }
    case 'record':
    case 'tuple':
    case 'tagged':
      throw new Error(`valueIssue: a ${shape.type} shape is for YAML specs, not JSON records`);
  }
}

/** The first problem of `value` against `shape`, as "<path> must be …, got …", or undefined. */
export const valueProblem = (value: unknown, shape: Shape): string | undefined => valueIssue(value, shape)?.message;
