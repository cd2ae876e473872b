/**
 * Replay's effect awaiting: the wait after an action ends once its recorded effects show and the
 * window is quiet a moment (vision/settle.ts, `ready`), not after a whole quiet window; an app
 * still working on the action is waited for, however slow. And where an action's own look shows
 * (its target, its feedback), and how a failed effect is told and shown.
 */
import type { Frame, Region } from '../domain.ts';
import { framesEqual } from '../vision/changes.ts';
import { crop, clampRegion, inflateRegion, offsetRegion } from '../vision/frame.ts';
import { settle, type Settled } from './settle.ts';
import { kindOf, presentAsRecorded, type EffectCheck } from './verify.ts';
import { ANCHOR_LIMITS, CYCLE_LIMITS, EFFECT_THRESHOLDS } from './thresholds.ts';
import { drawnLarger, sameShareOf } from './elements.ts';
import type { CycleContext, ReplayStepInput, Resolved } from './cycle-strategy.ts';

/**
 * Waits for the action's effects: for the window to react (up to the recorded settle time,
 * scaled), then — when what it shows is not the effect yet — for as long as it keeps changing
 * (an app that stalls mid-change), or, while nothing but the target's own feedback (its pressed
 * or focus look) changed, for the rest of the action's time limit: an app that is still working
 * on the action is waited for, however slow. Only then may the action be done again.
 */
export async function awaitEffects(
  context: CycleContext,
  step: ReplayStepInput,
  before: Settled,
  resolved: Resolved,
  acted: number,
  verify: (shot: Settled) => Promise<EffectCheck[]>,
  feedback: () => Region[],
  ignore: () => Region[],
  readEarly: (frame: Frame) => void,
): Promise<{ after: Settled; checks: EffectCheck[] }> {
  const { recorded } = step;
  const reactMs = Math.max(CYCLE_LIMITS.replayReactMinMs, recorded.settleMs * CYCLE_LIMITS.replayReactFactor);
  // The wait ends once the recorded effects show and the window is quiet a moment, not after a
  // whole quiet window: what is verified is what was awaited, and the hold looks again later.
  const shows = presentAsRecorded(recorded, step.image, resolved.offset);
  const ready =
    shows &&
    ((frame: Frame): boolean => {
      if (!shows(frame)) return false;
      readEarly(frame);
      return true;
    });
  const settleOptions = {
    timeoutMs: context.options.settleTimeoutMs,
    ignore: ignore(),
    ...(ready ? { ready, readyQuietMs: CYCLE_LIMITS.effectQuietMs } : { onState: readEarly }),
  };
  const decisive = recorded.effects.some((e) => kindOf(e) !== 'feedback');
  let after = await settle(context.stage, settleOptions, decisive ? { changeFrom: before.frame, reactMs } : undefined);
  let checks = await verify(after);
  const patience = Date.now() + reactMs;
  const limit = acted + context.options.actionTimeoutMs;
  while (checks.some((c) => !c.verified)) {
    const untouched = framesEqual(before.frame, after.frame, feedback());
    const until = untouched ? limit : patience;
    if (Date.now() >= until) break;
    const later = await settle(context.stage, settleOptions, { changeFrom: after.frame, reactMs: Math.max(0, until - Date.now()) });
    // One wait for a change ends at the settle timeout; an untouched window is waited on to the limit.
    if (framesEqual(later.frame, after.frame, ignore())) {
      if (untouched) continue;
      break;
    }
    after = later;
    checks = await verify(after);
  }
  return { after, checks };
}

/**
 * Where the target's own feedback shows: its recorded feedback effects and its box, with a margin
 * for a focus ring — all drawn as much larger as the target now is (another scale or DPI).
 */
export function feedbackPlaces(step: ReplayStepInput, resolved: Resolved): Region[] {
  const { x, y } = resolved.offset;
  const found = foundAt(step, resolved);
  const effects = step.recorded.effects
    .filter((e) => kindOf(e) === 'feedback')
    .flatMap((e) => [e.region, offsetRegion(e.region, x, y), ...(found ? [sameShareOf(e.region, found.recorded, found.box)] : [])]);
  const reach = EFFECT_THRESHOLDS.feedbackReachPx * drawnScale(step, resolved);
  return [...effects, ...targetBoxes(step, resolved)].map((r) => inflateRegion(r, Math.round(reach)));
}

/**
 * The target's box now and when recorded, where a rung found it at a size of its own: the element
 * rung at the element's box, the template rung at the anchor resized to the window's scale. It may
 * be drawn at another scale than recorded.
 */
function foundAt(step: ReplayStepInput, resolved: Resolved): { box: Region; recorded: Region } | undefined {
  const box = resolved.tried?.find((t) => t.accepted)?.box;
  const { anchor } = step.recorded;
  if (!box || !anchor) return undefined;
  if (resolved.resolvedBy === 'template') return { box, recorded: anchor.box };
  return resolved.resolvedBy === 'element' && anchor.element ? { box, recorded: anchor.element.box } : undefined;
}

/**
 * How much larger than recorded the action's target is drawn (another scale or DPI): its box now
 * over its recorded box, where a rung found it at a size of its own; never below 1, so no margin
 * shrinks below what it was measured at. The pixel margins of this action's verdict grow by it.
 */
export function drawnScale(step: ReplayStepInput, resolved: Resolved): number {
  const found = foundAt(step, resolved);
  return found ? drawnLarger(found.box, found.recorded) : 1;
}

/**
 * Where the action's target is now: its own look (hover, focus, pressed) is never unexpected.
 * Found by its element, the element's box now and the anchor's crop scaled into it; found by
 * the anchor resized, that box.
 */
export function targetBoxes(step: ReplayStepInput, resolved: Resolved): Region[] {
  const anchor = step.recorded.anchor;
  const found = foundAt(step, resolved);
  if (anchor && found) return [found.box, sameShareOf(anchor.box, found.recorded, found.box)];
  if (anchor) return [offsetRegion(anchor.box, resolved.offset.x, resolved.offset.y)];
  const point = resolved.points[0];
  const { width, height } = ANCHOR_LIMITS.fallback;
  return point ? [{ x: point.x - width / 2, y: point.y - height / 2, width, height }] : [];
}

export function effectProblem(check: EffectCheck, step: ReplayStepInput, before: Frame, after: Frame) {
  const region = clampRegion(check.region, after.width, after.height);
  const image = check.effect.image;
  return {
    kind: 'effect-not-verified' as const,
    ...(image ? { expected: step.image(image) } : {}),
    actual: crop(after, region),
    region,
    before,
    after,
  };
}

export function notVerified(description: string, check: EffectCheck, changed: boolean, attempt: number): string {
  const { x, y, width, height } = check.effect.region;
  if (!changed)
    return `${description}: its effect did not verify — the screen did not change at all${attempt > 0 ? ', also when it was done again' : ''}`;
  return (
    `${description}: its effect did not verify — the region [${x}, ${y}, ${width}, ${height}] ` +
    (check.detail ?? `does not show what was recorded (${check.diffPixels} pixels differ)`)
  );
}
