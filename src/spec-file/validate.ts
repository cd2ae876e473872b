/**
 * Checks a YAML node tree against a `Shape` and builds the plain value. It never stops at the
 * first problem: every issue is collected with the line and column of the node it is about,
 * and named by its path (`goals[1].expect[0].match`), as Playwright names config keys.
 * Defaults of absent keys are filled in, except in `partial` (override-layer) objects.
 */
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Document,
  type LineCounter,
  type Node as YamlNode,
  type Pair,
  type Scalar,
  type YAMLMap,
} from 'yaml';
import { resolveTemplate, type Env } from './interpolate.ts';
import { SecretMasker } from './secrets.ts';
import { stringProblems } from './string-problems.ts';
import { describeShape, type Field, type ObjectShape, type Shape, type StringShape, type TaggedShape } from './shape.ts';
import { closest } from './suggest.ts';
import type { Issue } from './yaml-source.ts';

export interface Position {
  readonly line: number;
  readonly column: number;
}

export interface Validated {
  /** The plain value; meaningful only when `issues` is empty. */
  readonly value: unknown;
  readonly issues: readonly Issue[];
  /** Where each visited value sits, by path (`goals[1].id`); for checks made after validation. */
  readonly positions: ReadonlyMap<string, Position>;
}

export interface ValidateInput {
  /** The document whose `contents` are checked; aliases resolve within it. */
  readonly doc: Document;
  /** Absent for a document built in memory (CLI values): positions are then unknown. */
  readonly lineCounter?: LineCounter;
  /** The source text, to quote a list as written in a message. */
  readonly text?: string;
  /** Environment that `${env.X}` / `${secret.X}` must resolve in. */
  readonly env: Env;
}

/** An alias may point at a large subtree; this caps the work a hostile file can cause. */
const MAX_ALIAS_EXPANSIONS = 1_000;
const INVALID: unique symbol = Symbol('invalid');
type Out = unknown;

export const childPath = (path: string, key: string): string => {
  const k = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : JSON.stringify(key);
  if (!path) return k;
  return k.startsWith('"') ? `${path}[${k}]` : `${path}.${k}`;
};

const subject = (path: string): string => path || 'the top level';

export function validateYaml(input: ValidateInput, shape: Shape): Validated {
  const walker = new Walker(input);
  const root = input.doc.contents as YamlNode | null;
  const value = walker.visit(root, shape, '', { line: 1, column: 1 });
  return { value: value === INVALID ? undefined : value, issues: walker.issues, positions: walker.positions };
}

class Walker {
  readonly issues: Issue[] = [];
  readonly positions = new Map<string, Position>();
  #aliases = 0;
  #aliasesReported = false;

  constructor(private readonly input: ValidateInput) {}

  pos(node: YamlNode | null | undefined, fallback: Position): Position {
    const offset = node?.range?.[0];
    if (offset === undefined || !this.input.lineCounter) return fallback;
    const { line, col } = this.input.lineCounter.linePos(offset);
    return { line, column: col };
  }

  report(at: Position, detail: string): void {
    this.issues.push({ line: at.line, column: at.column, detail });
  }

