/**
 * The JSON Schemas of retrace's YAML files, generated from the format so they cannot drift.
 * `specs/spec.schema.json` is committed (editors read it through the
 * `# yaml-language-server: $schema=./spec.schema.json` comment); a test fails when it differs
 * from `renderSpecSchema()`. Regenerate it with `npx tsx src/spec-file/write-schema.ts`.
 */
import { specShape } from './format.ts';
import { toJsonSchema, type JsonSchema } from './json-schema.ts';
import { configShape } from './options-format.ts';

/** Where the committed spec schema lives, relative to the project root. */
export const SPEC_SCHEMA_PATH = 'specs/spec.schema.json';

export const specJsonSchema = (): JsonSchema =>
  toJsonSchema(specShape, {
    title: 'retrace spec',
    description:
      'A retrace test spec: the application under test and its goals. Strings may hold ${env.NAME} and ${secret.NAME} placeholders where noted.',
  });

export const configJsonSchema = (): JsonSchema =>
  toJsonSchema(configShape, {
    title: 'retrace config',
    description: 'retrace.config.yaml at the project root: defaults for every run.',
  });

/** The exact text of `specs/spec.schema.json`: two-space JSON and a final newline. */
export const renderSpecSchema = (): string => `${JSON.stringify(specJsonSchema(), null, 2)}\n`;
