/**
 * The order forms of the toolkit corpus (fixtures/apps/order) publish element boxes in screen
 * pixels at every scale: at QT_SCALE_FACTOR=2, GDK_SCALE=2 and Chromium's device scale factor 2
 * the boxes are twice those at scale 1, and a click at the centre of entry "Item"'s box puts
 * what is typed into that entry, and the app's window element is the window. A box in unscaled
 * units would click beside it.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { pollUntil } from '../../src/desktop/poll.ts';
import type { Region } from '../../src/domain.ts';
import type { Desktop, Element, ElementSource } from '../../src/desktop/types.ts';
import { getTestDesktop } from '../support/desktop.ts';

const ORDER = fileURLToPath(new URL('../../fixtures/apps/order/', import.meta.url));
const OPEN = fileURLToPath(new URL('../../fixtures/apps/open', import.meta.url));

interface Kit {
  readonly name: string;
  readonly launch: string;
  readonly window: string;
  readonly base: Readonly<Record<string, string>>;
  readonly scaled: Readonly<Record<string, string>>;
}

const TOOLKITS: readonly Kit[] = [
  {
    name: 'Qt 5',
    launch: `/usr/bin/python3 ${ORDER}qt-order.py`,
    window: 'Retrace Qt order',
    base: { QT_ACCESSIBILITY: '1', QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1' },
    scaled: { QT_SCALE_FACTOR: '2' },
  },
  { name: 'GTK 3', launch: `/usr/bin/python3 ${ORDER}gtk-order.py`, window: 'Retrace GTK order', base: {}, scaled: { GDK_SCALE: '2' } },
  {
    name: 'Chromium',
    launch: `${OPEN} order`,
    window: 'Retrace Chromium order',
    base: {},
    scaled: { RETRACE_CHROMIUM_FLAGS: '--force-device-scale-factor=2' },
  },
];

interface Read {
  readonly window: Region;
  readonly add: Region;
  readonly item: Region;
}

async function readForm(desktop: Desktop, kit: Kit, env: Readonly<Record<string, string>>): Promise<Read> {
  const elements = desktop.elements as ElementSource;
  const app = await desktop.launch({ launch: kit.launch, window: kit.window, env: { ...kit.base, ...env } });
  try {
    const window = (await app.window()).region;
    const find = async (role: string, name: string): Promise<Element> => {
      const found = await pollUntil(async () => (await elements.find(app, { role, name }, { window }))[0], {
        timeoutMs: 10_000,
        intervalMs: 100,
      });
      expect(found, `${kit.name}: ${role} "${name}" is published`).toBeDefined();
      return found as Element;
    };
    const add = await find('button', 'Add');
    const item = await find('entry', 'Item');
    // The app's window element holds its page: at half the window (Chromium's frame in logical
    // units) it would clip the page's lower right away, and entry "Item" would be off screen.
    const frame = (await elements.read(app, { window })).find((e) => e.depth === 0 && e.name === kit.window);
    expect(frame?.box, `${kit.name} ${JSON.stringify(env)}: the window element is the window`).toEqual({
      x: 0,
      y: 0,
      width: window.width,
      height: window.height,
    });
    await desktop.input.click({
      x: window.x + item.box.x + Math.floor(item.box.width / 2),
      y: window.y + item.box.y + Math.floor(item.box.height / 2),
    });
    await desktop.input.type('Tea');
    const typed = await pollUntil(
      async () => {
        const now = await elements.refresh(app, item);
        return now?.text === 'Tea' ? now : undefined;
      },
      { timeoutMs: 3_000, intervalMs: 20 },
    );
    expect((await elements.refresh(app, item))?.text, `${kit.name} ${JSON.stringify(env)}: typed at the centre of entry "Item"`).toBe(
      'Tea',
    );
    expect(typed).toBeDefined();
    return { window, add: add.box, item: item.box };
  } finally {
    await app.close();
  }
}

describe('element boxes of the order forms at scale 2', () => {
  for (const kit of TOOLKITS) {
    test(`${kit.name}: boxes double with the scale, and the entry's box is where it is drawn`, async () => {
      const desktop = await getTestDesktop();
      expect(desktop.elements, 'the test display has an accessibility bus').toBeDefined();
      const one = await readForm(desktop, kit, {});
      const two = await readForm(desktop, kit, kit.scaled);
      expect(two.window.width).toBe(one.window.width * 2);
      for (const key of ['add', 'item'] as const) {
        for (const side of ['x', 'y', 'width', 'height'] as const) {
          expect(
            Math.abs(two[key][side] - 2 * one[key][side]),
            `${kit.name} ${key}.${side}: ${JSON.stringify(one[key])} at 1, ${JSON.stringify(two[key])} at 2`,
          ).toBeLessThanOrEqual(4);
        }
      }
    }, 90_000);
  }
});
