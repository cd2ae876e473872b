/**
 * The control the pointer left. An action that moves the pointer takes the hover look off the
 * control it rested on (the last action's target): where the app publishes no elements (Tk,
 * xcalc), only the pixels can tell that from news. A change there is the pointer's doing when it
 * lies on that control, leaves its inside (label, marks) as it was, brings it back to how it
 * looked before the pointer came to it, and undoes nothing the action that brought the pointer
 * there changed: a toggle that reverts by itself on that control still fails.
 */
import type { Action, Frame, Region } from '../domain.ts';
import { pixelsUnlikeAll } from '../vision/changes.ts';
import { inflateRegion, intersectRegions, regionArea, regionsIntersect } from '../vision/frame.ts';
import { isFeedback } from './observe.ts';
import { EFFECT_THRESHOLDS } from './thresholds.ts';

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

export class PointerTrail {
  private rest: Rest | undefined;
  private left: Rest | undefined;

  /**
   * The action being judged moved the pointer (`target`: the box it went to; undefined: not onto
   * a control) or did not (`moved` false): only the control it moved away from is left behind.
   */
  acted(moved: boolean, target: Region | undefined): void {
    const away = moved && this.rest !== undefined && (target === undefined || !regionsIntersect(this.rest.box, target));
    this.left = away ? this.rest : undefined;
  }

  /**
   * The action verified. The pointer rests on `target` (undefined: on no control, or where it
   * was when it did not move); `before` is the window before the action, `effects` where it
   * changed content.
   */
  rested(moved: boolean, target: Region | undefined, before: Frame, effects: readonly Region[]): void {
    if (!moved) return;
    if (target === undefined) {
      this.rest = undefined;
      return;
    }
    const again = this.rest !== undefined && regionsIntersect(this.rest.box, target) ? this.rest : undefined;
    this.rest = {
      box: target,
      // Done again on the same control, it was already hovered before this action.
      entered: again?.entered ?? before,
      effects: [...(again?.effects ?? []), ...effects],
    };
  }

  /** Whether `change` (from `before` to `after`) is the hover look of the control the pointer left going away. */
  hoverGone(change: Region, before: Frame, after: Frame): boolean {
    const left = this.left;
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
