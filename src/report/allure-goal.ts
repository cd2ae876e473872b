/**
 * Reports one goal run to Allure from INSIDE the running vitest test (allure-vitest's setup file
 * must be loaded: it installs the runtime that `allure-js-commons` talks to; outside a test the
 * calls are no-ops).
 *
 * One Allure test per goal: labels epic = spec, feature = app, story = goal; parameters for mode,
 * planner and the path's success rate (all excluded from Allure's history id, since they change
 * between runs of the same goal); one step per action with before/after images; one step per
 * expectation, with an image-diff attachment when a screenshot differed.
 *
 * This function never throws for a failed goal: the runner throws its GoalFailure or
 * InfrastructureError AFTER calling it, so the report is complete whatever the verdict.
 */
import * as allure from 'allure-js-commons';
import { ContentType, Status, type ImageDiffAttachment } from 'allure-js-commons';
import type { ActionReport, Verdict } from '../domain.ts';
import type { PathStats } from '../paths/stats.ts';
import { ATTEMPT_STEP, GOAL_LABEL, SPEC_LABEL, allureIdOf, failureMarker } from './allure-contract.ts';

/** PNG bytes of the window around one action (masked already for secret-typing actions). */
export interface ActionImages {
  readonly before?: Uint8Array;
  readonly after?: Uint8Array;
}

/** PNG bytes of a failed screenshot comparison, as pixelmatch produced them. */
export interface ScreenshotDiffImages {
  readonly expected: Uint8Array;
  readonly actual: Uint8Array;
  readonly diff: Uint8Array;
}

/** The outcome of one `expect:` entry. */
export interface AssertionOutcome {
  /** Short, secret-free: `text "84"`, `screenshot multiply`, `absent "Error"`. */
  readonly description: string;
  readonly passed: boolean;
  /** Why it failed, with numbers: "1204 pixels (ratio 0.01 of all image pixels) are different". */
  readonly message?: string;
  readonly expected?: string;
  readonly actual?: string;
  /** For a failed screenshot assertion. */
  readonly diff?: ScreenshotDiffImages;
  /** A baseline this run wrote: reported as new, never silently as a plain pass. */
  readonly newBaseline?: Uint8Array;
}

export interface GoalReportInput {
  readonly verdict: Verdict;
  /** Display name of the spec (its `name:`); the spec path is in `verdict.spec`. */
  readonly specName: string;
  /** The application under test (e.g. the `app.launch` command's program). */
  readonly app: string;
  /** The goal's text or a rendering of its steps, secrets masked. */
  readonly goalText?: string;
  readonly planner?: string;
  readonly model?: string;
  /** Statistics of the path before this run, from the history. */
  readonly pathStats?: Pick<PathStats, 'successRate' | 'recentSuccessRate' | 'recentRuns' | 'runs'>;
  /** Index-aligned with `verdict.actions`. */
  readonly actionImages?: readonly (ActionImages | undefined)[];
  readonly assertions?: readonly AssertionOutcome[];
  /** Attempts beyond the first. */
  readonly retries?: number;
  /** URL of the path's storyboard page, relative to the Allure report. */
  readonly storyboard?: string;
}

/** Thrown inside a step to make Allure mark it failed: `expected`/`actual` are what it looks for. */
class StepFailed extends Error {
  constructor(
    message: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(message);
    this.name = 'StepFailed';
  }
}

/** Thrown inside a step to make Allure mark it broken (no assertion-like fields). */
class StepBroken extends Error {
  override name = 'StepBroken';
}

type StepSignal = StepFailed | StepBroken;

/** Runs an Allure step whose body may end it failed or broken by throwing a StepSignal. */
async function reportStep(name: string, body: (ctx: allure.StepContext) => Promise<StepSignal | undefined>): Promise<void> {
  try {
    await allure.step(name, async (ctx) => {
      const signal = await body(ctx);
      if (signal) throw signal;
    });
  } catch (error) {
    if (!(error instanceof StepFailed) && !(error instanceof StepBroken)) throw error;
  }
}

const ALLURE_STATUS: Readonly<Record<Verdict['status'], Status>> = {
  passed: Status.PASSED,
  failed: Status.FAILED,
  broken: Status.BROKEN,
  skipped: Status.SKIPPED,
};

const percent = (rate: number): string => `${Math.round(rate * 100)}%`;

const pngAttachment = async (name: string, png: Uint8Array | undefined): Promise<void> => {
  if (png) await allure.attachment(name, Buffer.from(png), { contentType: ContentType.PNG, fileExtension: '.png' });
};

const dataUri = (png: Uint8Array): string => `data:image/png;base64,${Buffer.from(png).toString('base64')}`;

/** Allure's image-diff viewer (both Allure 2 and 3) reads this JSON: data URIs of three PNGs. */
export function imageDiffJson(name: string, images: ScreenshotDiffImages): string {
  const body: ImageDiffAttachment = {
    name,
    expected: dataUri(images.expected),
    actual: dataUri(images.actual),
    diff: dataUri(images.diff),
  };
  return JSON.stringify(body);
}

/** Allure numbers the steps itself, and actions come first, so step N is action N. */
function actionStepName(action: ActionReport): string {
  const healed = action.resolvedBy === 'recorded' ? '' : ` — found by ${action.resolvedBy}`;
  return `${action.description ?? action.kind}${healed}`;
}

