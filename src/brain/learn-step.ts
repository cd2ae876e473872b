/**
 * Learning, as a strategy of the action cycle: a target is found by its text on screen (or its
 * element, or its point), the action done, and what it changed observed: the recording.
 */
import type { Action, Point, Region } from '../domain.ts';
import { isElementTarget, isPointTarget } from '../domain.ts';
import type { Element } from '../desktop/types.ts';
import { containsSecret } from '../spec-file/interpolate.ts';
import { describeAction, describeElementEffect, targetsOf } from '../spec-file/describe.ts';
import { settle, type Settled } from './settle.ts';
import { locateText, centre } from './locate.ts';
import { act } from './element-act.ts';
import { locateElement } from './element-target.ts';
import { readElements } from './element-effects.ts';
import { anchorBox, makeAnchor, withBeforeLine } from './observe.ts';
import { PointerTrail, pointerMove } from './pointer-trail.ts';
import { kindOf } from './verify.ts';
import { observe } from './observe-action.ts';
import { CYCLE_LIMITS } from './thresholds.ts';
import type { ActionOutcome } from './outcome.ts';
import type { PhaseClock } from './phases.ts';
import { endedAction, hasEnded, unlessEnded, type Ended } from './exit.ts';
import type { CycleContext, CycleStrategy, Done, LearnStepInput, Resolved, Unresolved } from './cycle-strategy.ts';

/** The action done: the window before it, where it was done, and the app's elements before it. */
interface Acted {
  readonly before: Settled;
  readonly resolved: Resolved;
  readonly elementsBefore: readonly Element[] | undefined;
  /** The app ended under the action. */
  readonly ended: Ended | undefined;
}

interface Reacted extends Omit<Acted, 'ended'> {
  readonly settled: Settled;
  readonly secret: boolean;
}

export class LearnStep implements CycleStrategy<LearnStepInput, Acted, Reacted> {
  /** Where the pointer rests and which control it left. */
  private readonly pointer = new PointerTrail();

  constructor(private readonly context: CycleContext) {}

  private get stage() {
    return this.context.stage;
  }

  private get options() {
    return this.context.options;
  }

  name(step: LearnStepInput): string {
    return describeAction(step.action);
  }

  ready(step: LearnStepInput): Promise<Settled> {
    return settle(this.stage, { timeoutMs: this.options.settleTimeoutMs, ignore: step.dynamic });
  }

  async resolve(step: LearnStepInput, before: Settled): Promise<{ before: Settled; resolved: Resolved | Unresolved }> {
    return { before, resolved: await this.find(step.action, before) };
  }

  /** A text not on screen is told by its message alone: there is no recorded place to show. */
  lost(): void {}

  async act(step: LearnStepInput, before: Settled, resolved: Resolved): Promise<Acted | string> {
    // Elements before the action, to see what it changed in them.
    const elementsBefore = await readElements(this.stage, before.window);
    const refused = await unlessEnded(this.stage, act(this.stage, step.action, resolved.points, before.window, this.options.resolveText));
    if (typeof refused === 'string') return refused;
    return { before, resolved, elementsBefore, ended: refused };
  }

  async settle(step: LearnStepInput, acted: Acted, clock: PhaseClock): Promise<Reacted | Done> {
    const { action, dynamic } = step;
    const { before, resolved, elementsBefore } = acted;
    // An app that ends under the action never settles again: its end is what the action did.
    const after =
      acted.ended ??
      (await unlessEnded(
        this.stage,
        settle(
          this.stage,
          { timeoutMs: this.options.settleTimeoutMs, ignore: dynamic, quietMs: CYCLE_LIMITS.recordQuietMs },
          {
            changeFrom: before.frame,
            reactMs: CYCLE_LIMITS.learnReactMs,
          },
        ),
      ));
    const secret = action.kind === 'type' && containsSecret(action.text);
    const settled = hasEnded(after) || secret || !elementsBefore ? after : await this.awaitTyped(action, after, dynamic);
    if (hasEnded(settled)) {
      clock.lap('settleMs');
      const point = resolved.points[0];
      const anchor = point ? makeAnchor(before.frame, point, secret ? undefined : resolved.text, step.assets) : undefined;
      const observed = endedAction(action, before, dynamic, settled.ended, clock.phases.settleMs, anchor);
      return {
        outcome: { report: clock.report({ verified: true, resolvedBy: 'recorded', retries: 0 }), observed, changed: true, healed: false },
      };
    }
    return { before, resolved, elementsBefore, settled, secret };
  }

