/**
 * The vitest plugin that makes a YAML spec a test file: `specs/calc.yaml` becomes a module that
 * defines one test per goal. `retrace run` uses it, and so can a project's own vitest config:
 *
 *   import { retrace } from 'retrace/vitest';
 *   export default defineConfig({ plugins: [retrace()] });
 */
import type { Plugin } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import type { RunContext } from './context.ts';
import { RetraceReporter } from './reporter.ts';
import AllureVitestReporter from 'allure-vitest/reporter';
import { extname, join } from 'node:path';

// Vitest loads these by file name: `.ts` in the repository, which runs from source, and `.js` in
// the installed package, which is compiled (the compiler rewrites imports, not these strings).
const sibling = (name: string): string => fileURLToPath(new URL(`./${name}${extname(import.meta.url)}`, import.meta.url));
const SUITE_MODULE = sibling('suite');
const WORKER_SETUP = sibling('worker-setup');
// Resolved here, so a project without its own node_modules (a global install) still finds it.
const ALLURE_SETUP = fileURLToPath(import.meta.resolve('allure-vitest/setup'));

export const isSpecFile = (id: string): boolean => /\.ya?ml$/i.test(id.split('?')[0] ?? '') && !id.includes('/node_modules/');

export interface RetracePluginOptions {
  /** Spec files vitest collects. @default ['specs/**\/*.yaml'] */
  readonly include?: readonly string[];
  /** The run's settings; when absent they are resolved from retrace.config.yaml and the environment. */
  readonly context?: RunContext;
  /** Add the reporter that writes summary.json and the run history. @default true */
  readonly reporter?: boolean;
}

export function retrace(options: RetracePluginOptions = {}): Plugin {
  return {
    name: 'retrace:spec',
    enforce: 'pre',
    async config() {
      const context = options.context ?? (await (await import('./default-context.ts')).defaultRunContext());
      const allureResults = join(context.options.reports, 'allure-results');
      return {
        test: {
          include: [...(options.include ?? ['specs/**/*.yaml'])],
          setupFiles: [ALLURE_SETUP, WORKER_SETUP],
          provide: { retrace: context },
          pool: 'forks',
          ...(options.reporter === false
            ? {}
            : { reporters: ['default', new RetraceReporter(() => context), new AllureVitestReporter({ resultsDir: allureResults })] }),
        },
      };
    },
    load(id) {
      if (!isSpecFile(id)) return null;
      const file = id.split('?')[0] ?? id;
      return `import { defineSpecSuite } from ${JSON.stringify(SUITE_MODULE)};\ndefineSpecSuite(${JSON.stringify(file)});\n`;
    },
  };
}
