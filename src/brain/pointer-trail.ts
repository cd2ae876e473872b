/**
 * The control the pointer left. An action that moves the pointer takes the hover look off the
 * control it rested on (the last action's target): where the app publishes no elements (Tk,
 * xcalc), only the pixels can tell that from news. A change there is the pointer's doing when it
 * lies on that control, leaves its inside (label, marks) as it was, brings it back to how it
 * looked before the pointer came to it, and undoes nothing the action that brought the pointer
 * there changed: a toggle that reverts by itself on that control still fails. Learning keeps the
 * same trail (learn-step.ts), so that look going is not recorded as the next action's effect.
 */
import type { Action, Frame, Point, Region } from '../domain.ts';
import { pixelsUnlikeAll } from '../vision/changes.ts';
import { litControl } from '../vision/hover.ts';
import { containsPoint, inflateRegion, intersectRegions, regionArea, regionsIntersect, unionRegions } from '../vision/frame.ts';
import { isFeedback } from './observe.ts';
import { EFFECT_THRESHOLDS, POINTER_LIMITS } from './thresholds.ts';

interface Rest {
  /** The control's box (window-relative). */
  readonly box: Region;
  /** The window before the pointer came to it: the control as it looks unhovered. */
  readonly entered: Frame;
  /** Where the actions on it changed content (their decisive effects). */
  readonly effects: readonly Region[];
}

/** Whether an action moves the pointer, and to its target (a box to rest on) or elsewhere. */
export const pointerMove = (action: Action): 'target' | 'elsewhere' | 'none' => {
  switch (action.kind) {
    case 'click':
    case 'double-click':
    case 'right-click':
      return 'target';
    case 'type':
      return action.into ? 'target' : 'none';
    case 'scroll':
      return action.target ? 'target' : 'elsewhere';
    case 'drag':
      return 'elsewhere';
    default:
      return 'none';
  }
};

/** Where an action pointed: the box of its target (its anchor's, as found) and the point it acted at. */
export interface Pointed {
  readonly box: Region;
  readonly point: Point;
}

/**
 * The control the pointer rests on, as its hover look draws it: the target's box grown to the
 * control the action lit around its point (`litControl`), when that is no larger than a control
 * on the target's row (`POINTER_LIMITS.hoverReach`, a share of the target's box, so it scales
 * with it). Without elements the target's box is what segmenting found under the point — a Tk
 * radio button's label alone — while its hover look lights the whole button, its indicator too.
 * A larger change around the point (a dialog, a menu) is no hover look: the box stays.
 */
export function restingBox(pointed: Pointed, before: Frame, after: Frame, ignore: readonly Region[]): Region {
  const { box, point } = pointed;
  const { rows, widths } = POINTER_LIMITS.hoverReach;
  const max = { width: widths * box.width, height: rows * box.height };
  const lit = litControl(before, after, point, max, { ignore, minPixels: EFFECT_THRESHOLDS.minEffectPixels });
  return lit ? unionRegions(box, lit) : box;
}

export class PointerTrail {
  private rest: Rest | undefined;
  private leftRest: Rest | undefined;

  /**
   * The action being judged moved the pointer (`point`: onto its target there; undefined: not
   * onto a control) or did not (`moved` false): only the control it moved away from is left
   * behind. The point tells it, not the target's box: found boxes are padded, and two controls
   * side by side (Express, Gift wrap) may share a column of them.
   */
  acted(moved: boolean, point: Point | undefined): void {
    const away = moved && this.rest !== undefined && (point === undefined || !containsPoint(this.rest.box, point));
    this.leftRest = away ? this.rest : undefined;
  }

  /** The box of the control the pointer just left, if the action being judged moved it away from one. */
  get left(): Region | undefined {
    return this.leftRest?.box;
  }

  /**
   * Where the pointer now rests after an action that moved it onto `pointed` (`restingBox`); the
   * control it left is set aside, its look going lies beside.
   */
  restingOn(pointed: Pointed, before: Frame, after: Frame, ignore: readonly Region[]): Region {
    return restingBox(pointed, before, after, [...ignore, ...(this.left ? [this.left] : [])]);
  }

  /**
   * The action verified. The pointer rests on `target` (`restingOn`; undefined: on no control,
   * or where it was when it did not move); `before` is the window before the action, `effects`
   * where it changed content.
   */
  rested(moved: boolean, target: Region | undefined, before: Frame, effects: readonly Region[]): void {
    if (!moved) return;
    if (target === undefined) {
      this.rest = undefined;
      return;
    }
    // Not moved away (`acted`), it was done again on the same control.
    const again = this.leftRest === undefined ? this.rest : undefined;
    this.rest = {
      box: again ? unionRegions(again.box, target) : target,
      // Done again on the same control, it was already hovered before this action.
      entered: again?.entered ?? before,
      effects: [...(again?.effects ?? []), ...effects],
    };
  }

  /** Whether `change` (from `before` to `after`) is the hover look of the control the pointer left going away. */
  hoverGone(change: Region, before: Frame, after: Frame): boolean {
    const left = this.leftRest;
    if (left === undefined || left.entered.width !== after.width || left.entered.height !== after.height) return false;
    const inside = intersectRegions(change, inflateRegion(left.box, EFFECT_THRESHOLDS.feedbackReachPx));
    if (inside === null || regionArea(inside) < regionArea(change) || !isFeedback(before, after, change, left.box)) return false;
    // What the actions on it changed (a check mark) still shows against how it looked before...
    const kept = left.effects.every(
      (e) => !regionsIntersect(e, change) || pixelsUnlikeAll(after, [left.entered], e) >= EFFECT_THRESHOLDS.minEffectPixels,
    );
    // ...and what did change is as it was before the pointer came.
    return kept && pixelsUnlikeAll(after, [before, left.entered], change) < EFFECT_THRESHOLDS.minEffectPixels;
  }
}
