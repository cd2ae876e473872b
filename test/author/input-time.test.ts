/** When an input happened: the X server's time stamp, put on the clock of performance.now(). */
import { describe, expect, test } from 'vitest';
import { happenedAt } from '../../src/desktop/input-listener.ts';

describe('happenedAt', () => {
  test('an event heard 180 ms after the server stamped it happened 180 ms ago', () => {
    expect(happenedAt(912_141, 5_000, 912_321)).toBe(4_820);
  });

  test("across the wrap of the server's 32-bit clock", () => {
    expect(happenedAt(2 ** 32 - 50, 5_000, 2 ** 32 + 100)).toBe(4_850);
  });

  test("a server clock a little ahead is now; another machine's clock is not ours: now", () => {
    expect(happenedAt(1_002, 5_000, 1_000)).toBe(5_000);
    expect(happenedAt(10, 5_000, 3_600_000)).toBe(5_000);
  });
});
