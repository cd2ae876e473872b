/**
 * Learns a path on a desktop in memory, one action a cycle, as the learner would record it: the
 * shared start of the brain tests that replay the counter app's path against variants of it.
 */
import { expect } from 'vitest';
import type { Action, Path, RecordedAction } from '../../src/domain.ts';
import { ActionCycle, type CycleOptions } from '../../src/brain/cycle.ts';
import type { AssetSink } from '../../src/brain/observe.ts';
import type { FakeDesktop } from './fake-desktop.ts';

export async function learnCounterPath(desktop: FakeDesktop, actions: readonly Action[], options: CycleOptions): Promise<{ path: Path; assets: AssetSink }> {
  const cycle = new ActionCycle(desktop.stage(), options);
  const assets: AssetSink = new Map();
  const recorded: RecordedAction[] = [];
  for (const [index, action] of actions.entries()) {
    const outcome = await cycle.run({ kind: 'learn', action, index, dynamic: [], assets });
    expect(outcome.failure).toBeUndefined();
    recorded.push(outcome.observed!);
  }
  const path: Path = {
    version: 1,
    spec: 'specs/counter.yaml',
    goal: 'add',
    source: { kind: 'steps', hash: 'h', text: '' },
    planner: 'scripted',
    window: { width: 240, height: 140 },
    actions: recorded,
  };
  return { path, assets };
}
