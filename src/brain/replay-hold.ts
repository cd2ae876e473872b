/**
 * Replay's hold: effects must hold. Between two actions the window is looked at again:
 * unchanged since the last action was verified, the next one starts at once; changed, it is
 * waited on until stable and the change judged. After the last one, the window is watched for
 * the hold, longer on a path recorded reacting slowly (`holdAfterLast`). An effect that changed again on its own did not happen; what else changed late, in
 * the pixels or the app's elements, is a change nobody recorded.
 */
import type { ActionReport, DrawReport, ElementEffect, Frame, Region } from '../domain.ts';
import { framesEqual } from '../vision/changes.ts';
import { crop, clampRegion, regionsIntersect } from '../vision/frame.ts';
import { settle, type Settled } from './settle.ts';
import { snapshot, type Snapshot } from './elements.ts';
import { effectBoxes, newsRegions, treeHeld, type TreeHeld } from './element-news.ts';
import { describeUnexpected, unexplainedChanges } from './unexpected.ts';
import { CYCLE_LIMITS, holdAfterLast } from './thresholds.ts';
import { failure, type Held } from './outcome.ts';
import type { ReplayNews } from './replay-news.ts';
import type { CycleContext } from './cycle-strategy.ts';

/** The last replayed action, as verified: looked at again before the next one. */
export interface Previous {
  readonly index: number;
  readonly description: string;
  readonly report: ActionReport;
  readonly after: Frame;
  /** Where the window was then (screen-absolute). */
  readonly window: Region;
  /** The app's elements as read when its element effects were verified: that state's one read. */
  readonly elements?: Snapshot;
  /** Its element effects, checked again on the elements a moment later (recorded with format 3). */
  readonly elementEffects?: readonly ElementEffect[];
  /** Where its effects were found. */
  readonly effects: readonly Region[];
  readonly dynamic: readonly Region[];
  readonly secret: boolean;
  /** How much larger than recorded its target was drawn (`drawnScale`): a speck grows with it. */
  readonly scale: number;
  /** The display's reports of drawing in the window since `after` was grabbed. */
  readonly drawing?: DrawReport;
}

export class ReplayHold {
  /** The last replayed action, as verified: looked at again before the next one. */
  previous: Previous | undefined;
  /** The settled window the last hold ended on: the next action starts from it. */
  private pendingShot: Settled | undefined;
  /** How long that hold waited: the next action's wait before it. */
  private pendingMs = 0;
  /** The slowest reaction recorded on the path so far: the hold after the last action grows with it. */
  slowestMs = 0;

  constructor(
    private readonly context: CycleContext,
    private readonly news: ReplayNews,
  ) {}

  private get stage() {
    return this.context.stage;
  }

  private get options() {
    return this.context.options;
  }

  private get seen() {
    return this.news.seen;
  }

  /** The settled window the last hold ended on, if any: the next action starts from it. */
  get pending(): Settled | undefined {
    return this.pendingShot;
  }

  /** Waiting steps end what the last action is held to. */
  forget(): void {
    this.previous = undefined;
    this.pendingShot = undefined;
    this.pendingMs = 0;
  }

  /** The wait before the next action that the last hold already spent (counted in its report). */
  get waited(): number {
    return this.pendingShot ? this.pendingMs : 0;
  }

