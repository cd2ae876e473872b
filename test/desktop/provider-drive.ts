/**
 * One round of input through a desktop's providers into a recording terminal (terminal-probe.ts):
 * a click, a double click, a right click, a wheel step, a drag, key combos and typed text —
 * what each input provider must deliver exactly. Returns what the terminal received, for the
 * test (or, in a child process, its parent) to compare with EXPECTED_INPUT.
 */
import type { Desktop } from '../../src/desktop/types.ts';
import { TerminalProbe, type MouseReport } from './terminal-probe.ts';

const ESC = '\x1b';
const COMBOS: ReadonlyArray<readonly [string, string]> = [
  ['ctrl+e', '\x05'],
  ['shift+Tab', `${ESC}[Z`],
  ['Return', '\r'],
  ['F5', `${ESC}[15~`],
];
const TEXT = 'Hi! {x} ~/a_b';

export interface DrivenInput {
  readonly mouse: readonly MouseReport[];
  readonly keys: string;
  readonly typed: string;
}

/** Button reports, the pointer's motion reports left out: press and release of every button. */
const buttons = (text: string): MouseReport[] => TerminalProbe.mouse(text).filter((r) => r.button < 32 || r.button >= 64);

export const EXPECTED_INPUT: DrivenInput = {
  mouse: [
    { button: 0, column: 10, row: 5, press: true },
    { button: 0, column: 10, row: 5, press: false },
    { button: 0, column: 20, row: 6, press: true },
    { button: 0, column: 20, row: 6, press: false },
    { button: 0, column: 20, row: 6, press: true },
    { button: 0, column: 20, row: 6, press: false },
    { button: 2, column: 30, row: 7, press: true },
    { button: 2, column: 30, row: 7, press: false },
    { button: 65, column: 5, row: 9, press: true },
    { button: 0, column: 2, row: 2, press: true },
    { button: 0, column: 40, row: 12, press: false },
  ],
  keys: COMBOS.map(([, bytes]) => bytes).join(''),
  typed: TEXT,
};

export const driveProbe = async (desktop: Desktop, title: string): Promise<DrivenInput> => {
  const probe = await TerminalProbe.open(desktop, title, { x: 20, y: 30 });
  try {
    await probe.focus();
    await desktop.input.click(await probe.cell(10, 5));
    await desktop.input.click(await probe.cell(20, 6), { count: 2 });
    await desktop.input.click(await probe.cell(30, 7), { button: 'right' });
    await desktop.input.scroll(await probe.cell(5, 9), 'down', 1);
    await desktop.input.drag(await probe.cell(2, 2), await probe.cell(40, 12));
    const mouse = buttons(await probe.received((t) => buttons(t).length >= EXPECTED_INPUT.mouse.length));
    for (const [combo] of COMBOS) await desktop.input.key(combo);
    const keys = await probe.received((t) => t.length >= EXPECTED_INPUT.keys.length);
    await desktop.input.type(TEXT);
    const typed = await probe.received((t) => t.length >= TEXT.length);
    return { mouse, keys, typed };
  } finally {
    await probe.close();
  }
};
