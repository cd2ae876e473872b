/**
 * The main-process reporter: collects each goal's verdict (sent from its worker as test meta),
 * then writes `reports/summary.json` and appends the run history. Goals whose test never
 * reported a verdict (a spec file that failed to load, a crashed worker) are reported as broken.
 */
import type { Reporter, TestModule, TestCase } from 'vitest/node';
import type { Verdict } from '../domain.ts';
import { totalsOf, writeSummary, type Summary } from '../report/summary.ts';
import { appendHistory, HISTORY_VERSION, type HistoryRecord } from '../report/history.ts';
import type { RunContext } from './context.ts';

export interface GoalMeta {
  readonly verdict: Verdict;
  readonly baselines: readonly { readonly description: string; readonly baseline: string }[];
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
}

const brokenVerdict = (spec: string, goal: string, message: string): Verdict => ({
  spec, goal, status: 'broken', mode: 'replayed', modelCalls: 0, durationMs: 0, actions: [], category: 'infrastructure', message,
});

export class RetraceReporter implements Reporter {
  private readonly started = Date.now();
  result: RunResult | undefined;

  constructor(private readonly context: () => RunContext) {}

  async onTestRunEnd(modules: ReadonlyArray<TestModule>): Promise<void> {
    const context = this.context();
    const goals: Verdict[] = [];
    const records: HistoryRecord[] = [];
    const flaky: { spec: string; goal: string }[] = [];
    const newBaselines: string[] = [];
    for (const module of modules) {
      const tests: TestCase[] = [...module.children.allTests()];
      if (tests.length === 0 && module.state() === 'failed') {
        const message = module.errors().map((e) => e.message).join('\n');
        goals.push(brokenVerdict(module.relativeModuleId, '(spec)', message));
        continue;
      }
      for (const test of tests) {
        const meta = test.meta().retrace;
        const state = test.result().state;
        if (state === 'skipped' || state === 'pending') continue;
        const verdict = meta?.verdict ?? brokenVerdict(module.relativeModuleId, test.name, test.result().errors?.map((e) => e.message).join('\n') ?? 'the goal reported no verdict');
        goals.push(verdict);
        const retries = test.diagnostic()?.retryCount ?? 0;
        const isFlaky = verdict.status === 'passed' && (retries > 0 || verdict.mode === 'healed');
        if (isFlaky) flaky.push({ spec: verdict.spec, goal: verdict.goal });
        for (const b of meta?.baselines ?? []) if (b.baseline === 'new') newBaselines.push(`${verdict.spec}#${verdict.goal} ${b.description}`);
        records.push({
          v: HISTORY_VERSION,
          runId: context.runId,
          ts: new Date().toISOString(),
          spec: verdict.spec,
          goal: verdict.goal,
          status: verdict.status,
          mode: verdict.mode,
          modelCalls: verdict.modelCalls,
          durationMs: verdict.durationMs,
          retries,
          healed: verdict.mode === 'healed',
          ...(verdict.failedAction !== undefined ? { failedAction: verdict.failedAction } : {}),
          ...(verdict.category ? { category: verdict.category } : {}),
          ...(verdict.message ? { reason: verdict.message.split('\n')[0] } : {}),
        });
      }
    }
    const summary: Summary = { totals: totalsOf(goals, Date.now() - this.started), goals };
    await writeSummary(context.options.reports, summary);
    if (records.length > 0) await appendHistory(context.options.reports, records);
    this.result = { summary, flaky, newBaselines };
  }
}
