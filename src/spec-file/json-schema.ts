/**
 * `Shape` → JSON Schema (draft-07: the draft editors' YAML support handles best). Named
 * shapes (`ref`) are emitted once under `definitions`. Checks a schema cannot state — that
 * placeholders resolve, that a /regex/ compiles — stay with the validator; everything else
 * (types, enums, ranges, patterns, required and unknown keys) is stated in both.
 */
import type { Field, Shape, TaggedVariant } from './shape.ts';

export type JsonSchema = { readonly [key: string]: unknown };

export interface SchemaDocument {
  readonly title: string;
  readonly description: string;
  readonly id?: string;
}

export function toJsonSchema(root: Shape, meta: SchemaDocument): JsonSchema {
  const definitions = new Map<string, JsonSchema>();

  const withDoc = (schema: Record<string, unknown>, doc: string | undefined, field?: Field): JsonSchema => {
    const sentence = (t: string | undefined): string | undefined => t && (/[.!?)]$/.test(t) ? t : `${t}.`);
    const description = [sentence(doc), field?.defaultText ? `Default: ${field.defaultText}.` : undefined].filter(Boolean).join(' ');
    return {
      ...(description && { description }),
      ...schema,
      ...(field?.default !== undefined && { default: field.default }),
    };
  };

  const properties = (fields: Readonly<Record<string, Field>>): JsonSchema =>
    Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, convertField(f)]));

  const required = (fields: Readonly<Record<string, Field>>): readonly string[] =>
    Object.entries(fields).flatMap(([k, f]) => (f.required ? [k] : []));

  const convertField = (field: Field): JsonSchema => {
    const inner = convert(field.shape);
    // A $ref sibling is ignored by draft-07 validators; wrap it so the field's doc survives.
    if ('$ref' in inner) return withDoc({ allOf: [inner] }, field.doc, field);
    const { description: _shapeDoc, ...rest } = inner;
    return withDoc(rest, field.doc, field);
  };

  const variantSchema = (tag: string, variant: TaggedVariant): JsonSchema =>
    withDoc(
      {
        type: 'object',
        properties: {
          [tag]: convertField({ doc: variant.doc, shape: variant.value }),
          ...properties(variant.fields),
        },
        required: [tag],
        additionalProperties: false,
      },
      variant.doc,
    );

  function body(shape: Shape): Record<string, unknown> {
    switch (shape.type) {
      case 'string':
        return {
          type: 'string',
          ...(shape.minLength && { minLength: shape.minLength }),
          ...(shape.pattern && { pattern: shape.pattern.source }),
        };
      case 'integer':
      case 'number':
        return {
          type: shape.type,
          ...(shape.minimum !== undefined && { minimum: shape.minimum }),
          ...(shape.maximum !== undefined && { maximum: shape.maximum }),
        };
      case 'boolean':
        return { type: 'boolean' };
      case 'enum':
        return { type: 'string', enum: shape.values };
      case 'tuple':
        return {
          type: 'array',
          items: shape.items.map((i) => withDoc(body(i.shape), i.name)),
          minItems: shape.items.length,
          maxItems: shape.items.length,
          additionalItems: false,
        };
      case 'list':
        return {
          type: 'array',
          items: convert(shape.items),
          ...(shape.minItems !== undefined && { minItems: shape.minItems }),
        };
      case 'object':
        return {
          type: 'object',
          properties: properties(shape.fields),
          ...(required(shape.fields).length && { required: required(shape.fields) }),
          ...(!shape.open && { additionalProperties: false }),
          ...(shape.anyOf && { anyOf: shape.anyOf.map((k) => ({ required: [k] })) }),
        };
      case 'record':
        return {
          type: 'object',
          propertyNames: { pattern: shape.keyPattern.source },
          additionalProperties: convert(shape.values),
        };
      case 'union':
        return { anyOf: shape.variants.map(convert) };
      case 'tagged':
        return {
          type: 'object',
          oneOf: Object.entries(shape.variants).map(([tag, v]) => variantSchema(tag, v)),
        };
    }
  }

  function convert(shape: Shape): JsonSchema {
    if (!shape.ref) return withDoc(body(shape), shape.doc);
    if (!definitions.has(shape.ref)) {
      definitions.set(shape.ref, {}); // reserve first: a shape may refer to itself
      definitions.set(shape.ref, withDoc(body(shape), shape.doc));
    }
    return { $ref: `#/definitions/${shape.ref}` };
  }

  const top = withDoc(body(root), undefined);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    ...(meta.id && { $id: meta.id }),
    title: meta.title,
    description: meta.description,
    ...top,
    definitions: Object.fromEntries([...definitions].sort(([a], [b]) => a.localeCompare(b))),
  };
}
