/**
 * The retrace command line. Known errors print their message (no stack) and set the exit code
 * of their family: 1 a goal failed, 2 invalid input, 3 broken. `process.exitCode` is set rather
 * than calling `process.exit`, so output is flushed.
 */
import { RetraceError } from '../errors.ts';
import { parseArgs, helpText } from './flags.ts';

const COMMAND_MODULES: Record<string, () => Promise<{ default: (args: import('./flags.ts').ParsedArgs) => Promise<number> }>> = {
  run: () => import('./commands/run.ts'),
  validate: () => import('./commands/validate.ts'),
  report: () => import('./commands/report.ts'),
  paths: () => import('./commands/paths.ts'),
  merge: () => import('./commands/merge.ts'),
  init: () => import('./commands/init.ts'),
  doctor: () => import('./commands/doctor.ts'),
  inspect: () => import('./commands/inspect.ts'),
  record: () => import('./commands/record.ts'),
};

async function main(argv: readonly string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    process.stdout.write(`${helpText()}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  if (argv[0] === '--version') {
    const { version } = await import('./version.ts');
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const args = parseArgs(argv);
  const load = COMMAND_MODULES[args.command];
  if (!load) throw new Error(`internal: no module for ${args.command}`);
  return (await load()).default(args);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof RetraceError) {
    process.stderr.write(`retrace: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    process.stderr.write(`retrace: unexpected error (a bug in retrace; please report it):\n${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 3;
  }
}
