/** `retrace validate`: every check `run` makes before running, and nothing else. */
import type { ParsedArgs } from '../flags.ts';
import { prepareRun } from './run.ts';

export default async function validate(args: ParsedArgs): Promise<number> {
  const { specs } = prepareRun(args);
  const goals = specs.reduce((n, s) => n + s.goals.length, 0);
  process.stdout.write(`${specs.length} spec file(s), ${goals} goal(s): valid\n`);
  return 0;
}
