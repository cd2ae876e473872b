/**
 * Writes `specs/spec.schema.json` from the format: `npx tsx src/spec-file/write-schema.ts [root]`.
 * Importing this module does nothing; only running it as a script writes.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderSpecSchema, SPEC_SCHEMA_PATH } from './schema.ts';

export function writeSpecSchema(root: string): string {
  const file = resolve(root, SPEC_SCHEMA_PATH);
  writeFileSync(file, renderSpecSchema());
  return file;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  console.log(`wrote ${writeSpecSchema(process.argv[2] ?? process.cwd())}`);
}
