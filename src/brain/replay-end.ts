/**
 * Replay's last look, after the expectations: the goal ends on a checked tree (end-tree.ts). The
 * app's elements as read before the replay's first action are kept (the read that action made
 * anyway: no read of its own); after the expectations they are read once more and the changes
 * between the two judged against the changes the path recorded. A `wait` step starts the count
 * again after it: what changes while a path waits is not recorded, so it cannot be judged.
 *
 * A net recorded change that does not hold at the end is an effect that did not hold; anything
 * else that changed is a change nobody recorded, told as the others are (`--unexpected-changes`).
 */
import type { ActionReport, Frame, RecordedAction } from '../domain.ts';
import type { Element } from '../desktop/types.ts';
import type { Settled } from './settle.ts';
import { snapshot } from './elements.ts';
import { judgeEndTree, netEffects } from './end-tree.ts';
import { newsRegions } from './element-news.ts';
import { describeUnexpected } from './unexpected.ts';
import { failure, type Held } from './outcome.ts';
import type { ReplayNews } from './replay-news.ts';
import { isSecret, type CycleContext } from './cycle-strategy.ts';

/** The app's elements before the first action the end is judged from, and the window then. */
interface Start {
  readonly index: number;
  readonly elements: readonly Element[];
  readonly frame: Frame;
}

export class ReplayEnd {
  private start: Start | undefined;

  constructor(
    private readonly context: CycleContext,
    private readonly news: ReplayNews,
  ) {}

  /**
   * The window an action starts from, its elements read: the first such since the replay began
   * (or since a wait) is where the end is judged from. Only a path that records what appeared
   * and went (`treeRecorded`) can say what else did.
   */
  begin(index: number, before: Settled, treeRecorded: boolean): void {
    if (this.start !== undefined || !treeRecorded || !before.elements?.ok || before.elements.elements.length === 0) return;
    this.start = { index, elements: before.elements.elements, frame: before.frame };
  }

  /** A `wait` step: the changes while it waits were not recorded. */
  forget(): void {
    this.start = undefined;
  }

  /**
   * The tree after the expectations, against the start and the path's recorded changes; `last` is
   * the report of the path's last action, amended with what changed late.
   */
  async check(actions: readonly RecordedAction[], last: ActionReport): Promise<Held | undefined> {
    const { start } = this;
    const { stage, options } = this.context;
    const index = actions.length - 1;
    if (start === undefined || stage.app.exitInfo() !== undefined) return undefined;
    const read = await snapshot(stage, (await stage.window()).region);
    if (!read.ok || read.elements.length === 0) return undefined;
    const judged = actions.slice(start.index);
    const secret = judged.some(isSecret);
    const dynamic = [...judged.flatMap((a) => a.dynamic), ...this.news.seen];
    const end = judgeEndTree(start.elements, read.elements, netEffects(judged.map((a) => a.elements ?? [])), { dynamic, secret });
    if (end.problem !== undefined) {
      return {
        index,
        report: { ...last, verified: false },
        failure: failure('effect-not-verified', `the goal's end, after the expectations: an effect did not hold — ${end.problem}`, index),
      };
    }
    if (end.news.length === 0) return undefined;
    // News is watched a moment where it is, as after an action: a clock's label ticks again.
    const shot = await stage.shoot();
    const settled = await this.news.settledNews(end.news, { ...shot, settleMs: 0, stable: true });
    if (settled.length === 0) return undefined;
    const late = settled.map((n) => ({ ...n, element: `${n.element} after the expectations` }));
    if (!secret)
      options.onProblem?.(index, { kind: 'unexpected-change', before: start.frame, after: shot.frame, regions: newsRegions(late) });
    const report = { ...last, unexpected: [...(last.unexpected ?? []), ...late] };
    if (options.unexpectedChanges === 'warn') return { index, report };
    return {
      index,
      report,
      failure: failure(
        'unexpected-change',
        `the goal's end: the app changed what its path did not record: ${describeUnexpected(late)}`,
        index,
      ),
    };
  }
}
