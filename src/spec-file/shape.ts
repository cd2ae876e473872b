/**
 * A tiny declarative language for the shapes of retrace's files: the YAML it is given (spec and
 * config) and the JSON it writes and reads back (run history, summary.json, path files:
 * check-value.ts, which alone reads the members marked for JSON records).
 *
 * Why our own instead of a schema library: one description must yield three things that no
 * single library gives together — a validator that reports *every* problem with the YAML
 * line and column and a "did you mean", a JSON Schema for editors, and a markdown reference.
 * Each of the three walks these plain objects (`validate.ts`, `json-schema.ts`,
 * `reference.ts`), so they cannot disagree.
 */

/** A regular expression a string must match, with the words a message uses to explain it. */
export interface Pattern {
  /** ECMAScript source, anchored; also emitted as JSON Schema `pattern`. */
  readonly source: string;
  /** Plain-language rule, e.g. "letters, digits, _ . - (it names a file)". */
  readonly explain: string;
}

/**
 * Which `${namespace.NAME}` placeholders a string may hold.
 * - `none`: placeholders are an error (the field is never interpolated, so one would stay literal).
 * - `env`: `${env.NAME}` only, e.g. a path that is resolved at load time.
 * - `all`: `${env.NAME}` and `${secret.NAME}`; interpolated when the value is used.
 */
export type PlaceholderPolicy = 'none' | 'env' | 'all';

export interface StringShape {
  readonly type: 'string';
  readonly minLength?: number;
  readonly pattern?: Pattern;
  /** @default 'none' */
  readonly placeholders?: PlaceholderPolicy;
  /** `title`: a substring, or `/regex/flags` that must compile. `key-combo`: a combo the keyboard can press. */
  readonly format?: 'title' | 'key-combo';
}

export interface IntegerShape {
  readonly type: 'integer';
  readonly minimum?: number;
  readonly maximum?: number;
}

export interface NumberShape {
  readonly type: 'number';
  readonly minimum?: number;
  readonly maximum?: number;
}

export interface BooleanShape {
  readonly type: 'boolean';
}

export interface EnumShape {
  readonly type: 'enum';
  readonly values: readonly string[];
}

/** A fixed-length list of named integers, such as a region `[x, y, width, height]`. */
export interface TupleShape {
  readonly type: 'tuple';
  readonly items: readonly { readonly name: string; readonly shape: IntegerShape }[];
}

export interface ListShape {
  readonly type: 'list';
  readonly items: Shape;
  readonly minItems?: number;
  /** Items are mappings whose value under this key must be unique in the list (goal ids). */
  readonly uniqueKey?: string;
}

/** One key of a mapping. */
export interface Field {
  readonly doc: string;
  readonly shape: Shape;
  readonly required?: boolean;
  /** Filled in by the validator when the key is absent, and documented. */
  readonly default?: unknown;
  /** Documentation for a default that depends on context (e.g. on `CI`); not filled in. */
  readonly defaultText?: string;
  /** `null` is accepted too (check-value.ts, a record retrace wrote: "no path", "no exit code"). */
  readonly nullable?: boolean;
}

export interface ObjectShape {
  readonly type: 'object';
  readonly fields: Readonly<Record<string, Field>>;
  /** At least one of these keys must be present (e.g. `goal:` or `steps:`). */
  readonly anyOf?: readonly string[];
  /**
   * A layer of overrides (config file, a spec's `options:`): defaults are documented but not
   * filled in, so that an absent key lets a lower layer show through in `resolveOptions`.
   */
  readonly partial?: boolean;
  /**
   * Keys not listed are allowed: a record retrace wrote and reads back (check-value.ts), which a
   * newer version may have written with more keys.
   */
  readonly open?: boolean;
  /**
   * Its keys mean something only together (a point, a region): a problem inside it is reported
   * as the whole value's, in the words of its `label` (check-value.ts).
   */
  readonly whole?: boolean;
}

/** A mapping with free keys and values of one shape, such as `app.env`. */
export interface RecordShape {
  readonly type: 'record';
  readonly keyPattern: Pattern;
  readonly values: Shape;
}

/**
 * Several accepted forms of one value, e.g. a target `"New"`, `{ text: New }` or `{ x, y }`.
 * The validator picks the variant from the YAML node: a scalar picks the variant of its type,
 * a mapping picks the object variant one of whose required keys it has.
 */
