/**
 * Replay's unexpected-change checks: what changed that nothing recorded, in the pixels and in
 * the app's elements, less what changes on its own. A place seen changing on its own joins the
 * regions ignored for the rest of the replay (`seen`).
 */
import type { Frame, Region, UnexpectedChange } from '../domain.ts';
import type { Settled } from './settle.ts';
import { snapshot, type Snapshot } from './elements.ts';
import { focusMoves, type FocusMoves } from './element-effects.ts';
import { describeChanges, isFocusFeedback, unexplainedChanges, watchCandidates } from './unexpected.ts';
import { continuingChanging, ringsOnly } from './observe.ts';
import { PointerTrail } from './pointer-trail.ts';
import type { CycleContext } from './cycle-strategy.ts';

export class ReplayNews {
  /** Regions seen changing on their own during this replay, though not recorded as dynamic. */
  readonly seen: Region[] = [];
  /** Where the pointer rests and which control it left: that control's hover going is no news. */
  readonly pointer = new PointerTrail();

  constructor(private readonly context: CycleContext) {}

  private get stage() {
    return this.context.stage;
  }

  private get options() {
    return this.context.options;
  }

  /**
   * Changes from `before` to `after` that nothing accounts for and that do not change on their
   * own: described (text read), with their evidence sent.
   */
  async unexpected(
    index: number,
    before: Frame,
    after: Settled,
    accounted: readonly Region[],
    ignore: readonly Region[],
    secret: boolean,
    scale: number,
    moves?: () => Promise<FocusMoves | undefined>,
    focusLeft = false,
  ): Promise<UnexpectedChange[]> {
    let candidates = unexplainedChanges(before, after.frame, accounted, ignore, scale);
    if (candidates.length === 0) return [];
    // The field the focus left redraws its frame: that is the focus moving, not news.
    const focus = moves && (await moves());
    if (focus) candidates = candidates.filter((c) => !isFocusFeedback(c, focus, before, after.frame));
    // With no tree, the pixels tell it where the action moved the focus when learned (`focusLeft`):
    // a ring that came or went, the inside of its field as it was.
    else if (focusLeft) candidates = candidates.filter((c) => !ringsOnly(before, after.frame, c));
    candidates = candidates.filter((c) => !this.pointer.hoverGone(c, before, after.frame));
    if (candidates.length === 0) return [];
    const watched = await watchCandidates(this.stage, after.window, after.frame, candidates);
    this.seen.push(...watched.dynamic);
    // Beside what was recorded or seen changing on its own, on its line, it is more of the same.
    const own = continuingChanging(watched.still, [...ignore, ...this.seen]);
    this.seen.push(...own);
    const still = watched.still.filter((c) => !own.includes(c));
    if (still.length === 0) return [];
    if (!secret) this.options.onProblem?.(index, { kind: 'unexpected-change', before, after: after.frame, regions: still });
    return describeChanges(this.stage, after.frame, still);
  }

  /**
   * News of the tree less what changes on its own: where it is, the window is watched a moment
   * like a pixel change (a clock's label nobody recorded ticks again), and a place that changes
   * again joins the regions ignored for the rest of the replay.
   */
  async settledNews(news: readonly UnexpectedChange[], after: Settled): Promise<UnexpectedChange[]> {
    if (news.length === 0) return [];
    const watched = await watchCandidates(
      this.stage,
      after.window,
      after.frame,
      news.map((n) => n.region),
    );
    this.seen.push(...watched.dynamic);
    return news.filter((n) => !watched.dynamic.includes(n.region));
  }

  /**
   * How the app's elements changed across the action, when it publishes them: read before it
   * (with its target) and when its effects were verified, or now.
   */
  async focusMoves(before: Settled, read: Snapshot | undefined, window: Region): Promise<FocusMoves | undefined> {
    if (!before.elements?.ok) return undefined;
    const after = read ?? (await snapshot(this.stage, window));
    return after.ok ? focusMoves(before.elements.elements, after.elements) : undefined;
  }
}
