/**
 * The element source on real apps: what GTK (zenity, galculator), Chromium (a fixture app) and
 * Tk publish over the accessibility bus, where, and how a query finds it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { pollUntil } from '../../src/desktop/poll.ts';
import type { Region } from '../../src/domain.ts';
import type { AppSession, Desktop, Element, ElementSource } from '../../src/desktop/types.ts';
import { getTestDesktop } from '../support/desktop.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/apps/', import.meta.url));
const APPS = JSON.parse(readFileSync(`${FIXTURES}apps.json`, 'utf8')) as Record<
  string,
  { regions: Record<string, [number, number, number, number]> }
>;

const source = (desktop: Desktop): ElementSource => {
  expect(desktop.elements, 'the test display has an accessibility bus').toBeDefined();
  return desktop.elements as ElementSource;
};

/** Apps register on the bus a moment after their window maps. */
const readWhenPublished = async (elements: ElementSource, app: AppSession, atLeast: number): Promise<readonly Element[]> => {
  let read: readonly Element[] = [];
  await expect
    .poll(async () => (read = await elements.read(app)).length, { timeout: 10_000, interval: 100 })
    .toBeGreaterThanOrEqual(atLeast);
  return read;
};

const inside = (box: Region, window: Region): boolean =>
  box.x >= 0 && box.y >= 0 && box.width > 0 && box.height > 0 && box.x + box.width <= window.width && box.y + box.height <= window.height;

const centre = (box: Region, window: Region) => ({
  x: window.x + box.x + Math.floor(box.width / 2),
  y: window.y + box.y + Math.floor(box.height / 2),
});

describe('GTK: a zenity forms dialog', () => {
  test('lists its entries named by their labels, and OK/Cancel, with boxes inside the window', async () => {
    const desktop = await getTestDesktop();
    const elements = source(desktop);
    const app = await desktop.launch({ launch: 'zenity --forms --title Form --add-entry Name --add-entry City', window: 'Form' });
    try {
      const window = (await app.window()).region;
      const all = await readWhenPublished(elements, app, 8);
      expect(all[0]).toMatchObject({
        role: 'dialog',
        name: 'Form',
        depth: 0,
        box: { x: 0, y: 0, width: window.width, height: window.height },
      });
      const entries = all.filter((e) => e.role === 'entry');
      expect(entries.map((e) => e.label).sort()).toEqual(['City', 'Name']);
      for (const [role, name] of [
        ['button', 'OK'],
        ['button', 'Cancel'],
        ['entry', 'Name'],
        ['entry', 'City'],
        ['label', 'Name'],
      ]) {
        const [found, ...more] = await elements.find(app, { role, name }, { window });
        expect(more, name).toEqual([]);
        expect(inside((found as Element).box, window), `${name} ${JSON.stringify(found?.box)}`).toBe(true);
      }
      // Without a role, a name finds the label and the entry it names.
      expect((await elements.find(app, { name: 'Name' })).map((e) => e.role).sort()).toEqual(['entry', 'label']);
      // Each entry sits right of its own label.
      const [name] = await elements.find(app, { role: 'entry', name: 'Name' });
      const [nameLabel] = await elements.find(app, { role: 'label', name: 'Name' });
      expect(name?.box.x).toBeGreaterThan((nameLabel?.box.x ?? 0) + (nameLabel?.box.width ?? 0) - 1);
      expect(Math.abs((name?.box.y ?? 0) - (nameLabel?.box.y ?? 0))).toBeLessThan(10);
      expect(await elements.find(app, { role: 'button', name: /^(OK|Cancel)$/ })).toHaveLength(2);
      expect(await elements.find(app, { role: 'button', name: /^(OK|Cancel)$/, nth: 1 })).toHaveLength(1);
      expect(await elements.find(app, { role: 'button', name: 'Apply' })).toEqual([]);

      // Typed text and focus show in the element read again, without a tree read.
      const city = (await elements.find(app, { role: 'entry', name: 'City' }))[0] as Element;
      await desktop.input.click(centre(city.box, window));
      await desktop.input.type('Paris');
      // xdotool returns once the keys are sent; the entry may take a moment to have them all.
      const now =
        (await pollUntil(
          async () => {
            const read = await elements.refresh(app, city);
            return read?.text === 'Paris' ? read : undefined;
          },
          { timeoutMs: 2_000, intervalMs: 10 },
        )) ?? (await elements.refresh(app, city));
      expect(now).toMatchObject({ ref: city.ref, text: 'Paris', label: 'City', states: { focused: true, editable: true } });
    } finally {
      await app.close();
    }
  });
});

