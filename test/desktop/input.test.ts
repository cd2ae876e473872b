import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { toXdotoolKey } from '../../src/desktop/x-keys.ts';
import { parseKeyCombo } from '../../src/key-combo.ts';
import type { Desktop } from '../../src/desktop/types.ts';
import { InvalidInputError } from '../../src/errors.ts';
import { getTestDesktop } from '../support/desktop.ts';
import { TerminalProbe } from './terminal-probe.ts';
import { EXPECTED_INPUT } from './provider-drive.ts';

const ESC = '\x1b';

describe('parseKeyCombo', () => {
  test.each([
    ['ctrl+s', 'ctrl+s'],
    ['Control+S', 'ctrl+s'],
    ['CTRL+SHIFT+Z', 'ctrl+shift+z'],
    ['shift+Tab', 'shift+Tab'],
    ['Enter', 'Return'],
    ['return', 'Return'],
    ['esc', 'Escape'],
    ['f5', 'F5'],
    ['cmd+q', 'super+q'],
    ['Meta+Left', 'super+Left'],
    ['alt+F4', 'alt+F4'],
    ['ctrl++', 'ctrl+plus'],
    ['ctrl+-', 'ctrl+minus'],
    ['PageDown', 'Next'],
    ['A', 'A'],
    ['shift', 'Shift_L'],
    ['KP_Enter', 'KP_Enter'],
    ['Prior', 'Prior'],
    ['ArrowLeft', 'Left'],
    ['space', 'space'],
  ])('%s → %s', (combo, expected) => {
    expect(toXdotoolKey(parseKeyCombo(combo))).toBe(expected);
  });

  test.each(['', 'ctrl+', 'ctrl s', 'hyper+s', 'ctrl+é', 'ctrl+a+b'])('rejects %j', (combo) => {
    expect(() => parseKeyCombo(combo)).toThrow(InvalidInputError);
  });
});

describe('XInputDriver on a recording terminal', () => {
  let desktop: Desktop;
  let probe: TerminalProbe;

  beforeAll(async () => {
    desktop = await getTestDesktop();
    probe = await TerminalProbe.open(desktop, 'input-probe', { x: 20, y: 30 });
    await probe.focus();
  });
  afterAll(() => probe?.close());

  test('key combos arrive as the terminal encodes them', async () => {
    const cases: Array<[string, string]> = [
      ['ctrl+s', '\x13'],
      ['CTRL+a', '\x01'],
      ['ctrl+shift+z', '\x1a'],
      ['shift+Tab', `${ESC}[Z`],
      ['Return', '\r'],
      ['Enter', '\r'],
      ['Tab', '\t'],
      ['Escape', ESC],
      ['F5', `${ESC}[15~`],
      ['Up', `${ESC}[A`],
      ['BackSpace', '\x7f'],
    ];
    for (const [combo, bytes] of cases) {
      await desktop.input.key(combo);
      expect(await probe.received((t) => t.length >= bytes.length), combo).toBe(bytes);
    }
  });

  test('an unknown key is an input error', async () => {
    await expect(desktop.input.key('ctrl+NoSuchKey')).rejects.toThrow(InvalidInputError);
  });

  test('types every printable ASCII character', async () => {
    const ascii = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
    const text = `${ascii}--not-an-option ${ascii}`;
    await desktop.input.type(text);
    expect(await probe.received((t) => t.length >= text.length)).toBe(text);
  });

  /** `send` with no xdotool to be found: what arrives came over retrace's own connection. */
  const withoutXdotool = async (send: () => Promise<void>): Promise<void> => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      await send();
    } finally {
      process.env.PATH = path;
    }
  };

  test('keys and text need no process: they arrive with xdotool off the PATH', async () => {
    await withoutXdotool(async () => {
      await desktop.input.key('ctrl+e');
      await desktop.input.key('shift+Tab');
      await desktop.input.type('Hi! {x} ~/a_b');
    });
    const expected = `\x05${ESC}[ZHi! {x} ~/a_b`;
    expect(await probe.received((t) => t.length >= expected.length)).toBe(expected);
  });

  test('characters the keymap lacks are lent spare keys, with xdotool off the PATH, and keep them', async () => {
    await withoutXdotool(async () => {
      await desktop.input.type('a€b→');
      // Lent once: typed again, they are on the keys they were lent.
      await desktop.input.type('€→€');
    });
    // The probe records bytes: each of these is its bytes of UTF-8.
    const expected = Buffer.from('a€b→€→€').toString('latin1');
    expect(await probe.received((t) => t.length >= expected.length)).toBe(expected);
  });

  test('clicks, double-clicks and right-clicks at a cell', async () => {
    await desktop.input.click(await probe.cell(10, 5));
    await desktop.input.click(await probe.cell(20, 6), { count: 2 });
    await desktop.input.click(await probe.cell(30, 7), { button: 'right' });
    await desktop.input.click(await probe.cell(31, 7), { button: 'middle' });
    const reports = TerminalProbe.mouse(await probe.received((t) => TerminalProbe.mouse(t).filter((r) => !r.press).length >= 5)).filter(
      (r) => r.button < 32,
    ); // leave out the motion reports of the pointer warps
    // The same click, double click and right click as every input provider's round.
    expect(reports).toEqual([
      ...EXPECTED_INPUT.mouse.slice(0, 8),
      { button: 1, column: 31, row: 7, press: true },
      { button: 1, column: 31, row: 7, press: false },
    ]);
  });

  test('moves the pointer', async () => {
    await desktop.input.move(await probe.cell(40, 12));
    const reports = TerminalProbe.mouse(await probe.received((t) => t.includes(';40;12M')));
    expect(reports.at(-1)).toEqual({ button: 35, column: 40, row: 12, press: true });
  });

  test('scrolls by wheel steps in each direction', async () => {
    const at = await probe.cell(5, 20);
    await desktop.input.scroll(at, 'down', 3);
    await desktop.input.scroll(at, 'up', 2);
    const wheel = (t: string): number[] =>
      TerminalProbe.mouse(t)
        .filter((r) => r.button >= 64)
        .map((r) => r.button);
    expect(wheel(await probe.received((t) => wheel(t).length >= 5))).toEqual([65, 65, 65, 64, 64]);
  });

  test('the mouse loads no native library: its input goes over the own X connection', async () => {
    await desktop.input.click(await probe.cell(12, 9));
    await probe.received((t) => t.includes(';12;9m'));
    // Xlib (libnut) would take ~180 ms to load on a first click, and end the process if the server died mid-call.
    const { sharedObjects } = process.report.getReport() as unknown as { sharedObjects: string[] };
    expect(sharedObjects.filter((file) => /libnut|libX11/.test(file))).toEqual([]);
  });

  test('drags with the button held from one cell to another', async () => {
    await desktop.input.drag(await probe.cell(2, 2), await probe.cell(60, 20));
    const reports = TerminalProbe.mouse(await probe.received((t) => /\x1b\[<0;\d+;\d+m/.test(t)));
    const press = reports.findIndex((r) => r.button === 0 && r.press);
    expect(reports[press]).toMatchObject({ column: 2, row: 2 });
    const moves = reports.slice(press + 1, -1);
    expect(moves.length).toBeGreaterThan(3);
    expect(moves.every((r) => r.button === 32)).toBe(true);
    expect(reports.at(-1)).toEqual({ button: 0, column: 60, row: 20, press: false });
  });
});
