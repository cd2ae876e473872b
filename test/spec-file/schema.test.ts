import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectationShape, specShape, stepShape } from '../../src/spec-file/format.ts';
import { configJsonSchema, renderSpecSchema, SPEC_SCHEMA_PATH, specJsonSchema } from '../../src/spec-file/schema.ts';
import { specReferenceMarkdown } from '../../src/spec-file/reference.ts';
import type { Shape } from '../../src/spec-file/shape.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every schema object in a JSON Schema tree. */
function* schemas(node: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(node)) {
    for (const n of node) yield* schemas(n);
  } else if (node && typeof node === 'object') {
    yield node as Record<string, unknown>;
    for (const v of Object.values(node)) yield* schemas(v);
  }
}

/** Every key name declared anywhere in a shape. */
function keysOf(shape: Shape, out = new Set<string>()): Set<string> {
  switch (shape.type) {
    case 'object':
      for (const [k, f] of Object.entries(shape.fields)) {
        out.add(k);
        keysOf(f.shape, out);
      }
      break;
    case 'list':
      keysOf(shape.items, out);
      break;
    case 'record':
      keysOf(shape.values, out);
      break;
    case 'union':
      for (const v of shape.variants) keysOf(v, out);
      break;
    case 'tagged':
      for (const [tag, v] of Object.entries(shape.variants)) {
        out.add(tag);
        keysOf(v.value, out);
        for (const [k, f] of Object.entries(v.fields)) {
          out.add(k);
          keysOf(f.shape, out);
        }
      }
      break;
    default:
      break;
  }
  return out;
}

describe('specs/spec.schema.json', () => {
  it('is up to date with the format (regenerate: npx tsx src/spec-file/write-schema.ts)', () => {
    const committed = readFileSync(resolve(ROOT, SPEC_SCHEMA_PATH), 'utf8');
    expect(committed).toBe(renderSpecSchema());
  });

  it('is draft-07 with descriptions, and closes every mapping with additionalProperties: false', () => {
    const schema = specJsonSchema();
    expect(schema['$schema']).toBe('http://json-schema.org/draft-07/schema#');
    const objects = [...schemas(schema)].filter((s) => s['type'] === 'object' && 'properties' in s);
    expect(objects.length).toBeGreaterThan(10);
    for (const o of objects) expect(o['additionalProperties']).toBe(false);
    const defs = schema['definitions'] as Record<string, Record<string, unknown>>;
    for (const name of ['app', 'goal', 'step', 'expectation', 'region', 'target', 'options']) {
      expect(defs[name], name).toBeDefined();
      expect(typeof defs[name]?.['description'], name).toBe('string');
    }
  });

  it('states enums, ranges and patterns', () => {
    const text = renderSpecSchema();
    expect(text).toContain('"enum": [\n');
    const all = [...schemas(specJsonSchema())];
    const enums = all.flatMap((s) => (Array.isArray(s['enum']) ? [s['enum'].join('|')] : []));
    expect(enums).toEqual(
      expect.arrayContaining(['contains|substring|exact|regex|fuzzy', 'goal|spec', 'up|down|left|right', 'auto|off|force']),
    );
    expect(all.some((s) => s['pattern'] === '^[A-Za-z0-9][A-Za-z0-9_.-]*$')).toBe(true);
    expect(all.some((s) => s['minimum'] === 0 && s['maximum'] === 1 && s['type'] === 'number')).toBe(true);
  });

  it('names each step kind and expectation kind as a oneOf variant', () => {
    const defs = specJsonSchema()['definitions'] as Record<string, { oneOf: { required: string[] }[] }>;
    const steps = defs['step']?.oneOf.map((v) => v.required[0]);
    const expectations = defs['expectation']?.oneOf.map((v) => v.required[0]);
    expect(steps).toEqual(stepShape.type === 'tagged' ? Object.keys(stepShape.variants) : []);
    expect(expectations).toEqual(['text', 'absent', 'screenshot', 'window', 'element', 'exited']);
  });

  it('has a config schema with the config keys', () => {
    const props = configJsonSchema()['properties'] as Record<string, unknown>;
    expect(Object.keys(props)).toEqual(
      expect.arrayContaining([
        'learn',
        'planner',
        'relearn',
        'healWithModel',
        'updateBaselines',
        'workers',
        'paths',
        'reports',
        'model',
        'timeouts',
        'bounds',
        'display',
      ]),
    );
  });
});

describe('specReferenceMarkdown', () => {
  const markdown = specReferenceMarkdown();

  it('documents every key of the format', () => {
    const keys = keysOf(specShape);
    expect(keys.size).toBeGreaterThan(30);
    for (const key of keys) expect(markdown, key).toContain(key);
    for (const key of keysOf(expectationShape)) expect(markdown).toContain(`\`${key}\``);
  });

  it('shows defaults and the precedence', () => {
    expect(markdown).toContain('| `match` | one of contains, substring, exact, regex, fuzzy | `"contains"` |');
    expect(markdown).toContain('| `maxSteps` | an integer ≥ 1 | `25` |');
    expect(markdown).toContain('missing (none when CI is set)');
    expect(markdown).toContain("command-line flag > the spec's `options:` > `retrace.config.yaml` > built-in");
  });
});
