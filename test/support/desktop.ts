/**
 * A real desktop for tests in any folder: one Xvfb per vitest worker process, started on
 * first use and stopped when the process exits.
 *
 * It never uses an inherited `$DISPLAY`: test files in parallel workers would otherwise share
 * one mouse and one keyboard focus. nut-js binds to a display once per process (see
 * src/desktop/nut.ts), which is why the desktop is cached per process, on `process`, so it
 * survives vitest re-evaluating modules between test files.
 */
import { openDesktop } from '../../src/desktop/index.ts';
import type { Desktop } from '../../src/desktop/types.ts';

const KEY = Symbol.for('retrace.test.desktop');
const holder = process as unknown as { [KEY]?: Promise<Desktop> };

export const getTestDesktop = (): Promise<Desktop> => {
  const cached = holder[KEY];
  if (cached !== undefined) return cached;
  const started = openDesktop({ own: true });
  holder[KEY] = started;
  // A failed start is not cached: the next test file may try again.
  started.catch(() => {
    if (holder[KEY] === started) holder[KEY] = undefined;
  });
  return started;
};
