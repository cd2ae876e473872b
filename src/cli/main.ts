/**
 * The retrace command line. Known errors print their message (no stack) and set the exit code
 * of their family: 1 a goal failed, 2 invalid input, 3 broken. A file-system fault of the
 * environment (a full disk, a refused write), wherever it surfaces, is a one-line infrastructure
 * error naming the path, never "a bug in retrace". `process.exitCode` is set rather than
 * calling `process.exit`, so output is flushed.
 */
import { knownFault } from '../errors.ts';
import { parseArgs, helpText, asksForHelp, COMMANDS } from './flags.ts';
import { outputsInUse } from './outputs.ts';
import { terminalText } from '../safe-text.ts';

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
  trace: () => import('./commands/trace.ts'),
};

async function main(argv: readonly string[]): Promise<number> {
  const [first, second] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(`${helpText(first === 'help' ? second : undefined)}\n`);
    return first === undefined ? 2 : 0;
  }
  if (first in COMMANDS && asksForHelp(argv.slice(1))) {
    process.stdout.write(`${helpText(first)}\n`);
    return 0;
  }
  const args = parseArgs(argv);
  const load = COMMAND_MODULES[args.command];
  if (!load) throw new Error(`internal: no module for ${args.command}`);
  return (await load()).default(args);
}

/** The exit code an error ends the command with, its message printed. */
function reportError(error: unknown): number {
  const known = knownFault(error, outputsInUse() || 'the outputs');
  if (known) {
    process.stderr.write(`retrace: ${terminalText(known.message)}\n`);
    return known.exitCode;
  }
  process.stderr.write(
    `retrace: unexpected error (a bug in retrace; please report it):\n${terminalText((error as Error).stack ?? String(error))}\n`,
  );
  return 3;
}

/**
 * A fault raised outside the command's own promise chain (a reporter writing after the run, a
 * stream): a known one is reported once and makes the run broken; anything else ends the process.
 */
let asideFault: number | undefined;
const onAside = (error: unknown): void => {
  const code = reportError(error);
  if (!knownFault(error, '')) process.exit(code);
  asideFault = Math.max(asideFault ?? 0, code);
  process.exitCode = Math.max(Number(process.exitCode ?? 0), asideFault);
};
process.on('uncaughtException', onAside);
process.on('unhandledRejection', onAside);

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  process.exitCode = reportError(error);
}
if (asideFault !== undefined) process.exitCode = Math.max(Number(process.exitCode ?? 0), asideFault);
