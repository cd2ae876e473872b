/**
 * The message of a goal nothing can learn. Its own module: the CLI's checks of every input use it
 * before a run, without loading the goal machinery (expectations, OCR, image comparison).
 */

/** A goal with only `expect:`: nothing can learn it, a person records it. */
export const noPathToLearn = (specId: string, goalId: string, stale: boolean): string =>
  `goal "${goalId}" has ${stale ? 'a stale path (its steps: were removed)' : 'no path'}, and with only expect: there is nothing to learn it from; ` +
  `record it by demonstration: retrace record ${specId} --goal ${goalId}`;
