/**
 * Builds the Allure HTML report with Allure 3 (the npm `allure` package: no Java).
 *
 * - Input: `reports/allure-results/`, as the workers wrote them.
 * - Output: `reports/allure-report/index.html`, a single self-contained file by default, so it
 *   opens from disk (file://) and from a CI artifact without a web server. Built in a staging
 *   folder and swapped in, so a failed build keeps the previous report.
 * - History: Allure 3 keeps it in one JSONL file, `historyPath`, appended per report; it lives in
 *   `reports/history/allure-history.jsonl`, beside runs.jsonl, so caching `reports/history/` in CI
 *   keeps both.
 * - Categories: Allure 3 takes them from its config, not from categories.json; the same rules
 *   are passed.
 * - The flaky-path report, when present, is copied next to index.html and added to the report's
 *   "Global Attachments" tab, where it opens in place.
 *
 * The generator runs as a child process through its CLI, with a generated config file: the CLI is
 * Allure's public interface, and its internals (@allurereport/core) are not our dependency.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { InfrastructureError, InvalidInputError } from '../errors.ts';
import { RETRACE_CATEGORIES } from './allure-contract.ts';
import { flakyReportFiles } from './flaky-report.ts';

export const ALLURE_REPORT_DIR = 'allure-report';
export const ALLURE_HISTORY_FILE = 'history/allure-history.jsonl';

export interface AllureReportOptions {
  readonly reportsDir: string;
  /** Results to read. @default [`<reportsDir>/allure-results`] */
  readonly resultsDirs?: readonly string[];
  /** @default "retrace" */
  readonly reportName?: string;
  /** One self-contained index.html instead of index.html + data/. @default true */
  readonly singleFile?: boolean;
  /** How many past reports Allure's history keeps. @default 100 */
  readonly historyLimit?: number;
  /** Kill the generator after this long. @default 120000 */
  readonly timeoutMs?: number;
}

/** The Allure 3 config we generate (a subset of `allure`'s Config, as JSON). */
interface AllureJsonConfig {
  readonly name: string;
  readonly output: string;
  readonly historyPath: string;
  readonly historyLimit: number;
  readonly categories: typeof RETRACE_CATEGORIES;
  readonly globalAttachments?: readonly string[];
  readonly plugins: {
    readonly awesome: {
      readonly options: {
        readonly reportName: string;
        readonly singleFile: boolean;
        readonly groupBy: readonly string[];
        readonly stepTreeExpansion: 'collapsed' | 'expand_failed_only' | 'expanded';
      };
    };
  };
}

/** `node_modules/allure/cli.js`, found from the package's main entry (its exports hide the rest). */
function allureCliPath(): string {
  const require = createRequire(import.meta.url);
  let main: string;
  try {
    main = require.resolve('allure');
  } catch (cause) {
    throw new InfrastructureError('MISSING_TOOL', 'the `allure` package (Allure 3) is not installed: npm install allure', { cause });
  }
  // main is <pkg>/dist/index.js; the CLI sits at <pkg>/cli.js.
  return join(dirname(dirname(main)), 'cli.js');
}

function run(file: string, args: readonly string[], timeoutMs: number): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    execFile(file, args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(Object.assign(error, { stdout, stderr }));
      else resolvePromise({ stdout, stderr });
    });
  });
}

/**
 * Allure 3's single-file page reads its embedded data only when `window.allureReportData` exists
 * at the moment its app first asks for data, but the app's script comes before the data's. On a
 * busy machine the app asks first, fetches `widgets/….json` from disk instead, fails, and may stay
 * on its spinner (2 to 3 loads in 10 in headless Chromium on a loaded 2-core machine). With the
 * object declared before any script, the app waits until the data script says it is ready.
 */
async function declareDataFirst(index: string): Promise<void> {
  const html = await readFile(index, 'utf8');
  const at = html.indexOf('<script');
  if (at < 0 || !html.includes('allureReportDataReady')) return;
  await writeFile(
    index,
    `${html.slice(0, at)}<script>window.allureReportData = window.allureReportData || {};</script>\n${html.slice(at)}`,
  );
}

/** Generates `<reportsDir>/allure-report/` and returns the path of its index.html. */
export async function buildAllureReport(options: AllureReportOptions): Promise<string> {
  const reportsDir = resolve(options.reportsDir);
  const resultsDirs = (options.resultsDirs ?? [join(reportsDir, 'allure-results')]).map((d) => resolve(d));
  for (const dir of resultsDirs) {
    if (!existsSync(dir)) throw new InvalidInputError({ file: dir }, 'no Allure results here: run `retrace run` first');
  }
  const output = join(reportsDir, ALLURE_REPORT_DIR);
  // Generated beside the old report and swapped in at the end, so a failed build leaves the
  // previous report in place (and no stale data/ folder lingers beside a single-file one).
  const staging = join(reportsDir, `.${ALLURE_REPORT_DIR}.${process.pid}.tmp`);
  const historyPath = join(reportsDir, ALLURE_HISTORY_FILE);
  const flakyHtml = flakyReportFiles(reportsDir).html;
  const hasFlaky = existsSync(flakyHtml);

  await rm(staging, { recursive: true, force: true });
  await mkdir(dirname(historyPath), { recursive: true });
  const reportName = options.reportName ?? 'retrace';
  const config: AllureJsonConfig = {
    name: reportName,
    output: staging,
    historyPath,
    historyLimit: options.historyLimit ?? 100,
    categories: RETRACE_CATEGORIES,
    ...(hasFlaky && { globalAttachments: [flakyHtml] }),
    plugins: {
      awesome: {
        options: {
          reportName,
          singleFile: options.singleFile ?? true,
          // Tree: spec (epic) → goal tests.
          groupBy: ['epic'],
          stepTreeExpansion: 'expand_failed_only',
        },
      },
    },
  };
  const configDir = await mkdtemp(join(tmpdir(), 'retrace-allure-'));
  const configFile = join(configDir, 'allurerc.json');
  try {
    await writeFile(configFile, JSON.stringify(config, null, 2));
    await run(
      process.execPath,
      [allureCliPath(), 'generate', ...resultsDirs, '--config', configFile, '--cwd', reportsDir],
      options.timeoutMs ?? 120_000,
    );
    if (!existsSync(join(staging, 'index.html'))) throw new InfrastructureError('IO', `allure generate wrote no index.html`);
    await declareDataFirst(join(staging, 'index.html'));
    if (hasFlaky) await copyFile(flakyHtml, join(staging, 'flaky-paths.html'));
    await rm(output, { recursive: true, force: true });
    await rename(staging, output);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (error instanceof InfrastructureError) throw error;
    const { stderr = '', stdout = '' } = error as { stderr?: string; stdout?: string };
    const detail = (stderr || stdout).trim().split('\n').slice(-5).join('\n');
    throw new InfrastructureError('IO', `allure generate failed: ${detail || (error as Error).message}`, { cause: error });
  } finally {
    await rm(configDir, { recursive: true, force: true });
  }
  return join(output, 'index.html');
}