function actionSignal(verdict: Verdict, action: ActionReport, index: number): StepSignal | undefined {
  const failedHere = verdict.failedAction === index;
  if (failedHere && (verdict.status === 'broken' || verdict.category === 'infrastructure')) {
    return new StepBroken(verdict.message ?? `${failureMarker('infrastructure')} action ${index + 1} could not run`);
  }
  if (failedHere) {
    return new StepFailed(
      verdict.message ?? `action ${index + 1} failed`,
      verdict.category === 'target-not-found' ? 'target found' : 'recorded effect',
      verdict.category === 'target-not-found' ? 'target not found' : 'effect not seen',
    );
  }
  if (!action.verified) {
    return new StepFailed(`${failureMarker('effect-not-verified')} action ${index + 1}`, 'recorded effect', 'effect not seen');
  }
  return undefined;
}

async function reportAction(verdict: Verdict, action: ActionReport, index: number, images?: ActionImages): Promise<void> {
  await reportStep(actionStepName(action), async (ctx) => {
    await ctx.parameter('resolvedBy', action.resolvedBy);
    await ctx.parameter('settleMs', String(action.settleMs));
    await ctx.parameter('verified', String(action.verified));
    await ctx.parameter('ms', String(action.ms));
    await pngAttachment('before', images?.before);
    await pngAttachment('after', images?.after);
    return actionSignal(verdict, action, index);
  });
}

async function reportAssertion(assertion: AssertionOutcome): Promise<void> {
  const suffix = assertion.newBaseline ? ' — new baseline written' : '';
  await reportStep(`expect ${assertion.description}${suffix}`, async () => {
    await pngAttachment('new baseline', assertion.newBaseline);
    if (assertion.diff) {
      await allure.attachment('screenshot diff', imageDiffJson(assertion.description, assertion.diff), {
        contentType: ContentType.IMAGEDIFF,
        fileExtension: '.imagediff',
      });
    }
    if (assertion.passed) return undefined;
    return new StepFailed(
      assertion.message ?? `${failureMarker('expectation-failed')} ${assertion.description}`,
      assertion.expected ?? assertion.description,
      assertion.actual ?? 'not met',
    );
  });
}

function goalDescription(input: GoalReportInput): string {
  const { verdict } = input;
  const lines = [
    input.goalText ? `**Goal:** ${input.goalText}` : undefined,
    `**Spec:** \`${verdict.spec}\` · **mode:** ${verdict.mode} · **model calls:** ${verdict.modelCalls} · ` +
      `**duration:** ${verdict.durationMs} ms`,
    verdict.stopReason ? `**Stopped:** ${verdict.stopReason}` : undefined,
    verdict.message ? `**Verdict:** ${verdict.message}` : undefined,
  ];
  return lines.filter((line) => line !== undefined).join('\n\n');
}

/** Reports a goal run to the current Allure test. Call it once per goal, inside its vitest test. */
export async function reportGoalToAllure(input: GoalReportInput): Promise<void> {
  const { verdict } = input;
  const id = allureIdOf(verdict.spec, verdict.goal);
  // allure-vitest piles every attempt of a retried test into one result; this marker lets
  // allure-post.ts cut them apart again (and it removes the marker).
  await allure.logStep(ATTEMPT_STEP, ALLURE_STATUS[verdict.status], verdict.message ? new Error(verdict.message) : undefined);
  await allure.epic(input.specName);
  await allure.feature(input.app);
  await allure.story(verdict.goal);
  await allure.labels({ name: SPEC_LABEL, value: verdict.spec }, { name: GOAL_LABEL, value: verdict.goal });
  await allure.historyId(id);
  await allure.testCaseId(id);
  await allure.description(goalDescription(input));

  // Volatile: the same goal is learned once, replayed or healed later; excluded from history ids.
  const volatile = { excluded: true } as const;
  await allure.parameter('mode', verdict.mode, volatile);
  if (input.planner) {
    await allure.parameter('planner', input.model ? `${input.planner} (${input.model})` : input.planner, volatile);
  }
  if (input.pathStats && input.pathStats.recentRuns > 0) {
    const s = input.pathStats;
    await allure.parameter(
      'path success rate',
      `${percent(s.recentSuccessRate)} of last ${s.recentRuns} (${percent(s.successRate)} of ${s.runs} overall)`,
      volatile,
    );
  }
  if (input.retries) await allure.parameter('retries', String(input.retries), volatile);
  if (input.storyboard) await allure.link(input.storyboard, 'storyboard', 'storyboard');

  for (const [index, action] of verdict.actions.entries()) {
    await reportAction(verdict, action, index, input.actionImages?.[index]);
  }
  for (const assertion of input.assertions ?? []) await reportAssertion(assertion);

  // A failure that no step shows (the app did not start, the learning loop gave up): one step
  // that says so, so the report's step list ends where the run ended.
  const shownByStep =
    verdict.failedAction !== undefined ||
    verdict.actions.some((a) => !a.verified) ||
    (input.assertions ?? []).some((a) => !a.passed);
  if ((verdict.status === 'failed' || verdict.status === 'broken') && !shownByStep) {
    const status = verdict.status === 'broken' ? Status.BROKEN : Status.FAILED;
    await allure.logStep(verdict.message ?? `goal ${verdict.status}`, status);
  }
}