  async hold(final: boolean): Promise<Held | undefined> {
    const previous = this.previous;
    if (!previous) return undefined;
    this.previous = undefined;
    const ignore = [...previous.dynamic, ...this.seen];
    const started = performance.now();
    const now = final ? await this.watchHeld(previous, ignore) : await this.sinceVerified(previous, ignore);
    if (!final) {
      this.pendingShot = now;
      this.pendingMs = performance.now() - started;
    }
    const pixels = unexplainedChanges(previous.after, now.frame, [], ignore, previous.scale);
    // The tree first: the effects must still hold in it, and what else changed in it is late news.
    // At the end of the path it is read whatever the pixels say: the goal ends on a checked tree.
    const tree =
      previous.elementEffects && previous.elements?.ok && (final || pixels.length > 0)
        ? await this.treeHeld(previous, now, ignore)
        : undefined;
    if (tree?.problem !== undefined) {
      return {
        index: previous.index,
        report: { ...previous.report, verified: false },
        failure: failure(
          'effect-not-verified',
          `${previous.description}: its effect did not hold — ${tree.problem}, a moment after it was verified`,
          previous.index,
        ),
      };
    }
    const onTree = [
      ...effectBoxes(tree?.found ?? [], tree?.elements ?? [], now.frame),
      ...newsRegions(tree?.late ?? []),
      ...(tree?.told ?? []),
    ];
    const changes = pixels.filter((c) => !onTree.some((r) => regionsIntersect(c, r)));
    if (changes.length === 0 && (tree?.late.length ?? 0) === 0) return undefined;
    const reverted = changes.filter((c) => previous.effects.some((e) => regionsIntersect(c, e)));
    if (reverted.length > 0) {
      const region = clampRegion(reverted[0]!, now.frame.width, now.frame.height);
      if (!previous.secret) {
        this.options.onProblem?.(previous.index, {
          kind: 'effect-not-verified',
          expected: crop(previous.after, region),
          actual: crop(now.frame, region),
          region,
          before: previous.after,
          after: now.frame,
        });
      }
      const where = reverted.map((r) => `[${r.x}, ${r.y}, ${r.width}, ${r.height}]`).join(', ');
      return {
        index: previous.index,
        report: { ...previous.report, verified: false },
        failure: failure(
          'effect-not-verified',
          `${previous.description}: its effect did not hold — ${where} changed again on its own after it was verified`,
          previous.index,
        ),
      };
    }
    const late = [
      ...(tree ? await this.news.settledNews(tree.late, now) : []),
      ...(changes.length > 0
        ? await this.news.unexpected(previous.index, previous.after, now, onTree, ignore, previous.secret, previous.scale)
        : []),
    ];
    if (late.length === 0) return undefined;
    const report = { ...previous.report, unexpected: [...(previous.report.unexpected ?? []), ...late] };
    if (this.options.unexpectedChanges === 'warn') return { index: previous.index, report };
    return {
      index: previous.index,
      report,
      failure: failure(
        'unexpected-change',
        `${previous.description}: it also changed, a moment later, what its path did not record: ${describeUnexpected(late)}`,
        previous.index,
      ),
    };
  }

  /** The app's elements now, against those the last action verified on. */
  private async treeHeld(previous: Previous, now: Settled, ignore: readonly Region[]): Promise<TreeHeld | undefined> {
    const read = await snapshot(this.stage, now.window);
    if (!read.ok || read.elements.length === 0 || !previous.elements?.ok) return undefined;
    return treeHeld(previous.elements.elements, read.elements, previous.elementEffects ?? [], { dynamic: ignore, secret: previous.secret });
  }

  /**
   * The window before the next action. One that still shows exactly what the last action was
   * verified on is as settled as it was then, its elements as read then: waiting for quiet again
   * would only cost time. A change that comes later still shows, in the next action's comparison.
   * The look is one capture where the window was (none when the display reports that nothing
   * was drawn there since): a window that moved since shows other pixels there, and is waited on
   * from where it is now. Only an action whose effects showed is known
   * to be done: after one with nothing to show (a click that only focuses a field) the app may
   * still be painting, so the window is waited on as usual.
   */
  private async sinceVerified(previous: Previous, ignore: readonly Region[]): Promise<Settled> {
    if (previous.effects.length > 0) {
      const unchanged = (frame: Frame): Settled => ({
        frame,
        window: previous.window,
        settleMs: 0,
        stable: true,
        ...(previous.elements && { elements: previous.elements }),
      });
      // Told that nothing was drawn there since, the window shows that frame still.
      if (previous.drawing && !(await previous.drawing.drawn(performance.now()))) return unchanged(previous.after);
      const frame = await this.stage.grabber(previous.window)();
      if (framesEqual(previous.after, frame, ignore)) return unchanged(frame);
    }
    return settle(this.stage, { timeoutMs: this.options.settleTimeoutMs, ignore });
  }

  /**
   * The window for the hold after the last action (`holdAfterLast`), ending early when one of its effects changes.
   * Told of drawing, a look with nothing drawn since the last one is no grab.
   */
  private async watchHeld(previous: Previous, ignore: readonly Region[]): Promise<Settled> {
    const window = (await this.stage.window()).region;
    const grab = this.stage.grabber(window);
    const started = Date.now();
    const drawing = previous.drawing;
    let frame = previous.after;
    const holdMs = holdAfterLast(this.slowestMs);
    while (Date.now() - started < holdMs) {
      await this.stage.wait(CYCLE_LIMITS.holdPollMs);
      if (drawing && !(await drawing.drawn(performance.now()))) continue;
      drawing?.mark();
      frame = await grab();
      if (frame.width !== previous.after.width || frame.height !== previous.after.height) break;
      const changes = unexplainedChanges(previous.after, frame, [], ignore, previous.scale);
      if (changes.some((c) => previous.effects.some((e) => regionsIntersect(c, e)))) break;
    }
    return { frame, window, settleMs: Date.now() - started, stable: true };
  }
}