  async verify(step: LearnStepInput, reacted: Reacted, clock: PhaseClock): Promise<ActionOutcome> {
    const { before, settled, resolved, secret, elementsBefore } = reacted;
    // Where the app publishes no elements, only the pixels tell the pointer's doing — the hover
    // look of the control it left going away, of the one it came to lighting — from what the
    // action did beside it and on it.
    const trail = elementsBefore === undefined ? this.pointer : undefined;
    const move = pointerMove(step.action);
    const point = move === 'target' ? resolved.points[0] : undefined;
    trail?.acted(move !== 'none', point);
    const left = trail?.left;
    const hovered =
      trail && point && trail.restingOn({ box: anchorBox(before.frame, point), point }, before.frame, settled.frame, step.dynamic);
    const seen = await observe(
      this.stage,
      step.action,
      before,
      settled,
      resolved,
      step.dynamic,
      secret,
      step.assets,
      undefined,
      elementsBefore,
      step.action.kind === 'type' && !secret ? this.options.resolveText(step.action.text) : undefined,
      {
        ...(left && { pointerLeft: { box: left, gone: (change: Region) => this.pointer.hoverGone(change, before.frame, settled.frame) } }),
        ...(hovered && { hovered }),
      },
    );
    trail?.rested(
      move !== 'none',
      hovered,
      before.frame,
      seen.effects.filter((e) => kindOf(e) !== 'feedback').map((e) => e.region),
    );
    const observed = step.index === 0 ? withBeforeLine(seen, before.frame, step.assets) : seen;
    clock.lap('verifyMs');
    if (!secret) this.options.onEvidence?.(step.index, before.frame, settled.frame);
    return {
      report: {
        ...clock.report({ verified: true, resolvedBy: 'recorded', retries: 0 }),
        ...(observed.elements?.length && { elements: observed.elements.map(describeElementEffect) }),
      },
      observed,
      changed: observed.effects.length > 0,
      healed: false,
    };
  }

  /**
   * Learning: text typed into an app that publishes its elements is recorded once its elements
   * show it — a toolkit may take the keys while its window is still being activated, and paint
   * them after the window looked quiet — waiting up to the action's time limit, then for the
   * window to settle. A text no element ever shows (a field that reformats it) costs that wait once.
   */
  private async awaitTyped(action: Action, after: Settled, dynamic: readonly Region[]): Promise<Settled> {
    if (action.kind !== 'type') return after;
    const typed = this.options.resolveText(action.text);
    const deadline = Date.now() + this.options.actionTimeoutMs;
    for (let waited = false; ; waited = true) {
      const elements = await readElements(this.stage, after.window);
      if (elements === undefined) return after;
      if (elements.some((e) => (e.text ?? '').includes(typed))) {
        return waited
          ? settle(this.stage, { timeoutMs: this.options.settleTimeoutMs, ignore: dynamic, quietMs: CYCLE_LIMITS.recordQuietMs })
          : after;
      }
      if (Date.now() >= deadline) return after;
      await this.stage.wait(CYCLE_LIMITS.typedPollMs);
    }
  }

  /** Each text target is looked for on screen, waiting for it to appear. */
  private async find(action: Action, before: Settled): Promise<Resolved | Unresolved> {
    const points: Point[] = [];
    let text: string | undefined;
    for (const [i, target] of targetsOf(action).entries()) {
      if (isPointTarget(target)) {
        points.push(target);
        continue;
      }
      if (isElementTarget(target)) {
        const hit = await locateElement(this.stage, target, this.options.resolveText, {
          window: before.window,
          timeoutMs: this.options.actionTimeoutMs,
        });
        if ('failure' in hit) return { failure: `${describeAction(action)}: ${hit.failure}` };
        points.push(hit.point);
        continue;
      }
      const found = await locateText(this.stage, this.options.resolveText(target.text), {
        first: before,
        timeoutMs: this.options.actionTimeoutMs,
      });
      if (!found.hit) return { failure: `${describeAction(action)}: no such text on screen (OCR read: "${found.read}")` };
      points.push(centre(found.hit.box));
      if (i === 0) text = target.text;
    }
    return { points, resolvedBy: 'recorded', offset: { x: 0, y: 0 }, ...(text !== undefined ? { text } : {}) };
  }
}
