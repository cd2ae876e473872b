/**
 * The main-process reporter: collects each goal's verdict (sent from its worker as test meta),
 * then writes `reports/summary.json`, and the files that describe the run's Allure results
 * (categories, environment). The workers have already written each attempt's history line and
 * Allure result; goals whose test never reported a verdict (a spec file that failed to load, a
 * crashed worker) are reported as broken here, history and Allure included.
 *
 * Only YAML specs are goals: ordinary test files in the same vitest run are left alone.
 */
import type { Reporter, TestModule, TestCase, TestSpecification } from 'vitest/node';
import type { Verdict } from '../domain.ts';
import { knownFault } from '../errors.ts';
import { totalsOf, writeSummary, type Summary } from '../report/summary.ts';
import { appendHistory, recordOfVerdict } from '../report/history.ts';
import { writeGoalResult } from '../report/allure-goal.ts';
import { allureResultsDir, retraceEnvironment, writeRunMetadata } from '../report/allure-writer.ts';
import { tracesDir } from '../report/trace.ts';
import type { RunContext } from './context.ts';
import { workersDir } from './worker-desktop.ts';
import { runSpecOf, type RunSpec } from './run-specs.ts';
import { isSpecFile } from './spec-module.ts';
import { runStartup, type DisplayOpening } from './goal-clock.ts';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { displayAnswers } from '../desktop/index.ts';

export interface GoalMeta {
  readonly verdict: Verdict;
  readonly baselines: readonly { readonly description: string; readonly baseline: string }[];
  /** When the goal's worker began and finished opening its display (epoch ms), for the run's start-up split. */
  readonly display?: DisplayOpening;
}

declare module 'vitest' {
  interface TaskMeta {
    retrace?: GoalMeta;
  }
}

export interface RunResult {
  readonly summary: Summary;
  /** Goals flagged flaky: passed on a retry, or healed. */
  readonly flaky: readonly { readonly spec: string; readonly goal: string }[];
  /** Baselines this run wrote. */
  readonly newBaselines: readonly string[];
  /** Broken goals no worker reported (a spec that does not load, a worker or display that failed): no console line said why. */
  readonly unreported: readonly Verdict[];
  /** Errors vitest saw outside any test (a worker that died): the run is broken. */
  readonly unhandledErrors: number;
  /** Goals broken by invalid input found once the app was up (a step's point outside its window). */
  readonly invalidInput: number;
}

/** Displays the workers noted that no longer answer on their socket. */
async function deadDisplays(reportsDir: string): Promise<string[]> {
  const dir = workersDir(reportsDir);
  if (!existsSync(dir)) return [];
  const names = readdirSync(dir).flatMap((file) => {
    try {
      return [(JSON.parse(readFileSync(join(dir, file), 'utf8')) as { display: string }).display];
    } catch {
      return [];
    }
  });
  const alive = await Promise.all(names.map(displayAnswers));
  return names.filter((_, i) => !alive[i]);
}

const brokenVerdict = (spec: string, goal: string, message: string): Verdict => ({
  spec,
  goal,
  status: 'broken',
  mode: 'replayed',
  modelCalls: 0,
  durationMs: 0,
  actions: [],
  category: 'infrastructure',
  message,
});

export class RetraceReporter implements Reporter {
  /** The engine's start: the reporter is made with it. */
  private readonly created = Date.now();
  private started = Date.now();
  /** The spec of each spec module of the run, by module id (undefined: it does not load). */
  private readonly specs = new Map<string, RunSpec | undefined>();
  result: RunResult | undefined;
  /** A fault of the environment met while writing the run's reports (a full disk): the CLI says it in one line. */
  fault: Error | undefined;

