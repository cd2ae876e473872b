/**
 * The Allure result of one goal attempt, written by the worker that ran it as soon as the attempt
 * ends, through allure-js-commons's ReporterRuntime, with the times the run observed: the test
 * spans the attempt, each action's step spans that action (allure-timeline.ts). Nothing is
 * rewritten after the run.
 *
 * One Allure test per goal: labels epic = spec, feature = app, story = goal; parameters for mode,
 * planner and the path's success rate (all excluded from Allure's history id, since they change
 * between runs of the same goal); one step per action with before/after images, including the
 * action that failed before it could act (a target not found); one step per expectation, with an
 * image-diff attachment when a screenshot differed. Each attempt of a retried goal is a result of
 * its own with the goal's history id, which Allure shows as the test's retries; the attempt that
 * passed after a retry, or by healing, is flagged flaky. Failed means a product mismatch, broken
 * an infrastructure fault, straight from the verdict.
 */
import { ContentType, Stage, Status, type ImageDiffAttachment, type Label, type StatusDetails } from 'allure-js-commons';
import { ReporterRuntime, getHostLabel, getLanguageLabel, getThreadLabel } from 'allure-js-commons/sdk/reporter';
import type { ActionReport, Verdict } from '../domain.ts';
import type { PathStats } from './stats.ts';
import { GOAL_LABEL, SPEC_LABEL, allureIdOf, failureMarker } from './allure-contract.ts';
import { actionSpans, sequentialSpans, type ActionMark, type Span } from './allure-timeline.ts';
import { AtomicResultsWriter } from './allure-writer.ts';

/** PNG bytes of the window around one action (none for an action that typed a secret). */
export interface ActionImages {
  readonly before?: Uint8Array;
  readonly after?: Uint8Array;
  /** Images that show why the action failed or what it changed that nobody recorded, boxed. */
  readonly evidence?: readonly { readonly name: string; readonly png: Uint8Array }[];
  /** An effect that did not verify: the recorded image, what was there, and their difference. */
  readonly diff?: ScreenshotDiffImages;
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
  /** A failed text check: the window it was judged on, where it read and the words it read boxed. */
  readonly judged?: Uint8Array;
  /** How long checking it took. */
  readonly ms: number;
}

/** What the run saw of one action, besides its report: when it ran, what it was, its images. */
export interface ActionEvidence extends ActionMark {
  readonly description?: string;
  readonly images?: ActionImages;
}

export interface GoalReportInput {
  readonly verdict: Verdict;
  /** Display name of the spec (its `name:`); the spec path is in `verdict.spec`. */
  readonly specName: string;
  /** The application under test (the `app.launch` command, secrets masked). */
  readonly app: string;
  /** The goal's text or a rendering of its steps, secrets masked. */
  readonly goalText?: string;
  readonly planner?: string;
  readonly model?: string;
  /** Statistics of the path before this attempt, from the history. */
  readonly pathStats?: Pick<PathStats, 'successRate' | 'recentSuccessRate' | 'recentRuns' | 'passes' | 'failures'>;
  /** By action index. */
  readonly actions?: ReadonlyMap<number, ActionEvidence>;
  readonly assertions?: readonly AssertionOutcome[];
  /** Attempts of this goal before this one, in this run. */
  readonly retries?: number;
  /** URL of the path's storyboard page, relative to the Allure report. */
  readonly storyboard?: string;
  /** The goal's trace: its page (relative to the Allure report), the command that serves it, its trace.json. */
  readonly trace?: { readonly page: string; readonly command: string; readonly json: string };
  /** When the attempt ended (ms since the epoch); it began `verdict.durationMs` before. */
  readonly stop: number;
  /** The worker that ran it, for Allure's timeline. */
  readonly thread?: string;
}

const ALLURE_STATUS: Readonly<Record<Verdict['status'], Status>> = {
  passed: Status.PASSED,
  failed: Status.FAILED,
  broken: Status.BROKEN,
  skipped: Status.SKIPPED,
};

const percent = (rate: number): string => `${Math.round(rate * 100)}%`;

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

/** The verdict's message, led by its category's marker (Allure's categories match on it). */
function markedMessage(verdict: Verdict): string | undefined {
  if (verdict.status === 'passed' || verdict.status === 'skipped') return undefined;
  const message = verdict.message ?? `the goal ${verdict.status}`;
  return verdict.category ? `${failureMarker(verdict.category)} ${message}` : message;
}

/** Status and details of an action's step: only the failed action (or an unverified one) is not passed. */
function actionOutcome(verdict: Verdict, action: ActionReport | undefined, index: number): { status: Status; details?: StatusDetails } {
  if (verdict.failedAction === index) {
    const message = markedMessage(verdict) ?? `action ${index + 1} failed`;
    if (verdict.status === 'broken' || verdict.category === 'infrastructure') return { status: Status.BROKEN, details: { message } };
    const [expected, actual] =
      verdict.category === 'target-not-found'
        ? ['target found', 'target not found']
        : verdict.category === 'unexpected-change'
          ? ['only the recorded changes', 'a change nobody recorded']
          : ['recorded effect', 'effect not seen'];
    return { status: Status.FAILED, details: { message, expected, actual } };
  }
  if (action && !action.verified) {
    return {
      status: Status.FAILED,
      details: {
        message: `${failureMarker('effect-not-verified')} action ${index + 1}`,
        expected: 'recorded effect',
        actual: 'effect not seen',
      },
    };
  }
  return { status: Status.PASSED };
}

