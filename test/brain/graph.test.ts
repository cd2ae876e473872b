import { describe, expect, test } from 'vitest';
import { NavigationGraph } from '../../src/brain/graph.ts';
import { fingerprint } from '../../src/vision/fingerprint.ts';
import { createFrame, fillRegion } from '../../src/vision/frame.ts';
import type { Path } from '../../src/domain.ts';

/** A synthetic screen: a grey window with one dark block whose place tells the screens apart. */
const screen = (x: number, y: number): string => {
  const frame = createFrame(320, 240, [230, 230, 230, 255]);
  fillRegion(frame, { x, y, width: 80, height: 60 }, [20, 20, 20, 255]);
  return fingerprint(frame);
};

const HOME = screen(10, 10);
const SETTINGS = screen(200, 10);
const DISPLAY = screen(10, 160);
const SOUND = screen(200, 160);

const path = (goal: string, from: string, to: string): Path => ({
  version: 1,
  spec: 'specs/settings.yaml',
  goal,
  source: { kind: 'goal', hash: goal, text: goal },
  planner: 'rules',
  window: { width: 320, height: 240 },
  actions: [{ action: { kind: 'click', target: { x: 1, y: 1 } }, before: from, after: to, effects: [], dynamic: [], settleMs: 0 }],
});

describe('navigation graph', () => {
  const graph = new NavigationGraph([
    path('open-settings', HOME, SETTINGS),
    path('open-display', SETTINGS, DISPLAY),
    path('back', DISPLAY, SETTINGS),
    path('open-sound', SETTINGS, SOUND),
  ]);

  test('tells which known state a screen is in, with no model call', () => {
    expect(graph.locate(screen(10, 160))).toBe(DISPLAY);
    expect(graph.locate(screen(100, 90))).toBeUndefined();
  });

  test('finds the shortest chain of learned paths between two states', () => {
    expect(graph.route(HOME, DISPLAY)?.map((e) => e.goal)).toEqual(['open-settings', 'open-display']);
    expect(graph.route(DISPLAY, SOUND)?.map((e) => e.goal)).toEqual(['back', 'open-sound']);
    expect(graph.route(SETTINGS, SETTINGS)).toEqual([]);
  });

  test('has no route where no learned path leads', () => {
    expect(graph.route(SOUND, HOME)).toBeUndefined();
  });
});