  /** "got …" part of a message: the value as written, short. */
  got(node: YamlNode | null): string {
    if (node === null) return 'nothing';
    if (isMap(node)) return 'a mapping';
    if (isSeq(node)) {
      const range = node.range;
      const src = range && this.input.text ? this.input.text.slice(range[0], range[1]).trim() : '';
      const n = node.items.length;
      return src.startsWith('[') && src.length <= 60 ? src : `a list of ${n} item${n === 1 ? '' : 's'}`;
    }
    if (isScalar(node)) {
      const v = node.value;
      if (v === null) return node.source ? 'null' : 'nothing';
      if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);
      if (typeof v === 'number' || typeof v === 'boolean') return String(node.source ?? v);
      return `a ${node.tag ?? typeof v} value`;
    }
    return 'an unsupported value';
  }

  mustBe(at: Position, path: string, shape: Shape, node: YamlNode | null, hint = ''): typeof INVALID {
    this.report(at, `${subject(path)} must be ${describeShape(shape)} (got ${this.got(node)})${hint}`);
    return INVALID;
  }

  deref(node: unknown): YamlNode | null {
    if (node === null || node === undefined) return null;
    if (isAlias(node)) {
      this.#aliases += 1;
      if (this.#aliases > MAX_ALIAS_EXPANSIONS) return null;
      return (node.resolve(this.input.doc) as YamlNode | undefined) ?? null;
    }
    return node as YamlNode;
  }

  /**
   * Visits one node. `at` is where to point when the node itself is absent or empty — the key
   * that introduced it — so "is required" names a useful line.
   */
  visit(raw: unknown, shape: Shape, path: string, at: Position): Out {
    const node = this.deref(raw);
    if (this.#aliases > MAX_ALIAS_EXPANSIONS) {
      if (!this.#aliasesReported) {
        this.report(at, `${subject(path)}: too many alias (*name) expansions, more than ${MAX_ALIAS_EXPANSIONS}`);
        this.#aliasesReported = true;
      }
      return INVALID;
    }
    const here = this.pos(node, at);
    this.positions.set(path, here);
    switch (shape.type) {
      case 'string':
        return this.string(node, shape, path, here);
      case 'integer':
      case 'number': {
        const v = isScalar(node) ? node.value : undefined;
        if (typeof v !== 'number' || !Number.isFinite(v) || (shape.type === 'integer' && !Number.isInteger(v))) {
          return this.mustBe(here, path, shape, node);
        }
        if ((shape.minimum !== undefined && v < shape.minimum) || (shape.maximum !== undefined && v > shape.maximum)) {
          return this.mustBe(here, path, shape, node);
        }
        return v;
      }
      case 'boolean': {
        const v = isScalar(node) ? node.value : undefined;
        return typeof v === 'boolean' ? v : this.mustBe(here, path, shape, node);
      }
      case 'enum': {
        const v = isScalar(node) ? node.value : undefined;
        return typeof v === 'string' && shape.values.includes(v) ? v : this.mustBe(here, path, shape, node);
      }
      case 'tuple': {
        if (!isSeq(node) || node.items.length !== shape.items.length) return this.mustBe(here, path, shape, node);
        const values = node.items.map((item, i) => {
          const v = isScalar(this.deref(item)) ? (this.deref(item) as Scalar).value : undefined;
          const s = shape.items[i]?.shape;
          const ok =
            typeof v === 'number' &&
            Number.isInteger(v) &&
            (s?.minimum === undefined || v >= s.minimum) &&
            (s?.maximum === undefined || v <= s.maximum);
          return ok ? v : INVALID;
        });
        return values.includes(INVALID) ? this.mustBe(here, path, shape, node) : values;
      }
      case 'list': {
        if (!isSeq(node)) return this.mustBe(here, path, shape, node);
        if (shape.minItems !== undefined && node.items.length < shape.minItems) {
          this.report(
            here,
            `${subject(path)} must have at least ${shape.minItems} item${shape.minItems === 1 ? '' : 's'} (${describeShape(shape)})`,
          );
          return INVALID;
        }
        const values = node.items.map((item, i) => this.visit(item, shape.items, `${path}[${i}]`, this.pos(item as YamlNode, here)));
        if (shape.uniqueKey && !this.unique(node.items, shape.uniqueKey, path)) return INVALID;
        return values.includes(INVALID) ? INVALID : values;
      }
      case 'object':
        return this.object(node, shape, path, here, at);
      case 'record': {
        if (!isMap(node)) return this.mustBe(here, path, shape, node);
        const out: Record<string, unknown> = {};
        let ok = true;
        for (const { key, keyAt, pair } of this.entries(node, path)) {
          if (!new RegExp(shape.keyPattern.source).test(key)) {
            this.report(keyAt, `${childPath(path, key)}: the name must be ${shape.keyPattern.explain}`);
            ok = false;
            continue;
          }
          const v = this.visit(pair.value, shape.values, childPath(path, key), keyAt);
          if (v === INVALID) ok = false;
          else out[key] = v;
        }
        return ok ? out : INVALID;
      }
      case 'union':
        return this.union(node, shape.variants, shape, path, here, at);
      case 'tagged':
        return this.tagged(node, shape, path, here);
    }
  }

  string(node: YamlNode | null, shape: StringShape, path: string, here: Position): Out {
    const v = isScalar(node) ? node.value : undefined;
    if (typeof v !== 'string') {
      const quotable = isScalar(node) && (typeof v === 'number' || typeof v === 'boolean');
      const hint = quotable ? `; quote it: "${String(node.source ?? v)}"` : '';
      return this.mustBe(here, path, shape as Shape, node, hint);
    }
    if (shape.minLength !== undefined && v.length < shape.minLength) {
      this.report(here, `${subject(path)} must not be empty`);
      return INVALID;
    }
    if (shape.pattern && !new RegExp(shape.pattern.source).test(v)) return this.mustBe(here, path, shape as Shape, node);
    const problems = stringProblems(v, shape, this.input.env);
    for (const problem of problems) this.report(here, `${subject(path)} ${problem}`);
    if (problems.length) return INVALID;
    return v;
  }

  /**
   * Reports items whose value under `key` repeats an earlier one, naming both lines. Reads the
   * YAML directly, so a duplicate is found even when an item is otherwise invalid.
   */
  unique(items: readonly unknown[], key: string, path: string): boolean {
    const first = new Map<string, { index: number; at: Position }>();
    let ok = true;
    items.forEach((raw, index) => {
      const item = this.deref(raw);
      const valueNode = isMap(item) ? this.deref(item.get(key, true)) : null;
      if (!isScalar(valueNode) || typeof valueNode.value !== 'string') return;
      const at = this.pos(valueNode, { line: 1, column: 1 });
      const earlier = first.get(valueNode.value);
      if (!earlier) {
        first.set(valueNode.value, { index, at });
        return;
      }
      ok = false;
      this.report(
        at,
        `${path}[${index}].${key} "${valueNode.value}" is used twice: also by ${path}[${earlier.index}] at line ${earlier.at.line}; ${key}s must be unique in the file`,
      );
    });
    return ok;
  }

  /** The string-keyed pairs of a mapping; reports non-string and duplicate keys. */
  entries(node: YAMLMap, path: string): { key: string; keyAt: Position; pair: Pair }[] {
    const seen = new Map<string, Position>();
    const out: { key: string; keyAt: Position; pair: Pair }[] = [];
    for (const pair of node.items as Pair[]) {
      const keyNode = this.deref(pair.key);
      const keyAt = this.pos(keyNode, this.pos(node, { line: 1, column: 1 }));
      const key = isScalar(keyNode) ? keyNode.value : undefined;
      if (typeof key !== 'string') {
        this.report(keyAt, `${subject(path)} has a key that is not a string (got ${this.got(keyNode)})`);
        continue;
      }
      const first = seen.get(key);
      if (first) {
        this.report(keyAt, `${childPath(path, key)} is given twice (first at line ${first.line})`);
        continue;
      }
      seen.set(key, keyAt);
      out.push({ key, keyAt, pair });
    }
    return out;
  }

  unknownKey(keyAt: Position, path: string, key: string, known: readonly string[], what: string): void {
    const guess = closest(key, known);
    const help = guess ? `did you mean "${guess}"?` : known.length ? `expected one of: ${known.join(', ')}` : 'it takes no other keys';
    this.report(keyAt, `${subject(path)} has an unknown key "${key}"${what} (${help})`);
  }

  /** Visits the keys of a mapping against `fields`, checking required and unknown keys. */
  fields(
    entries: readonly { key: string; keyAt: Position; pair: Pair }[],
    fields: Readonly<Record<string, Field>>,
    options: { path: string; at: Position; partial: boolean; open?: boolean; what: string; skip?: string },
  ): Record<string, unknown> | typeof INVALID {
    const out: Record<string, unknown> = {};
    let ok = true;
    const known = Object.keys(fields);
    for (const { key, keyAt, pair } of entries) {
      if (key === options.skip) continue;
      const field = fields[key];
      if (!field) {
        if (options.open) continue;
        this.unknownKey(keyAt, options.path, key, known, options.what);
        ok = false;
        continue;
      }
      const v = this.visit(pair.value, field.shape, childPath(options.path, key), keyAt);
      if (v === INVALID) ok = false;
      else out[key] = v;
    }
    for (const [key, field] of Object.entries(fields)) {
      if (key in out || entries.some((e) => e.key === key)) continue;
      if (field.required) {
        this.report(options.at, `${childPath(options.path, key)} is required (${lowerFirst(field.doc)})`);
        ok = false;
      } else if (field.default !== undefined && !options.partial) {
        out[key] = structuredClone(field.default);
      }
    }
    return ok ? out : INVALID;
  }

  /** `at` is the key that introduced the mapping: "x is required" points there. */
  object(node: YamlNode | null, shape: ObjectShape, path: string, here: Position, at: Position): Out {
    if (!isMap(node)) return this.mustBe(here, path, shape as Shape, node);
    const entries = this.entries(node, path);
    const out = this.fields(entries, shape.fields, { path, at, partial: shape.partial ?? false, open: shape.open ?? false, what: '' });
    if (shape.anyOf && !shape.anyOf.some((k) => entries.some((e) => e.key === k))) {
      this.report(here, `${subject(path)} needs ${shape.anyOf.map((k) => `${k}:`).join(' or ')}`);
      return INVALID;
    }
    return out;
  }

  union(node: YamlNode | null, variants: readonly Shape[], shape: Shape, path: string, here: Position, at: Position): Out {
    const scalarKind = isScalar(node) ? typeof node.value : undefined;
    const pick = (): Shape | undefined => {
      if (scalarKind === 'string') return variants.find((v) => v.type === 'string' || v.type === 'enum');
      if (scalarKind === 'number') return variants.find((v) => v.type === 'integer' || v.type === 'number');
      if (scalarKind === 'boolean') return variants.find((v) => v.type === 'boolean');
      if (isSeq(node)) return variants.find((v) => v.type === 'tuple' || v.type === 'list');
      if (!isMap(node)) return undefined;
      const keys = (node.items as Pair[]).map((p) => (isScalar(p.key) ? p.key.value : undefined));
      const objects = variants.filter((v): v is Shape & ObjectShape => v.type === 'object');
      return (
        objects.find((o) => Object.entries(o.fields).some(([k, f]) => f.required && keys.includes(k))) ??
        (objects.length === 1 ? objects[0] : undefined) ??
        variants.find((v) => v.type === 'record' || v.type === 'tagged')
      );
    };
    const variant = pick();
    if (!variant) {
      const got = isMap(node)
        ? `a mapping with ${(node.items as Pair[]).map((p) => (isScalar(p.key) ? String(p.key.value) : '?')).join(', ') || 'no keys'}`
        : this.got(node);
      this.report(here, `${subject(path)} must be ${describeShape(shape)} (got ${got})`);
      return INVALID;
    }
    return this.visit(node, variant, path, at);
  }

  tagged(node: YamlNode | null, shape: TaggedShape, path: string, here: Position): Out {
    const tags = Object.keys(shape.variants);
    const kinds = `${article(shape.noun)} is one of: ${tags.join(', ')}`;
    if (!isMap(node)) {
      this.report(here, `${subject(path)} must be a mapping such as { ${tags[0]}: … } (got ${this.got(node)}); ${kinds}`);
      return INVALID;
    }
    const entries = this.entries(node, path);
    const present = entries.filter((e) => e.key in shape.variants);
    if (present.length === 0) {
      // A key that is no option of any kind is most likely the misspelt kind itself.
      const options = new Set(Object.values(shape.variants).flatMap((v) => Object.keys(v.fields)));
      const stray = entries.find((e) => !options.has(e.key));
      if (!stray) {
        this.report(here, `${subject(path)} names no ${shape.noun} kind; ${kinds}`);
        return INVALID;
      }
      const guess = closest(stray.key, tags);
      const hint = guess ? ` (did you mean "${guess}"?)` : '';
      this.report(stray.keyAt, `${subject(path)} has an unknown ${shape.noun} kind "${stray.key}"${hint}; ${kinds}`);
      return INVALID;
    }
    const [tag, ...more] = present;
    if (!tag) return INVALID;
    if (more.length) {
      this.report(
        more[0]?.keyAt ?? here,
        `${subject(path)} has both "${tag.key}" and "${more[0]?.key}"; ${article(shape.noun)} holds exactly one of: ${tags.join(', ')}`,
      );
      return INVALID;
    }
    const variant = shape.variants[tag.key];
    if (!variant) return INVALID;
    const value = this.visit(tag.pair.value, variant.value, childPath(path, tag.key), tag.keyAt);
    const rest = this.fields(entries, variant.fields, {
      path,
      at: here,
      partial: false,
      what: ` for ${article(`${tag.key} ${shape.noun}`)}`,
      skip: tag.key,
    });
    if (value === INVALID || rest === INVALID) return INVALID;
    const item = { [tag.key]: value, ...rest };
    // A regex engine's message quotes the resolved pattern: mask the secrets it resolved.
    const secrets = new SecretMasker();
    const resolve = (s: string): string => {
      const r = resolveTemplate(s, this.input.env);
      for (const secret of r.ok ? r.secrets : []) secrets.learn(secret);
      return r.ok ? r.value : s;
    };
    const problems = variant.refine?.(item, resolve) ?? [];
    for (const p of problems) {
      const keyPath = childPath(path, p.key);
      this.report(this.positions.get(keyPath) ?? here, `${keyPath} ${secrets.mask(p.detail)}`);
    }
    return problems.length ? INVALID : item;
  }
}

const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);
const article = (word: string): string => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);
