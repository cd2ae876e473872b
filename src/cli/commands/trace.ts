/**
 * `retrace trace show <folder or trace.json>`: serves a goal's trace page on 127.0.0.1 (with a
 * token in the printed URL) until Ctrl-C. The trace is checked first: a missing or malformed one
 * is invalid input (exit 2).
 */
import type { ParsedArgs } from '../flags.ts';
import { InvalidInputError } from '../../errors.ts';
import { readTrace } from '../../report/trace.ts';
import { serveTrace } from '../trace-server.ts';
import { terminalText } from '../../safe-text.ts';

export default async function trace(args: ParsedArgs): Promise<number> {
  const [verb, path] = args.positionals;
  if (verb !== 'show' || !path) {
    throw new InvalidInputError(
      { file: 'command line' },
      `use: retrace trace show <trace folder or trace.json>, e.g. reports/traces/specs/calc/add (got ${args.positionals.join(' ') || 'nothing'})`,
    );
  }
  const { dir, trace: read } = readTrace(path);
  const server = await serveTrace(dir, read, typeof args.flags.port === 'number' ? args.flags.port : 0);
  process.stdout.write(
    `${terminalText(`trace of ${read.spec} › ${read.goal} (${read.status})`)}: open ${server.url}\n(only this machine can open it; Ctrl-C ends it)\n`,
  );
  await new Promise<void>((resolve) => {
    const end = (): void => resolve();
    process.once('SIGINT', end);
    process.once('SIGTERM', end);
  });
  await server.close();
  return 0;
}