export interface UnionShape {
  readonly type: 'union';
  readonly variants: readonly Shape[];
  /**
   * The variants are mappings told apart by their value under this key, an enum field of each
   * (a path's action by its `kind`); a variant whose field is not required takes a mapping
   * without the key (check-value.ts, a record retrace wrote).
   */
  readonly key?: string;
}

/** One form of a tagged mapping: its value under the tag key, and the keys allowed beside it. */
export interface TaggedVariant {
  readonly doc: string;
  readonly value: Shape;
  readonly fields: Readonly<Record<string, Field>>;
  /**
   * A check across keys that a schema cannot state (a `match: regex` text must compile).
   * Runs on the valid item, with its environment-resolved strings; returns problems by key.
   */
  readonly refine?: (
    item: Readonly<Record<string, unknown>>,
    resolve: (s: string) => string,
  ) => readonly {
    readonly key: string;
    readonly detail: string;
  }[];
}

/**
 * A mapping that holds exactly one *tag* key naming its kind, e.g. a step `{ click: … }` or an
 * expectation `{ text: "84", match: exact }`; the tag decides which other keys may follow.
 */
export interface TaggedShape {
  readonly type: 'tagged';
  /** What one item is called in messages: "step", "expectation". */
  readonly noun: string;
  readonly variants: Readonly<Record<string, TaggedVariant>>;
}

type Node =
  | StringShape
  | IntegerShape
  | NumberShape
  | BooleanShape
  | EnumShape
  | TupleShape
  | ListShape
  | ObjectShape
  | RecordShape
  | UnionShape
  | TaggedShape;

/**
 * Every shape may carry a `doc`; a shape with a `ref` is a named definition: JSON Schema emits
 * it once under `definitions`, messages and the reference call it by name.
 */
export type Shape = Node & { readonly doc?: string; readonly ref?: string; readonly label?: string };

/** "a" or "an", for messages that read as English. */
const article = (word: string): string => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);

const range = (min: number | undefined, max: number | undefined): string => {
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` ≥ ${min}`;
  if (max !== undefined) return ` ≤ ${max}`;
  return '';
};

/**
 * What a value of this shape is, as the end of "… must be ___". Used by messages and the
 * reference, so both say the same thing.
 */
export function describeShape(shape: Shape): string {
  if (shape.label) return shape.label;
  switch (shape.type) {
    case 'string':
      if (shape.pattern) return `a string of ${shape.pattern.explain}`;
      return shape.minLength ? 'a non-empty string' : 'a string';
    case 'integer':
      return `an integer${range(shape.minimum, shape.maximum)}`;
    case 'number':
      return `a number${range(shape.minimum, shape.maximum)}`;
    case 'boolean':
      return 'true or false';
    case 'enum':
      return `one of ${shape.values.join(', ')}`;
    case 'tuple':
      return `[${shape.items.map((i) => i.name).join(', ')}]`;
    case 'list':
      return `a list of ${plural(shape.items)}`;
    case 'object':
      return 'a mapping';
    case 'record':
      return 'a mapping';
    case 'union':
      return shape.variants.map(describeShape).join(' or ');
    case 'tagged':
      return article(shape.noun);
  }
}

const plural = (shape: Shape): string => {
  if (shape.type === 'tagged') return `${shape.noun}s`;
  if (shape.ref) return `${shape.ref}s`;
  return describeShape(shape);
};

// Small builders keep format.ts readable; they add nothing the types do not already say.
export const str = (extra: Omit<StringShape, 'type'> & { doc?: string; label?: string } = {}): Shape => ({
  type: 'string',
  ...extra,
});
export const int = (extra: Omit<IntegerShape, 'type'> & { doc?: string } = {}): Shape => ({
  type: 'integer',
  ...extra,
});
export const num = (extra: Omit<NumberShape, 'type'> & { doc?: string } = {}): Shape => ({
  type: 'number',
  ...extra,
});
export const bool = (): Shape => ({ type: 'boolean' });
export const oneOf = (values: readonly string[]): Shape => ({ type: 'enum', values });
export const list = (items: Shape, extra: { minItems?: number; uniqueKey?: string } = {}): Shape => ({
  type: 'list',
  items,
  ...extra,
});
export const obj = (
  fields: Readonly<Record<string, Field>>,
  extra: {
    ref?: string;
    doc?: string;
    anyOf?: readonly string[];
    label?: string;
    partial?: boolean;
    open?: boolean;
    whole?: boolean;
  } = {},
): Shape => ({ type: 'object', fields, ...extra });
