/**
 * Where Allure results go: `reports/allure-results/`, written through allure-js-commons's
 * ReporterRuntime with a Writer whose every file is written atomically (a reader, or a run killed
 * half-way, sees a whole file or none). The results of a goal are written by its worker when the
 * attempt ends (allure-goal.ts); the files that describe the whole run, categories.json and
 * environment.properties, by the main process at the end of the run (writeRunMetadata).
 */
import { readFileSync } from 'node:fs';
import { release, type as osType } from 'node:os';
import { join } from 'node:path';
import type { Globals, Status, TestResult, TestResultContainer } from 'allure-js-commons';
import { ReporterRuntime, stringifyEnvInfo, type Writer } from 'allure-js-commons/sdk/reporter';
import type { Category, EnvironmentInfo } from 'allure-js-commons/sdk';
import { writeFileAtomic } from '../paths/atomic.ts';
import { RETRACE_CATEGORIES } from './allure-contract.ts';
import { isObject } from '../spec-file/check-value.ts';

export const allureResultsDir = (reportsDir: string): string => join(reportsDir, 'allure-results');

/** allure-js-commons's Writer, each file written atomically. */
export class AtomicResultsWriter implements Writer {
  constructor(private readonly dir: string) {}

  private json(name: string, data: unknown): void {
    writeFileAtomic(join(this.dir, name), JSON.stringify(data));
  }

  writeResult(result: TestResult): void {
    this.json(`${result.uuid}-result.json`, result);
  }

  writeGroup(result: TestResultContainer): void {
    this.json(`${result.uuid}-container.json`, result);
  }

  writeAttachment(distFileName: string, content: Buffer): void {
    writeFileAtomic(join(this.dir, distFileName), content);
  }

  writeAttachmentFromPath(distFileName: string, from: string): void {
    writeFileAtomic(join(this.dir, distFileName), readFileSync(from));
  }

  writeEnvironmentInfo(info: EnvironmentInfo): void {
    writeFileAtomic(join(this.dir, 'environment.properties'), `${stringifyEnvInfo(info)}\n`);
  }

  writeCategoriesDefinitions(categories: Category[]): void {
    writeFileAtomic(join(this.dir, 'categories.json'), `${JSON.stringify(categories, null, 2)}\n`);
  }

  writeGlobals(distFileName: string, info: Globals): void {
    this.json(distFileName, info);
  }
}

const readPackageVersion = (): string => {
  try {
    // Two folders below the package's root, from source (src/report/) or bundled (dist/runner/, dist/chunks/).
    const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    return isObject(pkg) && typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
};

export interface RetraceEnvironmentInput {
  /** Size of the display the goals ran on. */
  readonly display?: { readonly width: number; readonly height: number };
  /** The apps' launch commands (secrets masked by the caller). */
  readonly appCommands?: readonly string[];
}

/** The environment.properties entries retrace shows: display, OS, Node, app, retrace version. */
export function retraceEnvironment(input: RetraceEnvironmentInput = {}): Record<string, string> {
  return {
    ...(input.display && { 'display.size': `${input.display.width}x${input.display.height}` }),
    os: `${osType()} ${release()}`,
    'node.version': process.version,
    ...(input.appCommands && input.appCommands.length > 0 && { 'app.command': input.appCommands.join('; ') }),
    'retrace.version': readPackageVersion(),
  };
}

/** categories.json (the retrace categories) and environment.properties, for the run's results. */
export function writeRunMetadata(resultsDir: string, environment: Readonly<Record<string, string>>): void {
  const runtime = new ReporterRuntime({
    writer: new AtomicResultsWriter(resultsDir),
    environmentInfo: { ...environment },
    categories: RETRACE_CATEGORIES.map((c) => ({ ...c, matchedStatuses: [...c.matchedStatuses] as Status[] })),
  });
  runtime.writeCategoriesDefinitions();
  runtime.writeEnvironmentInfo();
}
