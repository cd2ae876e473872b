/** The proposal of a path healed in a window of another size. */
import { describe, expect, test } from 'vitest';
import type { Path, RecordedAction } from '../../src/domain.ts';
import { inWindow } from '../../src/brain/replay-goal.ts';
import { parsePathFile } from '../../src/paths/validate.ts';

const recorded: Path = {
  version: 2,
  spec: 'specs/a.yaml',
  goal: 'g',
  planner: 'rules',
  source: { kind: 'goal', hash: 'x', text: 'click "7"' },
  window: { width: 360, height: 480 },
  actions: [],
};
const action = (x: number, dynamicX: number): RecordedAction => ({
  action: { kind: 'click', target: { text: '7' } },
  anchor: { point: { x: x + 10, y: 60 }, box: { x, y: 50, width: 40, height: 30 }, image: 'a.png' },
  before: 'fp',
  after: 'fp',
  effects: [{ region: { x, y: 44, width: 33, height: 41 }, kind: 'text', image: 'e.png', text: '7' }],
  dynamic: [{ x: dynamicX, y: 10, width: 30, height: 12 }],
  settleMs: 0,
});
const valid = (path: Path): Path => parsePathFile('g.proposed.path.json', JSON.stringify(path));

describe('inWindow', () => {
  test('an effect found past the recorded window is saved in the window it was found in', () => {
    // Healed in a 420×560 window: found at 362, beyond the recorded 360.
    const healed = inWindow(recorded, [action(362, 380)], { width: 420, height: 560 });
    expect(healed.window).toEqual({ width: 420, height: 560 });
    expect(valid(healed).actions[0]?.effects[0]?.region).toEqual({ x: 362, y: 44, width: 33, height: 41 });
    expect(() => valid({ ...healed, window: recorded.window })).toThrow(/inside the recorded 360×480 window/);
  });

  test('evidence kept from the recorded window is clipped to a smaller one, or dropped when wholly outside', () => {
    const healed = valid(inWindow(recorded, [action(280, 330)], { width: 300, height: 400 }));
    expect(healed.actions[0]?.effects[0]?.region).toEqual({ x: 280, y: 44, width: 20, height: 41 });
    expect(healed.actions[0]?.anchor?.box).toEqual({ x: 280, y: 50, width: 20, height: 30 });
    expect(healed.actions[0]?.dynamic).toEqual([]);
  });
});