/**
 * Allure numbers the steps itself, and actions come first, so step N is action N. The rung is
 * named only when the target was not where it was recorded: the element rung finding its element
 * in place is the clean replay of an element target (only then is `healed` unset).
 */
function actionStepName(action: ActionReport | undefined, evidence: ActionEvidence | undefined, index: number): string {
  const name = action?.description ?? evidence?.description ?? action?.kind ?? `action ${index + 1}`;
  const moved =
    action !== undefined && action.resolvedBy !== 'recorded' && (action.resolvedBy !== 'element' || action.healed !== undefined);
  return moved ? `${name} — found by ${action.resolvedBy}` : name;
}

function goalDescription(input: GoalReportInput): string {
  const { verdict } = input;
  const lines = [
    input.goalText ? `**Goal:** ${input.goalText}` : undefined,
    `**Spec:** \`${verdict.spec}\` · **mode:** ${verdict.mode} · **model calls:** ${verdict.modelCalls} · ` +
      `**duration:** ${verdict.durationMs} ms`,
    verdict.stopReason ? `**Stopped:** ${verdict.stopReason}` : undefined,
    verdict.message ? `**Verdict:** ${verdict.message}` : undefined,
    ...(verdict.warnings ?? []).map((w) => `**Warning:** ${w}`),
    ...verdict.actions.map((a, i) => (a.healed ? `**Healed action ${i + 1}** (${a.description ?? a.kind}): ${a.healed}` : undefined)),
  ];
  return lines.filter((line) => line !== undefined).join('\n\n');
}

function labelsOf(input: GoalReportInput): Label[] {
  const { verdict } = input;
  return [
    { name: 'epic', value: input.specName },
    { name: 'feature', value: input.app },
    { name: 'story', value: verdict.goal },
    { name: 'suite', value: input.specName },
    { name: 'package', value: verdict.spec },
    { name: 'framework', value: 'retrace' },
    getLanguageLabel(),
    getHostLabel(),
    getThreadLabel(input.thread),
    { name: SPEC_LABEL, value: verdict.spec },
    { name: GOAL_LABEL, value: verdict.goal },
  ];
}

function parametersOf(input: GoalReportInput): { name: string; value: string; excluded: true }[] {
  // Volatile: the same goal is learned once, replayed or healed later; excluded from history ids.
  const volatile = (name: string, value: string) => ({ name, value, excluded: true as const });
  const s = input.pathStats;
  return [
    volatile('mode', input.verdict.mode),
    ...(input.planner ? [volatile('planner', input.model ? `${input.planner} (${input.model})` : input.planner)] : []),
    ...(s && s.recentRuns > 0
      ? [
          volatile(
            'path success rate',
            `${percent(s.recentSuccessRate)} of last ${s.recentRuns} (${percent(s.successRate)} of ${s.passes + s.failures} overall)`,
          ),
        ]
      : []),
    ...(input.retries ? [volatile('retries', String(input.retries))] : []),
  ];
}

