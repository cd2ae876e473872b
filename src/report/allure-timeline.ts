/**
 * When each step of a goal's Allure result happened, from what the run observed: the time each
 * action began (the runner's action hook), the time its evidence was taken (right after it
 * verified), and the durations in the verdict. Pure: times in, spans out.
 *
 * The steps then show real times and durations, with the real gaps between them (launching the
 * app, planning the next action), instead of the moment the report was written.
 */

/** A span of wall-clock time, ms since the epoch. */
export interface Span {
  readonly start: number;
  readonly stop: number;
}

/** What was seen of one action while it ran. Either may be missing (a secret's images are never taken). */
export interface ActionMark {
  readonly start?: number;
  readonly end?: number;
}

const clamp = (value: number, span: Span): number => Math.min(span.stop, Math.max(span.start, value));

/**
 * One span per action index `0 … count-1` (count may exceed `durationsMs.length` by the action
 * that failed before it could report). An action starts when it was seen to start, else where the
 * previous one stopped. It lasts its reported duration, or longer when its evidence was taken
 * later; a report can also grow after its evidence (a later look at whether its effects held, the
 * images of a failure), so the evidence alone would cut it short. It never reaches into the next
 * action. The failed action without a report stops where the next known thing starts or the goal ends.
 */
export function actionSpans(count: number, durationsMs: readonly number[], marks: ReadonlyMap<number, ActionMark>, goal: Span): Span[] {
  const spans: Span[] = [];
  let cursor = goal.start;
  for (let i = 0; i < count; i++) {
    const mark = marks.get(i);
    const start = clamp(mark?.start ?? cursor, goal);
    const next = marks.get(i + 1)?.start;
    const ms = durationsMs[i];
    const end = ms !== undefined ? Math.max(start + ms, mark?.end ?? start) : (mark?.end ?? next ?? goal.stop);
    const stop = clamp(end, { start, stop: Math.max(start, Math.min(goal.stop, next ?? goal.stop)) });
    spans.push({ start, stop });
    cursor = stop;
  }
  return spans;
}

/** Expectations are checked one after the other, after the last action: back to back from `after`. */
export function sequentialSpans(durationsMs: readonly number[], after: number, goal: Span): Span[] {
  let cursor = clamp(after, goal);
  return durationsMs.map((ms) => {
    const start = cursor;
    cursor = clamp(start + ms, goal);
    return { start, stop: cursor };
  });
}
