/**
 * An invalid spec as vitest shows it. The plugin validates a spec when vitest loads it; an
 * invalid one becomes a module that throws the validation error with a stack whose only frame is
 * the spec's own file:line:column, so vitest's code frame (in watch mode, after an edit) points
 * at the YAML line that is wrong, not at retrace's source.
 */
import { resolve } from 'node:path';
import { InvalidInputError, InvalidInputErrors } from '../errors.ts';
import { loadSpec } from '../spec-file/load.ts';
import type { RunContext } from './context.ts';

/** The module that throws `file`'s validation error; undefined when the spec is valid (or no context is known yet). */
export function invalidSpecModule(file: string, context: RunContext | undefined): string | undefined {
  if (!context) return undefined;
  try {
    loadSpec(file, { root: context.root, env: process.env });
    return undefined;
  } catch (error) {
    if (!(error instanceof InvalidInputError) && !(error instanceof InvalidInputErrors)) return undefined;
    const first = error instanceof InvalidInputErrors ? error.errors[0] : error;
    const at = first?.location;
    const frame = `    at ${resolve(context.root, at?.file ?? file)}:${at?.line ?? 1}:${at?.column ?? 1}`;
    return [
      `const error = new Error(${JSON.stringify(error.message)});`,
      `error.name = ${JSON.stringify(error.name)};`,
      `error.stack = ${JSON.stringify(`${error.name}: ${error.message}\n${frame}`)};`,
      'throw error;',
      '',
    ].join('\n');
  }
}
