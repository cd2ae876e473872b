/**
 * The detail of a replayed action that a trace shows and a verdict never reads: what each rung of
 * the ladder scored and where, each recorded effect where it was expected and where it was found.
 */
import type { ActionDetail, RecordedAction, RungTry } from '../domain.ts';
import { describeElementEffect } from '../spec-file/describe.ts';
import { kindOf, type EffectCheck } from './verify.ts';

export function actionDetail(
  recorded: RecordedAction,
  tried: readonly RungTry[] | undefined,
  checks: readonly EffectCheck[],
  /** Absent when the element effects were not checked; `problem` absent when they held. */
  elementCheck?: { readonly problem?: string },
): ActionDetail {
  return {
    rungs: tried ?? [],
    effects: checks.map((c) => ({
      kind: kindOf(c.effect),
      expected: c.effect.region,
      found: c.region,
      verified: c.verified,
      moved: c.moved,
      ...(c.skipped ? { skipped: true } : {}),
      ...(c.effect.text ? { text: c.effect.text } : {}),
      ...(c.detail ? { detail: c.detail } : {}),
    })),
    ...(recorded.elements?.length
      ? {
          elements: {
            expected: recorded.elements.map(describeElementEffect),
            boxes: recorded.elements.flatMap((e) => (e.box ? [e.box] : [])),
            checked: elementCheck !== undefined,
            ...(elementCheck?.problem ? { problem: elementCheck.problem } : {}),
          },
        }
      : {}),
  };
}
