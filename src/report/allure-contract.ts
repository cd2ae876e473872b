/**
 * What the goal results (allure-goal.ts), the run metadata (allure-writer.ts) and the HTML build
 * (allure-html.ts) agree on: hidden labels that tie an Allure result to its goal, the stable id
 * of a goal, the failure markers that start result messages, and the categories matching them.
 */
import { createHash } from 'node:crypto';
import type { FailureCategory } from '../domain.ts';

/** Labels starting with "_" are hidden by Allure's UI; they carry the goal's identity. */
export const SPEC_LABEL = '_retraceSpec';
export const GOAL_LABEL = '_retraceGoal';

/**
 * historyId and testCaseId of a goal: md5 of `<spec>#<goal>`, the shape Allure uses. Stable
 * across runs, machines and shards (no test-file path, no parameter values in it), so Allure's
 * history and retries line up per goal.
 */
export const allureIdOf = (spec: string, goal: string): string => createHash('md5').update(`${spec}#${goal}`).digest('hex');

/** A failed result's message starts with one of these, e.g. "[target-not-found] …": categories match on it. */
export const failureMarker = (category: FailureCategory): string => `[${category}]`;

/**
 * An Allure category in the `categories.json` shape. Allure 2 reads it from the results dir;
 * Allure 3 takes the same rules (its "compatibility keys") from its config. The regexes must
 * match the whole message in Allure 2 (Java `matches`), hence the trailing `[\s\S]*`.
 */
export interface AllureCategory {
  readonly name: string;
  readonly description?: string;
  readonly matchedStatuses: readonly ('failed' | 'broken' | 'passed' | 'skipped')[];
  readonly messageRegex?: string;
  readonly flaky?: boolean;
}

const markerRegex = (category: FailureCategory): string => `^\\s*\\[${category}\\][\\s\\S]*`;

export const RETRACE_CATEGORIES: readonly AllureCategory[] = [
  {
    name: 'No path',
    description: 'The goal has no usable path (never learned, or stale) and learning was off.',
    matchedStatuses: ['failed'],
    messageRegex: markerRegex('no-path'),
  },
  {
    name: 'Target not found',
    description: 'A replayed action could not find its target (recorded position, template, OCR, model).',
    matchedStatuses: ['failed'],
    messageRegex: markerRegex('target-not-found'),
  },
  {
    name: 'Effect not verified',
    description: 'An action ran but the screen did not change the way it did when the path was recorded.',
    matchedStatuses: ['failed'],
    messageRegex: markerRegex('effect-not-verified'),
  },
  {
    name: 'Unexpected change',
    description: 'An action verified, but it also changed something its path did not record (an error message, a dialog, another screen).',
    matchedStatuses: ['failed'],
    messageRegex: markerRegex('unexpected-change'),
  },
  {
    name: 'Expectation failed',
    description: "Every action verified, but the goal's expect: (text, screenshot, window) did not hold.",
    matchedStatuses: ['failed'],
    messageRegex: markerRegex('expectation-failed'),
  },
  {
    name: 'Infrastructure',
    description: 'The test could not run: no display, the app did not start, the X server died, OCR data missing.',
    matchedStatuses: ['broken'],
    messageRegex: markerRegex('infrastructure'),
  },
  {
    name: 'Flaky: healed or passed on retry',
    description: 'Passed, but only after a retry or by healing a lost target: see the flaky-path report.',
    matchedStatuses: ['passed'],
    flaky: true,
  },
];
