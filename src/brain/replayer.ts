/**
 * Deterministic replay of a recorded path, with zero model calls unless healing with the model
 * is allowed (the model rung counts its own calls): each recorded action goes through the action cycle (settle, resolve by the ladder,
 * act, settle, verify the recorded effects, look for changes nobody recorded). The first action
 * that fails ends the replay; so does an effect that did not hold until the next action (or, for
 * the last one, for a moment after it).
 */
import type { ActionReport, Frame, Path, RecordedAction } from '../domain.ts';
import { decodePng } from '../vision/frame.ts';
import type { ActionCycle, ActionFailure } from './cycle.ts';
import type { AssetSink } from './observe.ts';
import { describeAction } from '../spec-file/describe.ts';

export interface Replay {
  /** Reports of the actions replayed, the failed one included. */
  readonly reports: readonly ActionReport[];
  /** True when any action needed a rung below "recorded" or found its effect elsewhere. */
  readonly healed: boolean;
  /** The path as seen in this replay: proposed beside the original when healed. */
  readonly observed: { readonly actions: readonly RecordedAction[]; readonly assets: AssetSink };
  readonly failure?: ActionFailure;
}

export interface ReplayInput {
  readonly cycle: ActionCycle;
  readonly path: Path;
  /** Reads an image of the path. */
  readonly asset: (name: string) => Uint8Array;
  /** Called before each action, for progress. */
  readonly onAction?: (index: number, total: number, description: string) => void;
}

/** The path format from which a path records the elements an action brought or took away. */
const TREE_RECORDED = 3;

export async function replay(input: ReplayInput): Promise<Replay> {
  const { path } = input;
  const images = new Map<string, Frame>();
  const image = (name: string): Frame => {
    let frame = images.get(name);
    if (!frame) {
      frame = decodePng(input.asset(name));
      images.set(name, frame);
    }
    return frame;
  };
  const reports: ActionReport[] = [];
  const observed = { actions: [] as RecordedAction[], assets: new Map() as AssetSink };
  let healed = false;
  // A later look at the last action (its effects held? a late change?) amends its report.
  const held = async (final: boolean): Promise<ActionFailure | undefined> => {
    const look = await input.cycle.hold(final);
    if (look) reports[look.index] = look.report;
    return look?.failure;
  };
  for (const [index, recorded] of path.actions.entries()) {
    // The action's clock starts with the look at the last one: its wait before it.
    input.onAction?.(index, path.actions.length, describeAction(recorded.action));
    const late = await held(false);
    if (late) return { reports, healed, observed, failure: late };
    const outcome = await input.cycle.run({
      kind: 'replay',
      recorded,
      index,
      image,
      assets: observed.assets,
      treeRecorded: path.version >= TREE_RECORDED,
      recordedWindow: path.window,
    });
    reports.push(outcome.report);
    if (outcome.failure || !outcome.observed) {
      return { reports, healed, observed, ...(outcome.failure ? { failure: outcome.failure } : {}) };
    }
    healed ||= outcome.healed;
    observed.actions.push(outcome.observed);
  }
  const late = await held(true);
  return { reports, healed, observed, ...(late ? { failure: late } : {}) };
}
