/**
 * A tree read that fails while the app is still on the accessibility bus is never "the app
 * publishes no elements": it is read again, and a second failure is the read's failure, with
 * its cause. The app is fixtures/apps/atspi-flaky.py: a real window and a tree of its own on the
 * real bus, whose cache fails the first asks.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { AppSession, ElementSource } from '../../src/desktop/types.ts';
import { getTestDesktop } from '../support/desktop.ts';

const APP = fileURLToPath(new URL('../../fixtures/apps/atspi-flaky.py', import.meta.url));

const launched = async (failing: string): Promise<{ app: AppSession; elements: ElementSource }> => {
  const desktop = await getTestDesktop();
  expect(desktop.elements, 'the test display has an accessibility bus').toBeDefined();
  const app = await desktop.launch({ launch: `/usr/bin/python3 ${APP} ${failing}`, window: 'Retrace flaky tree' });
  return { app, elements: desktop.elements as ElementSource };
};

describe('a tree read that fails while the app is on the bus', () => {
  test('one failed read is read again: the app publishes its button', async () => {
    const { app, elements } = await launched('1');
    try {
      expect((await elements.read(app)).map((e) => [e.role, e.name])).toEqual([['button', 'Flaky']]);
    } finally {
      await app.close();
    }
  });

  test('a read that keeps failing fails, saying why, not as no elements', async () => {
    const { app, elements } = await launched('always');
    try {
      await expect(elements.read(app)).rejects.toThrow(/the app's tree could not be read: .*the tree is being rebuilt/);
    } finally {
      await app.close();
    }
  });
});
