/**
 * Replay's target: found by the ladder (ladder.ts), and waited for while it is not there yet;
 * a path's first action with no target waits for its recorded line before it.
 */
import type { Point, Region, ResolvedBy, RungTry } from '../domain.ts';
import { isPointTarget } from '../domain.ts';
import { framesEqual } from '../vision/changes.ts';
import { describeAction, targetsOf } from '../spec-file/describe.ts';
import { settle, type Settled } from './settle.ts';
import { snapshot } from './elements.ts';
import { matches } from './verify.ts';
import { resolveTarget, windowScales } from './ladder.ts';
import type { CycleContext, ReplayStepInput, Resolved, Unresolved } from './cycle-strategy.ts';

export class ReplayTarget {
  /** How far the last resolved target had moved since recording. */
  private lastOffset: Point = { x: 0, y: 0 };

  constructor(private readonly context: CycleContext) {}

  private get stage() {
    return this.context.stage;
  }

  private get options() {
    return this.context.options;
  }

  /**
   * The window a path's first action with no target acts on: once its recorded line before it
   * shows (a shell's prompt that comes late — typed before it, the text lands around it), waited
   * for while the window changes, up to the action's time limit. A line that never shows as
   * recorded (another theme, a moved layout) costs that wait once; the action then goes ahead,
   * and its effects decide. Already there, it costs one comparison.
   */
  async awaitBeforeLine(step: ReplayStepInput, first: Settled, ignore: () => Region[]): Promise<Settled> {
    const line = step.recorded.beforeLine;
    if (!line) return first;
    const image = step.image(line.image);
    const giveUp = Date.now() + this.options.actionTimeoutMs;
    let now = first;
    while (!matches(now.frame, line.region, image).ok && Date.now() < giveUp) {
      now = await settle(
        this.stage,
        { timeoutMs: this.options.settleTimeoutMs, ignore: ignore() },
        { changeFrom: now.frame, reactMs: giveUp - Date.now() },
      );
    }
    return now;
  }

  /**
   * Finds the target, waiting for it while it is not there yet (a loading screen, another window
   * on top, a prompt still to come): each time the window changes the ladder looks again — all
   * but the model rung — up to the action's time limit; the model, when allowed, is asked once at
   * the end. A target that never shows is not found.
   */
  async awaitTarget(
    step: ReplayStepInput,
    first: Settled,
    ignore: () => Region[],
  ): Promise<{ before: Settled; resolved: Resolved | Unresolved }> {
    const giveUp = Date.now() + this.options.actionTimeoutMs;
    // An action on an app that publishes its elements has them read before it (the element rung
    // reads them anyway): what changed in them tells the focus moving from news.
    const { recorded } = step;
    const published = recorded.anchor?.element !== undefined || (recorded.elements?.length ?? 0) > 0;
    const withElements = async (shot: Settled): Promise<Settled> =>
      published && !shot.elements ? { ...shot, elements: await snapshot(this.stage, shot.window) } : shot;
    let before = await withElements(first);
    let resolved = await this.ladder(step, before, false);
    while ('failure' in resolved && Date.now() < giveUp) {
      const later = await settle(
        this.stage,
        { timeoutMs: this.options.settleTimeoutMs, ignore: ignore() },
        { changeFrom: before.frame, reactMs: giveUp - Date.now() },
      );
      if (framesEqual(later.frame, before.frame, ignore())) continue;
      before = await withElements(later);
      resolved = await this.ladder(step, before, false);
    }
    if ('failure' in resolved && this.options.model) resolved = await this.ladder(step, before);
    return { before, resolved };
  }

  /**
   * Each target by the ladder; an action without a target acts where the last one moved.
   * `withModel: false` leaves out the model rung: a look again while waiting costs no request.
   */
  private async ladder(step: ReplayStepInput, before: Settled, withModel = true): Promise<Resolved | Unresolved> {
    const { recorded, index } = step;
    const description = describeAction(recorded.action);
    const targets = targetsOf(recorded.action);
    const points: Point[] = [];
    let resolvedBy: ResolvedBy = 'recorded';
    let tried: readonly RungTry[] | undefined;
    // An action with no target (a key, typing) acts where the last target was: if the layout
    // moved, its effects moved with it.
    let offset: Point = targets.length === 0 ? this.lastOffset : { x: 0, y: 0 };
    for (const [i, target] of targets.entries()) {
      // Only the first target has a recorded anchor; a drag's end moves with its start.
      if (i > 0 && isPointTarget(target)) {
        points.push({ x: target.x + offset.x, y: target.y + offset.y });
        continue;
      }
      const anchor = i === 0 ? recorded.anchor : undefined;
      const resolution = await resolveTarget({
        stage: this.stage,
        shot: before,
        anchor,
        anchorImage: anchor ? step.image(anchor.image) : undefined,
        target,
        resolveText: this.options.resolveText,
        description,
        scales: windowScales(step.recordedWindow, before.frame),
        ...(this.options.model && withModel ? { model: this.options.model } : {}),
      });
      if (resolution.point === undefined) {
        return {
          failure:
            `action ${index + 1} (${description}): target not found — best template score ${resolution.bestScore.toFixed(2)}` +
            (resolution.ocrRead ? `; OCR read: "${resolution.ocrRead}"` : ''),
          ...(anchor ? { recorded: anchor.box } : {}),
          ...(resolution.candidate ? { candidate: resolution.candidate } : {}),
          ...(i === 0 ? { tried: resolution.tried } : {}),
        };
      }
      points.push(resolution.point);
      if (i === 0) {
        resolvedBy = resolution.resolvedBy;
        tried = resolution.tried;
        offset = resolution.offset;
        this.lastOffset = offset;
      }
    }
    return { points, resolvedBy, offset, ...(tried ? { tried } : {}) };
  }
}