describe('GTK at GDK_SCALE=2: boxes published in logical units', () => {
  test("are read in the window's pixels: the dialog is the window, its entries inside it", async () => {
    const desktop = await getTestDesktop();
    const elements = source(desktop);
    const app = await desktop.launch({ launch: 'zenity --forms --title Form --add-entry Name', window: 'Form', env: { GDK_SCALE: '2' } });
    try {
      const window = (await app.window()).region;
      const all = await readWhenPublished(elements, app, 4);
      expect(all[0]).toMatchObject({ depth: 0, box: { x: 0, y: 0, width: window.width, height: window.height } });
      const [name] = await elements.find(app, { role: 'entry', name: 'Name' });
      expect(inside((name as Element).box, window), JSON.stringify(name?.box)).toBe(true);
      // Drawn at twice the size: an entry is far taller than GTK's 34 logical pixels at scale 1.
      expect(name?.box.height).toBeGreaterThanOrEqual(60);
      expect((await elements.refresh(app, name as Element))?.box).toEqual(name?.box);
    } finally {
      await app.close();
    }
  });
});

describe('GTK: a zenity list (a tree view, whose rows the cache never lists)', () => {
  test('publishes its rows as cells, inside the table, in order', async () => {
    const desktop = await getTestDesktop();
    const elements = source(desktop);
    const app = await desktop.launch({ launch: 'zenity --list --title Fruit --column Fruit Apple Cherry Plum', window: 'Fruit' });
    try {
      const window = (await app.window()).region;
      const all = await readWhenPublished(elements, app, 8);
      const table = all.find((e) => e.role === 'table');
      const cells = all.filter((e) => e.role === 'cell' && e.parent === table?.ref);
      expect(cells.map((e) => e.name)).toEqual(expect.arrayContaining(['Apple', 'Cherry', 'Plum']));
      for (const cell of cells.filter((e) => e.name !== 'Fruit'))
        expect(inside(cell.box, window), `${cell.name} ${JSON.stringify(cell.box)}`).toBe(true);
    } finally {
      await app.close();
    }
  });
});

describe('GTK: galculator', () => {
  test('its buttons are found by name, and a click at a button box presses that button', async () => {
    const desktop = await getTestDesktop();
    const elements = source(desktop);
    const app = await desktop.launch({ launch: 'galculator', window: 'galculator', size: [400, 360] });
    try {
      const window = (await app.window()).region;
      await readWhenPublished(elements, app, 20);
      for (const label of ['7', '+', '8', '=']) {
        const [button] = await elements.find(app, { role: 'button', name: label });
        expect(button, label).toMatchObject({ toolkitRole: 'toggle button', states: { sensitive: true, showing: true } });
        expect(inside((button as Element).box, window)).toBe(true);
        await desktop.input.click(centre((button as Element).box, window));
      }
      // The display is a text element: 7 + 8 = 15.
      await expect
        .poll(async () =>
          (await elements.read(app, { window })).find((e) => e.toolkitRole === 'text' && e.text !== undefined)?.text?.trim(),
        )
        .toBe('15');
    } finally {
      await app.close();
    }
  });
});

