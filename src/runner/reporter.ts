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
import { workersDir } from './worker-desktop.ts';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:net';

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
  /** Errors vitest saw outside any test (a worker that died): the run is broken. */
  readonly unhandledErrors: number;
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
  const alive = await Promise.all(names.map(answers));
  return names.filter((_, i) => !alive[i]);
}

const answers = (display: string): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(`/tmp/.X11-unix/X${display.replace(/^:/, '').split('.')[0]}`);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

const brokenVerdict = (spec: string, goal: string, message: string): Verdict => ({
  spec, goal, status: 'broken', mode: 'replayed', modelCalls: 0, durationMs: 0, actions: [], category: 'infrastructure', message,
});

export class RetraceReporter implements Reporter {
  private readonly started = Date.now();
  result: RunResult | undefined;

  constructor(private readonly context: () => RunContext) {}

  async onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<{ readonly message?: string }> = []): Promise<void> {
    // A worker that died (an X server gone while it was reading the screen ends the process)
    // leaves its goals without a verdict: they are broken, and the run says why.
    const context = this.context();
    const dead = errors.length > 0 ? await deadDisplays(context.options.reports) : [];
    const unhandled = [...dead.map((d) => `the X server ${d} died`), ...errors.map((e) => e.message ?? String(e))].join('\n');
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
        if (state === 'skipped') continue;
        const why = test.result().errors?.map((e) => e.message).join('\n') || unhandled || 'the goal reported no verdict';
        const verdict = meta?.verdict ?? brokenVerdict(module.relativeModuleId, test.name, `the goal ended without a verdict (its worker died?): ${why}`);
        goals.push(verdict);
        // A goal run again by vitest, or an action done again by the replay: either is a retry.
        const actionRetries = verdict.actions.reduce((n, a) => n + a.retries, 0);
        const retries = (test.diagnostic()?.retryCount ?? 0) + actionRetries;
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
    rmSync(workersDir(context.options.reports), { recursive: true, force: true });
    const summary: Summary = { totals: totalsOf(goals, Date.now() - this.started), goals };
    await writeSummary(context.options.reports, summary);
    if (records.length > 0) await appendHistory(context.options.reports, records);
    this.result = { summary, flaky, newBaselines, unhandledErrors: errors.length };
  }
}