  constructor(private readonly context: () => RunContext) {}

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.started = Date.now();
    const context = this.context();
    // Allure results are per run; the history that outlives runs is in reports/history/.
    rmSync(allureResultsDir(context.options.reports), { recursive: true, force: true });
    // So are traces: one left from an earlier failure would tell of a run that is not this one.
    rmSync(tracesDir(context.options.reports), { recursive: true, force: true });
    this.specs.clear();
    for (const s of specifications) if (isSpecFile(s.moduleId)) this.specs.set(s.moduleId, runSpecOf(s.moduleId, context));
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<{ readonly message?: string }> = []): Promise<void> {
    try {
      await this.endRun(modules, errors);
    } catch (error) {
      // Thrown from here, vitest would print it as an "Unhandled Error" with its stack frames.
      const known = knownFault(error, this.context().options.reports);
      if (known === undefined) throw error;
      this.fault = known;
    }
  }

  private async endRun(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<{ readonly message?: string }>): Promise<void> {
    // A worker that died (an X server gone while it was reading the screen ends the process)
    // leaves its goals without a verdict: they are broken, and the run says why.
    const context = this.context();
    const { reports } = context.options;
    const dead = errors.length > 0 ? await deadDisplays(reports) : [];
    const unhandled = [...dead.map((d) => `the X server ${d} died`), ...errors.map((e) => e.message ?? String(e))].join('\n');
    const goals: Verdict[] = [];
    const flaky: { spec: string; goal: string }[] = [];
    const newBaselines: string[] = [];
    let invalidInput = 0;
    /** Broken here, in the main process: their workers could not write their history or Allure result. */
    const orphans: { verdict: Verdict; retries: number; stop: number }[] = [];
    let display: GoalMeta['display'];
    for (const module of modules.filter((m) => isSpecFile(m.moduleId))) {
      const tests: TestCase[] = [...module.children.allTests()];
      // A spec that failed to load, or whose setup failed before any goal ran.
      if (module.state() === 'failed' && tests.every((t) => t.result().state === 'skipped')) {
        const message = module
          .errors()
          .map((e) => e.message)
          .join('\n');
        const verdict = brokenVerdict(module.relativeModuleId, '(spec)', message);
        goals.push(verdict);
        orphans.push({ verdict, retries: 0, stop: Date.now() });
        continue;
      }
      for (const test of tests) {
        const meta = test.meta().retrace;
        // The first display opened tells the start-up; later ones opened while goals already ran.
        if (meta?.display && (display === undefined || meta.display.from < display.from)) display = meta.display;
        const state = test.result().state;
        if (state === 'skipped') continue;
        const diagnostic = test.diagnostic();
        const retries = diagnostic?.retryCount ?? 0;
        let verdict = meta?.verdict;
        if (!verdict) {
          // The test's own error when it threw one (the worker's display did not open), else
          // whatever the run saw go wrong around it.
          const own = test
            .result()
            .errors?.map((e) => e.message)
            .join('\n');
          const why = own || `the goal ended without a verdict (its worker died?): ${unhandled || 'no error was reported'}`;
          const spec = this.specs.get(module.moduleId)?.id ?? module.relativeModuleId;
          verdict = { ...brokenVerdict(spec, test.name, why), durationMs: Math.round(diagnostic?.duration ?? 0) };
          orphans.push({ verdict, retries, stop: (diagnostic?.startTime ?? Date.now()) + verdict.durationMs });
        }
        goals.push(verdict);
        if (test.result().errors?.some((e) => e.name === 'InvalidInputError')) invalidInput++;
        // A goal run again by vitest, or an action done again by the replay: either makes it flaky.
        const actionRetries = verdict.actions.reduce((n, a) => n + a.retries, 0);
        if (verdict.status === 'passed' && (retries + actionRetries > 0 || verdict.mode === 'healed'))
          flaky.push({ spec: verdict.spec, goal: verdict.goal });
        for (const b of meta?.baselines ?? [])
          if (b.baseline === 'new') newBaselines.push(`${verdict.spec}#${verdict.goal} ${b.description}`);
      }
    }
    rmSync(workersDir(reports), { recursive: true, force: true });
    const startup = runStartup(context.startedAt, this.created, display);
    const summary: Summary = { totals: totalsOf(goals, Date.now() - this.started), ...(startup ? { startup } : {}), goals };
    await writeSummary(reports, summary);
    await this.reportOrphans(orphans);
    const specs = [...this.specs.values()].filter((s): s is RunSpec => s !== undefined);
    const [width, height] = context.options.display.size;
    writeRunMetadata(
      allureResultsDir(reports),
      retraceEnvironment({ display: { width, height }, appCommands: [...new Set(specs.map((s) => s.app))] }),
    );
    this.result = { summary, flaky, newBaselines, unreported: orphans.map((o) => o.verdict), unhandledErrors: errors.length, invalidInput };
  }

  private async reportOrphans(orphans: readonly { verdict: Verdict; retries: number; stop: number }[]): Promise<void> {
    const context = this.context();
    const specs = [...this.specs.values()];
    await appendHistory(
      context.options.reports,
      orphans
        .filter((o) => o.verdict.goal !== '(spec)')
        .map((o) => recordOfVerdict(o.verdict, { runId: context.runId, retries: o.retries })),
    );
    for (const { verdict, retries, stop } of orphans) {
      const spec = specs.find((s) => s?.id === verdict.spec);
      writeGoalResult(allureResultsDir(context.options.reports), {
        verdict,
        specName: spec?.name ?? verdict.spec,
        app: spec?.app ?? '',
        retries,
        stop,
      });
    }
  }
}