describe('GTK 4: gnome-calculator', () => {
  test('draws (cairo renderer), publishes its keys below the window under their names said once, and a click at a key box presses it', async () => {
    const desktop = await getTestDesktop();
    const elements = source(desktop);
    const app = await desktop.launch({ launch: 'gnome-calculator', window: 'Calculator' });
    try {
      const window = (await app.window()).region;
      await readWhenPublished(elements, app, 30);
      for (const label of ['7', '+', '8', '=']) {
        const found = await elements.find(app, { role: 'button', name: label });
        expect(found, label).toHaveLength(1);
        expect(found[0], label).toMatchObject({ toolkitRole: 'push button', states: { sensitive: true, showing: true } });
        expect(inside((found[0] as Element).box, window)).toBe(true);
        const fresh = await elements.refresh(app, found[0] as Element);
        expect(fresh, label).toMatchObject({ name: label, states: { showing: true } });
        await desktop.input.click(centre((found[0] as Element).box, window));
      }
      // Drawn, not a black window: the result is on screen, read by OCR.
      const { sharedTextReader } = await import('../../src/vision/ocr/tesseract-reader.ts');
      await expect
        .poll(async () => (await sharedTextReader().read(await desktop.capture.grab(window))).text, { timeout: 10_000 })
        .toMatch(/\b15\b/);
    } finally {
      await app.close();
    }
  });
});

describe('Chromium: the fixture calculator', () => {
  test('publishes its page: buttons where apps.json says they are', async () => {
    const desktop = await getTestDesktop();
    const elements = source(desktop);
    const app = await desktop.launch({ launch: `${FIXTURES}open calculator`, window: 'Retrace Calculator' });
    try {
      await readWhenPublished(elements, app, 20);
      const regions = APPS.calculator?.regions ?? {};
      for (const [label, key] of [
        ['7', 'key-7'],
        ['=', 'key-equals'],
        ['C', 'key-clear'],
      ] as const) {
        const [button, ...more] = await elements.find(app, { role: 'button', name: label });
        expect(more).toEqual([]);
        const [x, y, width, height] = regions[key] as [number, number, number, number];
        expect(button?.box.x).toBeCloseTo(x, -1);
        expect(button?.box.y).toBeCloseTo(y, -1);
        expect(Math.abs((button?.box.width ?? 0) - width)).toBeLessThanOrEqual(2);
        expect(Math.abs((button?.box.height ?? 0) - height)).toBeLessThanOrEqual(2);
      }
      expect((await elements.read(app)).some((e) => e.role === 'document' && e.name === 'Retrace Calculator')).toBe(true);
    } finally {
      await app.close();
    }
  });
});

/** featherpad is the Qt app scripts/setup.sh installs. */
describe('Qt 5: featherpad', () => {
  test('publishes its tool buttons and menus, read by walking the tree', async () => {
    const desktop = await getTestDesktop();
    const elements = source(desktop);
    const app = await desktop.launch({ launch: 'featherpad', window: 'Untitled', size: [700, 500] });
    try {
      const window = (await app.window()).region;
      await readWhenPublished(elements, app, 20);
      for (const [role, name] of [
        ['button', 'New'],
        ['button', 'Open'],
        ['menuitem', 'File'],
        ['tab', 'Untitled'],
      ]) {
        const [found, ...more] = await elements.find(app, { role, name }, { window });
        expect(more, name).toEqual([]);
        expect(inside((found as Element).box, window), `${name} ${JSON.stringify(found?.box)}`).toBe(true);
      }
    } finally {
      await app.close();
    }
  });
});

describe('apps that publish nothing', () => {
  test('a Tk window reads as no elements, and everything else works', async () => {
    const desktop = await getTestDesktop();
    const elements = source(desktop);
    const script = "import tkinter as t; r = t.Tk(); r.title('tk-silent'); t.Button(r, text='Press').pack(); r.mainloop()";
    const app = await desktop.launch({ launch: `python3 -c "${script}"`, window: 'tk-silent' });
    try {
      expect(await elements.read(app)).toEqual([]);
      expect(await elements.find(app, { role: 'button', name: 'Press' })).toEqual([]);
      expect(await elements.status()).toMatchObject({ up: true });
    } finally {
      await app.close();
    }
  });
});
