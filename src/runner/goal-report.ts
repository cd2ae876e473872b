/** Hands a goal's verdict and evidence to the Allure report, from inside its vitest test. */
import type { Verdict } from '../domain.ts';
import type { Spec, GoalSpec } from '../spec-file/types.ts';
import type { AssertionResult } from '../assert/types.ts';
import { reportGoalToAllure } from '../report/allure-goal.ts';
import type { GoalEvidence } from './evidence.ts';
import { describeForDisplay } from '../spec-file/interpolate.ts';
import { describeAction } from '../brain/describe.ts';
import { computePathStats, type PathStats } from '../paths/stats.ts';
import { readHistory } from '../report/history.ts';

/** The statistics of one path from the run history before this run (undefined when it never ran). */
export async function pathStatsOf(reportsDir: string, spec: string, goal: string): Promise<PathStats | undefined> {
  const history = (await readHistory(reportsDir)).filter((r) => r.spec === spec && r.goal === goal);
  return computePathStats(history)[0];
}

const goalText = (goal: GoalSpec): string =>
  goal.steps ? goal.steps.map(describeAction).join(', ') : describeForDisplay(goal.goal ?? '');

export async function recordGoalReport(
  spec: Spec,
  goal: GoalSpec,
  verdict: Verdict,
  assertions: readonly AssertionResult[],
  evidence: GoalEvidence,
  extra: { readonly planner?: string; readonly retries: number; readonly pathStats?: PathStats },
): Promise<void> {
  await reportGoalToAllure({
    verdict,
    specName: spec.name,
    app: describeForDisplay(spec.app.launch),
    goalText: goalText(goal),
    ...(extra.planner ? { planner: extra.planner } : {}),
    ...(extra.pathStats ? { pathStats: extra.pathStats } : {}),
    retries: extra.retries,
    actionImages: evidence.images(verdict.actions.length),
    assertions: assertions.map((a) => ({
      description: a.description,
      passed: a.ok,
      message: a.message,
      ...(a.read !== undefined ? { actual: a.read } : {}),
      ...(a.images ? { diff: a.images } : {}),
      ...(a.written ? { newBaseline: a.written } : {}),
    })),
  });
}
