import { describe, expect, test } from 'vitest';
import { actionSpans, sequentialSpans } from '../../src/report/allure-timeline.ts';

const goal = { start: 1000, stop: 5000 };

describe('actionSpans', () => {
  test('an action spans from its start to the moment its evidence was taken', () => {
    const marks = new Map([
      [0, { start: 1500, end: 1800 }],
      [1, { start: 2000, end: 2600 }],
    ]);
    expect(actionSpans(2, [250, 500], marks, goal)).toEqual([
      { start: 1500, stop: 1800 },
      { start: 2000, stop: 2600 },
    ]);
  });

  test('a report that grew after its evidence (a later look, failure images) lasts its reported duration, up to the next action', () => {
    const marks = new Map([
      [0, { start: 1500, end: 1800 }],
      [1, { start: 2400, end: 2600 }],
      [2, { start: 3000, end: 3100 }],
    ]);
    expect(actionSpans(3, [500, 900, 100], marks, goal)).toEqual([
      { start: 1500, stop: 2000 },
      { start: 2400, stop: 3000 },
      { start: 3000, stop: 3100 },
    ]);
  });

  test('without evidence (a secret typed, a wait), its reported duration from its start', () => {
    const marks = new Map([[0, { start: 1500 }]]);
    expect(actionSpans(1, [700], marks, goal)).toEqual([{ start: 1500, stop: 2200 }]);
  });

  test('without a start, it follows the previous action', () => {
    const marks = new Map([[0, { start: 1500, end: 1800 }]]);
    expect(actionSpans(2, [300, 100], marks, goal)).toEqual([
      { start: 1500, stop: 1800 },
      { start: 1800, stop: 1900 },
    ]);
  });

  test('the action that failed before reporting ends where the goal ended', () => {
    const marks = new Map([
      [0, { start: 1500, end: 1800 }],
      [1, { start: 2000 }],
    ]);
    expect(actionSpans(2, [300], marks, goal)[1]).toEqual({ start: 2000, stop: 5000 });
  });

  test('spans stay inside the goal', () => {
    expect(actionSpans(1, [9000], new Map([[0, { start: 500 }]]), goal)).toEqual([{ start: 1000, stop: 5000 }]);
  });
});

test('sequentialSpans: back to back after the last action, cut at the end of the goal', () => {
  expect(sequentialSpans([100, 200, 5000], 2000, goal)).toEqual([
    { start: 2000, stop: 2100 },
    { start: 2100, stop: 2300 },
    { start: 2300, stop: 5000 },
  ]);
});
