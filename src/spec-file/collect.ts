/** Turns the file and folder arguments of a command into the list of spec files. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidInputError } from '../errors.ts';

const isYaml = (name: string): boolean => /\.ya?ml$/i.test(name) && !/^retrace\.config\.ya?ml$/i.test(name);

/** Absolute spec files under `inputs` (files as given, folders searched recursively), sorted. */
export function collectSpecFiles(root: string, inputs: readonly string[]): string[] {
  const found = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (isYaml(entry.name)) found.add(full);
    }
  };
  for (const input of inputs) {
    const full = resolve(root, input);
    if (!existsSync(full)) throw new InvalidInputError({ file: input }, 'no such file or folder');
    if (statSync(full).isDirectory()) walk(full);
    else found.add(full);
  }
  if (found.size === 0) {
    throw new InvalidInputError({ file: inputs.join(', ') }, 'no spec files (*.yaml) found');
  }
  return [...found].sort();
}
