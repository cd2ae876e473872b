/** Hands a goal's verdict and evidence to the Allure report, from inside its vitest test. */
import { join, relative, sep } from 'node:path';
import type { ActionReport, Frame, Verdict } from '../domain.ts';
import { PathStore } from '../paths/store.ts';
import { storyboardFile, writeStoryboard } from '../report/storyboard.ts';
import { ALLURE_REPORT_DIR } from '../report/allure-html.ts';
import type { Spec, GoalSpec } from '../spec-file/types.ts';
import type { AssertionResult } from '../assert/types.ts';
import { encodePng, scale } from '../vision/frame.ts';
import { reportGoalToAllure, type ActionImages } from '../report/allure-goal.ts';
import { describeForDisplay } from '../spec-file/interpolate.ts';
import { describeAction } from '../brain/describe.ts';
import { computePathStats, type PathStats } from '../paths/stats.ts';
import { readHistory } from '../report/history.ts';

/** The statistics of one path from the run history before this run (undefined when it never ran). */
export async function pathStatsOf(reportsDir: string, spec: string, goal: string): Promise<PathStats | undefined> {
  const history = (await readHistory(reportsDir)).filter((r) => r.spec === spec && r.goal === goal);
  return computePathStats(history)[0];
}

/** Before/after images in the report are thumbnails: enough to see what happened, small on disk. */
const THUMBNAIL_WIDTH = 320;

/** Images gathered while a goal ran: the window before and after each action, by action index. */
export class GoalEvidence {
  private readonly frames = new Map<number, { before: Frame; after: Frame }>();

  readonly collect = (index: number, before: Frame, after: Frame): void => {
    this.frames.set(index, { before, after });
  };

  images(count: number): (ActionImages | undefined)[] {
    return Array.from({ length: count }, (_, i) => {
      const pair = this.frames.get(i);
      return pair ? { before: thumbnail(pair.before), after: thumbnail(pair.after) } : undefined;
    });
  }
}

function thumbnail(frame: Frame): Uint8Array {
  if (frame.width <= THUMBNAIL_WIDTH) return encodePng(frame);
  const height = Math.max(1, Math.round((frame.height * THUMBNAIL_WIDTH) / frame.width));
  return encodePng(scale(frame, THUMBNAIL_WIDTH, height));
}

const goalText = (goal: GoalSpec): string =>
  goal.steps ? goal.steps.map(describeAction).join(', ') : describeForDisplay(goal.goal ?? '');

export async function recordGoalReport(
  spec: Spec,
  goal: GoalSpec,
  verdict: Verdict,
  assertions: readonly AssertionResult[],
  evidence: GoalEvidence,
  extra: { readonly planner?: string; readonly retries: number; readonly pathStats?: PathStats; readonly storyboard?: string },
): Promise<void> {
  await reportGoalToAllure({
    verdict,
    specName: spec.name,
    app: describeForDisplay(spec.app.launch),
    goalText: goalText(goal),
    ...(extra.planner ? { planner: extra.planner } : {}),
    ...(extra.pathStats ? { pathStats: extra.pathStats } : {}),
    retries: extra.retries,
    ...(extra.storyboard ? { storyboard: extra.storyboard } : {}),
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

/**
 * Writes the storyboard of the goal's path as it stands after this run (with a healed proposal,
 * when one was made) and returns its URL relative to the Allure report; undefined without a path.
 */
export function goalStoryboard(
  options: { readonly paths: string; readonly reports: string },
  spec: string,
  goal: string,
  extra: { readonly lastRun: readonly ActionReport[]; readonly stats?: PathStats },
): string | undefined {
  const file = storyboardFile(options.reports, spec, goal);
  const written = writeStoryboard(new PathStore(options.paths), spec, goal, file, { lastRun: extra.lastRun, ...(extra.stats ? { stats: extra.stats } : {}) });
  return written ? relative(join(options.reports, ALLURE_REPORT_DIR), file).split(sep).join('/') : undefined;
}
