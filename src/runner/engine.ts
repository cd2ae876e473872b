/**
 * The engine behind `retrace run`: vitest, driven programmatically, with the spec plugin and the
 * reporters. There is one engine; `npx vitest` with the plugin runs the same suites.
 */
import { startVitest } from 'vitest/node';
import type { RunContext } from './context.ts';
import { retrace } from './plugin.ts';
import { RetraceReporter, type RunResult } from './reporter.ts';
import { ConsoleReporter } from './console.ts';
import type { ConsoleMessage } from './progress.ts';
import { InfrastructureError, knownFault } from '../errors.ts';
import { moduleCacheDir } from './module-cache.ts';
import { WarmWorkers } from './warm-workers.ts';

export interface EngineOptions {
  readonly files: readonly string[];
  readonly context: RunContext;
  readonly bail: boolean;
  readonly shard?: string;
  readonly retry: number;
  /** Write a JUnit XML report here too. */
  readonly junit?: string;
  /** Every progress message of the workers, already masked, as it arrives (the live view). */
  readonly onProgress?: (message: ConsoleMessage) => void;
  /** Workers forked before vitest loaded, for it to take over. */
  readonly warm?: WarmWorkers;
}

/** Vitest's own console output is kept to failures; retrace prints its own progress. */
export async function runEngine(options: EngineOptions): Promise<RunResult> {
  const { context } = options;
  const reporter = new RetraceReporter(() => context);
  // On a terminal the workers' progress goes through one console; elsewhere they print plain lines
  // (and, for a live view, send them to the console too, which only passes them on).
  const print = context.tty && context.verbosity !== 'quiet';
  const console =
    print || options.onProgress
      ? new ConsoleReporter(() => context, { print, ...(options.onProgress ? { watch: options.onProgress } : {}) })
      : undefined;
  const workers = context.keepOpen ? 1 : Math.max(1, context.options.workers);
  const cache = moduleCacheDir(context.root);
  const vitest = await startVitest(
    'test',
    [...options.files],
    {
      root: context.root,
      config: false,
      watch: false,
      include: options.files.map((f) => f.replace(/\\/g, '/')),
      maxWorkers: workers,
      fileParallelism: workers > 1,
      isolate: false,
      retry: options.retry,
      bail: options.bail ? 1 : 0,
      passWithNoTests: false,
      ...(options.shard ? { shard: options.shard } : {}),
      reporters: [
        ...(console ? [console] : []),
        reporter,
        ...(options.junit ? [['junit', { outputFile: options.junit }] as ['junit', { outputFile: string }]] : []),
      ],
      silent: context.verbosity === 'quiet' ? 'passed-only' : false,
      ...(cache !== undefined && { experimental: { fsModuleCache: true, fsModuleCachePath: cache } }),
    },
    {
      plugins: [
        retrace({
          context,
          reporter: false,
          pool: (options.warm ?? new WarmWorkers(0)).pool(),
          include: options.files,
          ...(console ? { consoleSocket: console.socket, consoleEcho: !print } : {}),
        }),
      ],
      logLevel: 'error',
    },
  );
  await vitest.close();
  const result = reporter.result;
  if (reporter.fault) throw reporter.fault;
  if (!result) {
    // A reporter that failed to write (a full disk) is why: say that, naming where it wrote.
    const faults = vitest.state.getUnhandledErrors().map((e) => knownFault(e, context.options.reports));
    throw faults.find((f) => f !== undefined) ?? new InfrastructureError('IO', 'vitest ended without reporting the run');
  }
  return result;
}
