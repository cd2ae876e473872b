/**
 * The vitest plugin that makes a YAML spec a test file: `specs/calc.yaml` becomes a module that
 * defines one test per goal. `retrace run` uses it, and so can a project's own vitest config:
 *
 *   import { retrace } from 'retrace/vitest';
 *   export default defineConfig({ plugins: [retrace()] });
 *
 * Its reporter (summary.json; the workers write the history and the Allure results themselves)
 * is added to whatever reporters the user chose, `--reporter=junit` on the command line included.
 * Ordinary test files in the same run are left alone: no display, no summary entry, no history.
 */
import type { Plugin } from 'vitest/config';
import type { Reporter } from 'vitest/node';
import type { PoolRunnerInitializer, TestProject } from 'vitest/node';
import type { RunContext } from './context.ts';
import { RetraceReporter } from './reporter.ts';
import { isSpecFile } from './spec-module.ts';
import type { ConsoleOptions } from './progress.ts';
import { invalidSpecModule } from './spec-error.ts';
import { SUITE_MODULE, WORKER_SETUP } from './entry-modules.ts';

export interface RetracePluginOptions {
  /** Spec files vitest collects. @default ['specs/**\/*.yaml'] */
  readonly include?: readonly string[];
  /** The run's settings; when absent they are resolved from retrace.config.yaml and the environment. */
  readonly context?: RunContext;
  /** Add the reporter that writes summary.json. @default true */
  readonly reporter?: boolean;
  /** The console's socket (`retrace run` on a terminal or with a live view), handed to the workers. */
  readonly consoleSocket?: string;
  /** The console only watches the workers' lines: they print them too. */
  readonly consoleEcho?: boolean;
  /**
   * The workers' pool (`retrace run`'s, which takes over workers it forked ahead). Set here, not
   * beside the run's other options: vitest merges those into the config's, and a string stays.
   * @default 'forks'
   */
  readonly pool?: PoolRunnerInitializer;
}

/** vitest's `retry` option: a count, or `{ count }`. */
const retryCount = (retry: unknown): number =>
  typeof retry === 'number'
    ? retry
    : typeof retry === 'object' && retry !== null && typeof (retry as { count?: unknown }).count === 'number'
      ? (retry as { count: number }).count
      : 0;

export function retrace(options: RetracePluginOptions = {}): Plugin {
  let context: RunContext | undefined;
  const resolveContext = async (): Promise<RunContext> =>
    (context ??= options.context ?? (await (await import('./default-context.ts')).defaultRunContext()));
  const added = new Set<unknown>();
  return {
    name: 'retrace:spec',
    enforce: 'pre',
    async config() {
      return {
        test: {
          include: [...(options.include ?? ['specs/**/*.yaml'])],
          setupFiles: [WORKER_SETUP],
          provide: { retrace: await resolveContext() },
          pool: options.pool ?? 'forks',
        },
      };
    },
    // After the config (and the command line) chose the reporters: ours joins them.
    async configureVitest({
      vitest,
      project,
      experimental_defineCacheKeyGenerator: cacheKey,
    }: {
      vitest: { config: { reporters: unknown[]; retry?: unknown } };
      project: TestProject;
      experimental_defineCacheKeyGenerator?: (generate: (module: { id: string }) => false | undefined) => void;
    }) {
      // A spec's module is made by `load` below from more than the YAML's text (the suite module's
      // path, the run's verdict on the spec): never taken from a cache keyed by that text.
      cacheKey?.(({ id }) => (isSpecFile(id) ? false : undefined));
      const run = await resolveContext();
      const console: ConsoleOptions = {
        retry: retryCount(vitest.config.retry),
        ...(options.consoleSocket ? { socket: options.consoleSocket, echo: options.consoleEcho ?? false } : {}),
      };
      project.provide('retraceConsole', console);
      if (options.reporter === false || added.has(vitest)) return;
      added.add(vitest);
      vitest.config.reporters.push(new RetraceReporter(() => run) satisfies Reporter);
    },
    load(id) {
      if (!isSpecFile(id)) return null;
      const file = id.split('?')[0] ?? id;
      return (
        invalidSpecModule(file, context) ??
        `import { defineSpecSuite } from ${JSON.stringify(SUITE_MODULE)};\ndefineSpecSuite(${JSON.stringify(file)});\n`
      );
    },
  };
}
