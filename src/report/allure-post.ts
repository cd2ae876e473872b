/**
 * Post-processes `reports/allure-results/` after the vitest run, where allure-vitest falls short:
 *
 * - flaky: allure-vitest never sets `statusDetails.flaky`; a goal that passed on retry or healed is.
 * - failed vs broken: allure-vitest calls an error "failed" only when it looks like an assertion
 *   (name/message containing "assert", `actual`/`expected` fields…), so a thrown GoalFailure lands
 *   as broken. Here a product mismatch becomes failed and an infrastructure fault broken, from the
 *   goal's verdict when given, else from the message marker (`[target-not-found] …`), else from
 *   the error name at the start of the trace.
 * - ids: historyId and testCaseId from spec + goal, so history survives renamed test files.
 * - retries: allure-vitest piles the runtime messages of every attempt of a retried test into one
 *   result (labels twice, the failed attempt's steps first). The result is cut at the attempt
 *   markers reportGoalToAllure leaves: earlier attempts become results of their own with the same
 *   ids and earlier start times, which Allure shows as the test's retries.
 * - categories.json and environment.properties beside the results.
 *
 * Idempotent: running it twice gives the same files.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { release, type as osType } from 'node:os';
import { join } from 'node:path';
import type { StepResult, TestResult } from 'allure-js-commons';
import type { FailureCategory, Status, Verdict } from '../domain.ts';
import { InvalidInputError } from '../errors.ts';
import { writeFileAtomic } from '../paths/atomic.ts';
import { ATTEMPT_STEP, GOAL_LABEL, RETRACE_CATEGORIES, SPEC_LABEL, allureIdOf, categoryOfMessage, failureMarker } from './allure-contract.ts';
import { isObject } from './json-check.ts';

/** What the post-processor needs to know about one goal of the run. */
export interface GoalOutcome {
  readonly spec: string;
  readonly goal: string;
  /** The verdict's status; wins over what allure-vitest guessed. */
  readonly status?: Status;
  readonly category?: FailureCategory;
  /** Passed on retry, or healed. */
  readonly flaky?: boolean;
}

export interface PostProcessOptions {
  readonly resultsDir: string;
  readonly goals?: readonly GoalOutcome[];
  /** Written to environment.properties (merged over what the reporter wrote). */
  readonly environment?: Readonly<Record<string, string>>;
}

export interface PostProcessReport {
  /** Result files read. */
  readonly results: number;
  /** Result files rewritten. */
  readonly updated: number;
  /** Result files of retrace goals whose spec#goal was not among `goals`. */
  readonly unmatched: readonly string[];
}

/** A goal named by spec and goal id. */
export interface GoalRef {
  readonly spec: string;
  readonly goal: string;
}

/**
 * Outcomes from a run's verdicts (summary.json's goals). Flaky: every goal in `flaky` (those
 * that passed on a retry) and every passed goal whose mode is healed.
 */
export function outcomesFromVerdicts(verdicts: readonly Verdict[], flaky: readonly GoalRef[] = []): GoalOutcome[] {
  const retried = new Set(flaky.map((g) => `${g.spec}#${g.goal}`));
  return verdicts.map((v) => ({
    spec: v.spec,
    goal: v.goal,
    status: v.status,
    ...(v.category !== undefined && { category: v.category }),
    flaky: v.status === 'passed' && (v.mode === 'healed' || retried.has(`${v.spec}#${v.goal}`)),
  }));
}