/** Writes the Allure result of one goal attempt into `resultsDir`. */
export function writeGoalResult(resultsDir: string, input: GoalReportInput): void {
  const { verdict } = input;
  const runtime = new ReporterRuntime({ writer: new AtomicResultsWriter(resultsDir) });
  const goal: Span = { start: input.stop - verdict.durationMs, stop: input.stop };
  const id = allureIdOf(verdict.spec, verdict.goal);
  const message = markedMessage(verdict);
  const test = runtime.startTest({
    name: verdict.goal,
    fullName: `${verdict.spec}#${verdict.goal}`,
    titlePath: [...verdict.spec.split('/'), input.specName],
    historyId: id,
    testCaseId: id,
    start: goal.start,
    labels: labelsOf(input),
    parameters: parametersOf(input),
    description: goalDescription(input),
    links: [
      ...(input.storyboard ? [{ url: input.storyboard, name: 'storyboard', type: 'storyboard' }] : []),
      ...(input.trace ? [{ url: input.trace.page, name: 'trace', type: 'trace' }] : []),
    ],
  });

  const step = (name: string, span: Span, outcome: { status: Status; details?: StatusDetails }, body?: (uuid: string) => void): void => {
    const uuid = runtime.startStep(test, undefined, {
      name,
      start: span.start,
      status: outcome.status,
      ...(outcome.details && { statusDetails: outcome.details }),
    });
    if (uuid === undefined) return;
    body?.(uuid);
    runtime.stopStep(uuid, { stop: span.stop });
  };
  const png = (step: string, name: string, bytes: Uint8Array | undefined): void => {
    if (bytes) runtime.writeAttachment(test, step, name, Buffer.from(bytes), { contentType: ContentType.PNG, fileExtension: '.png' });
  };

  // The action that failed before it could report (its target was not found) gets a step too.
  const count = Math.max(verdict.actions.length, verdict.failedAction !== undefined ? verdict.failedAction + 1 : 0);
  const evidence = input.actions ?? new Map<number, ActionEvidence>();
  const spans = actionSpans(
    count,
    verdict.actions.map((a) => a.ms),
    evidence,
    goal,
  );
  for (const [index, span] of spans.entries()) {
    const action = verdict.actions[index];
    const seen = evidence.get(index);
    step(actionStepName(action, seen, index), span, actionOutcome(verdict, action, index), (uuid) => {
      runtime.updateStep(uuid, (s) => {
        if (!action) return;
        s.parameters.push(
          { name: 'resolvedBy', value: action.resolvedBy },
          { name: 'verified', value: String(action.verified) },
          { name: 'retries', value: String(action.retries) },
          ...(action.healed ? [{ name: 'healed', value: action.healed }] : []),
          { name: 'ms', value: String(action.ms) },
          { name: 'waitMs', value: String(action.waitMs) },
          { name: 'resolveMs', value: String(action.resolveMs) },
          { name: 'actMs', value: String(action.actMs) },
          { name: 'settleMs', value: String(action.settleMs) },
          { name: 'verifyMs', value: String(action.verifyMs) },
        );
      });
      png(uuid, 'before', seen?.images?.before);
      png(uuid, 'after', seen?.images?.after);
      for (const effect of action?.elements ?? []) step(`element: ${effect}`, span, { status: Status.PASSED });
      for (const change of action?.unexpected ?? []) {
        step(`unexpected change: ${change.element ?? (change.text ? `"${change.text}"` : 'no text')}`, span, { status: Status.BROKEN });
      }
      for (const image of seen?.images?.evidence ?? []) png(uuid, image.name, image.png);
      const diff = seen?.images?.diff;
      if (diff) {
        runtime.writeAttachment(test, uuid, 'effect diff', Buffer.from(imageDiffJson(action?.description ?? `action ${index + 1}`, diff)), {
          contentType: ContentType.IMAGEDIFF,
          fileExtension: '.imagediff',
        });
      }
    });
  }

  const assertions = input.assertions ?? [];
  const checks = sequentialSpans(
    assertions.map((a) => a.ms),
    spans[spans.length - 1]?.stop ?? goal.start,
    goal,
  );
  for (const [i, assertion] of assertions.entries()) {
    const outcome = assertion.passed
      ? { status: Status.PASSED }
      : {
          status: Status.FAILED,
          details: {
            message: assertion.message ?? `${failureMarker('expectation-failed')} ${assertion.description}`,
            expected: assertion.expected ?? assertion.description,
            actual: assertion.actual ?? 'not met',
          },
        };
    const suffix = assertion.newBaseline ? ' — new baseline written' : '';
    step(`expect ${assertion.description}${suffix}`, checks[i] ?? goal, outcome, (uuid) => {
      png(uuid, 'new baseline', assertion.newBaseline);
      png(uuid, 'judged on (blue: where it read, red: the words read)', assertion.judged);
      if (assertion.diff) {
        runtime.writeAttachment(test, uuid, 'screenshot diff', Buffer.from(imageDiffJson(assertion.description, assertion.diff)), {
          contentType: ContentType.IMAGEDIFF,
          fileExtension: '.imagediff',
        });
      }
    });
  }

  if (input.trace) {
    const open = `Open this goal's trace page:\n  ${input.trace.command}\n(or ${input.trace.page} from the Allure report's folder)\n`;
    runtime.writeAttachment(test, undefined, 'trace: how to open it', Buffer.from(open), {
      contentType: ContentType.TEXT,
      fileExtension: '.txt',
    });
    runtime.writeAttachment(test, undefined, 'trace.json', Buffer.from(input.trace.json), {
      contentType: ContentType.JSON,
      fileExtension: '.json',
    });
  }

  // A failure no step shows (the app did not start, the learning loop gave up): one step that
  // says so, so the step list ends where the run ended.
  const shownByStep = verdict.failedAction !== undefined || verdict.actions.some((a) => !a.verified) || assertions.some((a) => !a.passed);
  if (message !== undefined && !shownByStep) {
    const after = checks[checks.length - 1]?.stop ?? spans[spans.length - 1]?.stop ?? goal.start;
    step(message, { start: after, stop: goal.stop }, { status: ALLURE_STATUS[verdict.status], details: { message } });
  }

  const flaky = verdict.status === 'passed' && ((input.retries ?? 0) > 0 || verdict.mode === 'healed');
  runtime.updateTest(test, (result) => {
    result.status = ALLURE_STATUS[verdict.status];
    result.stage = Stage.FINISHED;
    result.statusDetails = { ...(message !== undefined && { message }), ...(flaky && { flaky: true }) } as StatusDetails;
  });
  runtime.stopTest(test, { stop: goal.stop });
  runtime.writeTest(test);
}
