/**
 * Learning a path on the counter app in memory, and replaying it on a variant: the two halves
 * of every unit test of the cycle's rules.
 */
import { expect } from 'vitest';
import type { Action, Path, RecordedAction } from '../../src/domain.ts';
import { ActionCycle, type CycleOptions } from '../../src/brain/cycle.ts';
import { replay } from '../../src/brain/replayer.ts';
import type { AssetSink } from '../../src/brain/observe.ts';
import type { Problem } from '../../src/brain/outcome.ts';
import type { TextReader } from '../../src/vision/types.ts';
import { ADD, CounterApp, FakeDesktop, WINDOW, type CounterOptions } from './fake-desktop.ts';

export const OPTIONS: CycleOptions = { settleTimeoutMs: 2000, actionTimeoutMs: 500, resolveText: (t) => t };
export const clickAdd = { kind: 'click', target: { x: ADD.x + 30, y: ADD.y + 14 } } as const satisfies Action;

export interface Learned {
  readonly path: Path;
  readonly assets: AssetSink;
}

/** Learns `actions` on the counter app (the base variant, or `variant`). */
export function learnPath(actions: readonly Action[], variant: CounterOptions = {}, reader?: TextReader): Promise<Learned> {
  return learnOn(new FakeDesktop(new CounterApp(variant)), actions, OPTIONS, reader);
}

/** Learns `actions` on a given desktop in memory (one that publishes elements, say), one action a cycle. */
export async function learnOn(
  desktop: FakeDesktop,
  actions: readonly Action[],
  options: CycleOptions = OPTIONS,
  reader?: TextReader,
): Promise<Learned> {
  const cycle = new ActionCycle(desktop.stage(undefined, reader), options);
  const assets: AssetSink = new Map();
  const recorded: RecordedAction[] = [];
  for (const [index, action] of actions.entries()) {
    const outcome = await cycle.run({ kind: 'learn', action, index, dynamic: [], assets });
    expect(outcome.failure).toBeUndefined();
    recorded.push(outcome.observed!);
  }
  const path: Path = {
    version: 2,
    spec: 'specs/counter.yaml',
    goal: 'add',
    source: { kind: 'steps', hash: 'h', text: '' },
    planner: 'scripted',
    window: { width: WINDOW.width, height: WINDOW.height },
    actions: recorded,
  };
  return { path, assets };
}

export interface ReplayOn {
  readonly signal?: AbortSignal;
  readonly reader?: TextReader;
  readonly options?: Partial<CycleOptions>;
}

/** Replays a learned path on a variant of the app; the problems the cycle reported are kept. */
export function replayOn(variant: CounterOptions, learned: Learned, how: ReplayOn = {}) {
  const desktop = new FakeDesktop(new CounterApp(variant));
  const problems: { index: number; problem: Problem }[] = [];
  const cycle = new ActionCycle(desktop.stage(how.signal, how.reader), {
    ...OPTIONS,
    onProblem: (index, problem) => problems.push({ index, problem }),
    ...how.options,
  });
  const done = replay({ cycle, path: learned.path, asset: (name) => learned.assets.get(name)! });
  return { desktop, done, problems };
}
