import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Desktop } from '../../src/desktop/types.ts';
import { getTestDesktop } from '../support/desktop.ts';
import { TerminalProbe } from './terminal-probe.ts';

describe('XWindowSystem without a window manager', () => {
  let desktop: Desktop;
  let left: TerminalProbe;
  let right: TerminalProbe;

  beforeAll(async () => {
    desktop = await getTestDesktop();
    // One after the other: each launch ends by focusing its window.
    left = await TerminalProbe.open(desktop, 'focus-left', { x: 10, y: 10 });
    right = await TerminalProbe.open(desktop, 'focus-right', { x: 600, y: 10 });
  });
  afterAll(async () => {
    await Promise.all([left?.close(), right?.close()]);
  });

  test('lists top-level windows with title, pid and content geometry', async () => {
    const all = await desktop.windows.list();
    const l = all.find((w) => w.title === 'focus-left');
    expect(l).toBeDefined();
    expect(l?.pid).toBe(left.app.pid);
    // -geometry +10+10 places the outer corner; the content starts inside the 1-pixel border.
    expect(l?.region).toMatchObject({ x: 11, y: 11 });
    expect(await desktop.windows.get(l?.id ?? 0)).toEqual(l);
    expect(await desktop.windows.get(0x7ffffff)).toBeUndefined();
  });

  test('gives focus to each window in turn, and typing follows it', async () => {
    const [l, r] = await Promise.all([left.app.window(), right.app.window()]);
    await desktop.windows.focus(l.id);
    expect((await desktop.windows.focused())?.id).toBe(l.id);
    await desktop.input.type('to-left');
    await desktop.windows.focus(r.id);
    expect((await desktop.windows.focused())?.title).toBe('focus-right');
    await desktop.input.type('to-right');
    await left.app.focus();
    expect((await desktop.windows.focused())?.id).toBe(l.id);
    await desktop.input.type('!');

    expect(await left.received((t) => t.length >= 8)).toBe('to-left!');
    expect(await right.received((t) => t.length >= 8)).toBe('to-right');
  });

  test('moves and resizes a window', async () => {
    const { id } = await right.app.window();
    await desktop.windows.move(id, 700, 300);
    await desktop.windows.resize(id, 300, 200);
    const moved = await desktop.windows.get(id);
    expect(moved?.region).toEqual({ x: 701, y: 301, width: 300, height: 200 });
  });
});