const readPackageVersion = (): string => {
  try {
    const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    return isObject(pkg) && typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
};

export interface RetraceEnvironmentInput {
  /** Size of the display the goals ran on. */
  readonly display?: { readonly width: number; readonly height: number };
  /** The app's launch command (secrets masked by the caller). */
  readonly appCommand?: string;
  readonly extra?: Readonly<Record<string, string>>;
}

/** The environment.properties entries retrace shows: display, OS, app, retrace version. */
export function retraceEnvironment(input: RetraceEnvironmentInput = {}): Record<string, string> {
  return {
    ...(input.display && { 'display.size': `${input.display.width}x${input.display.height}` }),
    os: `${osType()} ${release()}`,
    'node.version': process.version,
    ...(input.appCommand !== undefined && { 'app.command': input.appCommand }),
    'retrace.version': readPackageVersion(),
    ...input.extra,
  };
}

/** Java .properties escaping: Allure 2 reads the file with java.util.Properties. */
const escapeProperty = (text: string, isKey: boolean): string =>
  text
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')
    .replace(isKey ? /([=: #!])/g : /^([ #!])/g, '\\$1')
    .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function formatProperties(entries: Readonly<Record<string, string>>): string {
  return Object.entries(entries)
    .map(([key, value]) => `${escapeProperty(key, true)}=${escapeProperty(value, false)}`)
    .join('\n')
    .concat('\n');
}

const unescapeProperty = (text: string): string =>
  text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, c: string) =>
    c.length === 5 ? String.fromCharCode(parseInt(c.slice(1), 16)) : ({ n: '\n', r: '\r', t: '\t' } as Record<string, string>)[c] ?? c,
  );

/** Lenient read of an existing environment.properties: `key=value` lines, no continuations. */
function readProperties(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  const entries: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([^#!\s](?:\\.|[^=:\\])*?)\s*[=:]\s*(.*)$/.exec(line);
    if (match?.[1] !== undefined) entries[unescapeProperty(match[1])] = unescapeProperty(match[2] ?? '');
  }
  return entries;
}

const labelValue = (result: TestResult, name: string): string | undefined =>
  result.labels?.find((l) => l.name === name)?.value;

/** The status a failed/broken result should have when no verdict says so. */
function statusFromError(result: TestResult): 'failed' | 'broken' | undefined {
  const category = categoryOfMessage(result.statusDetails?.message);
  if (category) return category === 'infrastructure' ? 'broken' : 'failed';
  const trace = result.statusDetails?.trace ?? '';
  if (/^GoalFailure\b/.test(trace)) return 'failed';
  if (/^InfrastructureError\b/.test(trace)) return 'broken';
  return undefined;
}

/** Marks a result split off as an earlier attempt, so a second pass leaves its status alone. */
const RETRY_LABEL = '_retraceRetry';

/** Identical labels once; for parameters, the last value of each name (the latest attempt's). */
function dedupeMetadata(result: TestResult): void {
  const labels = new Map((result.labels ?? []).map((l) => [`${l.name}\u0000${l.value}`, l]));
  result.labels = [...labels.values()];
  const parameters = new Map((result.parameters ?? []).map((p) => [p.name, p]));
  result.parameters = [...parameters.values()];
}

/**
 * Cuts a result at its attempt markers. Returns the earlier attempts as new results and leaves
 * the last attempt in `result`; removes the markers. Without markers it returns [].
 */
function splitAttempts(result: TestResult): TestResult[] {
  const steps = result.steps ?? [];
  const markers = steps.flatMap((step, index) => (step.name === ATTEMPT_STEP ? [index] : []));
  if (markers.length === 0) return [];
  dedupeMetadata(result);
  const segments = markers.map((start, i) => ({
    marker: steps[start] as StepResult,
    // Steps before the first marker (if the runner made any) belong to the first attempt.
    steps: steps.slice(i === 0 ? 0 : start + 1, markers[i + 1] ?? steps.length).filter((s) => s.name !== ATTEMPT_STEP),
  }));
  const last = segments[segments.length - 1] as (typeof segments)[number];
  const earlier = segments.slice(0, -1).map(({ marker, steps: attemptSteps }, i): TestResult => {
    const next = segments[i + 1]?.marker;
    const copy = structuredClone(result);
    return {
      ...copy,
      uuid: randomUUID(),
      labels: [...copy.labels, { name: RETRY_LABEL, value: 'true' }],
      steps: attemptSteps,
      attachments: [],
      // vitest retries only a failed attempt; a marker that says otherwise was not the last word.
      status: marker.status === 'failed' || marker.status === 'broken' ? marker.status : ('broken' as TestResult['status']),
      statusDetails: { message: marker.statusDetails?.message ?? 'this attempt failed; it reported no verdict' },
      ...(marker.start !== undefined && { start: marker.start }),
      ...(next?.start !== undefined && { stop: next.start }),
    };
  });
  result.steps = last.steps;
  // Allure takes the attempt that started last as the test, the others as its retries.
  if (last.marker.start !== undefined) result.start = last.marker.start;
  return earlier;
}

/** Applies the rules above to one result. */
function fixResult(result: TestResult, outcome: GoalOutcome | undefined): void {
  const spec = labelValue(result, SPEC_LABEL);
  const goal = labelValue(result, GOAL_LABEL);
  if (spec !== undefined && goal !== undefined) {
    const id = allureIdOf(spec, goal);
    result.historyId = id;
    result.testCaseId = id;
  }
  const details = (result.statusDetails ??= {}) as TestResult['statusDetails'] & { flaky?: boolean };
  if (outcome?.status) {
    result.status = outcome.status as TestResult['status'];
  } else if (result.status === 'failed' || result.status === 'broken') {
    result.status = (statusFromError(result) ?? result.status) as TestResult['status'];
  }
  // Categories match on the marker: add it when the verdict knows the category but the message lacks it.
  const category = outcome?.category;
  if (category && (result.status === 'failed' || result.status === 'broken') && categoryOfMessage(details.message) === undefined) {
    details.message = `${failureMarker(category)} ${details.message ?? ''}`.trimEnd();
  }
  if (outcome?.flaky) details.flaky = true;
}

/** Rewrites the result files of `resultsDir` and writes categories.json and environment.properties. */
export async function postProcessAllureResults(options: PostProcessOptions): Promise<PostProcessReport> {
  const { resultsDir } = options;
  let names: string[];
  try {
    names = readdirSync(resultsDir).filter((name) => name.endsWith('-result.json')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new InvalidInputError({ file: resultsDir }, 'no allure-results directory here: did the run run?');
    }
    throw error;
  }
  const outcomes = new Map((options.goals ?? []).map((g) => [`${g.spec}#${g.goal}`, g]));
  let updated = 0;
  const unmatched: string[] = [];
  for (const name of names) {
    const file = join(resultsDir, name);
    let result: TestResult;
    try {
      const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
      if (!isObject(parsed)) throw new Error('not an object');
      result = parsed as unknown as TestResult;
    } catch (error) {
      throw new InvalidInputError({ file }, `not an Allure result: ${(error as Error).message}`);
    }
    const spec = labelValue(result, SPEC_LABEL);
    const goal = labelValue(result, GOAL_LABEL);
    const isRetry = labelValue(result, RETRY_LABEL) !== undefined;
    const outcome = spec !== undefined && goal !== undefined && !isRetry ? outcomes.get(`${spec}#${goal}`) : undefined;
    if (spec !== undefined && goal !== undefined && !isRetry && !outcome && options.goals) unmatched.push(name);
    const original = JSON.stringify(result);
    for (const retry of splitAttempts(result)) {
      // A retry is history, not the verdict: only ids and message markers are fixed.
      fixResult(retry, undefined);
      writeFileAtomic(join(resultsDir, `${retry.uuid}-result.json`), JSON.stringify(retry));
    }
    fixResult(result, outcome);
    if (JSON.stringify(result) !== original) {
      writeFileAtomic(file, JSON.stringify(result));
      updated++;
    }
  }
  writeFileAtomic(join(resultsDir, 'categories.json'), `${JSON.stringify(RETRACE_CATEGORIES, null, 2)}\n`);
  if (options.environment) {
    const envFile = join(resultsDir, 'environment.properties');
    writeFileAtomic(envFile, formatProperties({ ...readProperties(envFile), ...options.environment }));
  }
  return { results: names.length, updated, unmatched };
}
