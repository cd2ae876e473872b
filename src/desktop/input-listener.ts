/**
 * Listening to the real input of a display — a person's mouse and keyboard — for `retrace
 * record`. On X the events come from the RECORD extension (through uiohook-napi, which opens its
 * own connection to `$DISPLAY`), so they are seen whatever window has the focus and whoever
 * sends them: a person at a VNC viewer, or xdotool in a test.
 *
 * Keys arrive as scan codes; they are named here in the neutral vocabulary of src/key-combo.ts,
 * and printable keys carry the character they type on a US layout (the layout retrace pins on
 * its own display).
 */
import type { Point, ScrollDirection } from '../domain.ts';
import type { Modifier } from '../key-combo.ts';
import type { Display, MouseButton } from './types.ts';
import { InfrastructureError } from '../errors.ts';

/** One input event, screen-absolute; `at` is when it happened, on the clock of `performance.now()`. */
export type InputEvent =
  | { readonly kind: 'press'; readonly button: MouseButton; readonly point: Point; readonly clicks: number; readonly at: number }
  | { readonly kind: 'release'; readonly button: MouseButton; readonly point: Point; readonly at: number }
  | { readonly kind: 'wheel'; readonly point: Point; readonly direction: ScrollDirection; readonly amount: number; readonly at: number }
  | {
      readonly kind: 'key';
      /** The key, as a combo part: `a`, `7`, `;`, `Enter`, `F5`, `ArrowLeft`. */
      readonly key: string;
      /** What the key types with the modifiers held (shift), when it types something. */
      readonly char?: string;
      /** Modifiers held, without the key itself. */
      readonly modifiers: readonly Modifier[];
      readonly at: number;
    };

export interface InputListener {
  stop(): void;
}

/** Scan code → [unshifted, shifted] character on a US layout. */
const PRINTABLE: Readonly<Record<number, readonly [string, string]>> = {
  2: ['1', '!'],
  3: ['2', '@'],
  4: ['3', '#'],
  5: ['4', '$'],
  6: ['5', '%'],
  7: ['6', '^'],
  8: ['7', '&'],
  9: ['8', '*'],
  10: ['9', '('],
  11: ['0', ')'],
  12: ['-', '_'],
  13: ['=', '+'],
  16: ['q', 'Q'],
  17: ['w', 'W'],
  18: ['e', 'E'],
  19: ['r', 'R'],
  20: ['t', 'T'],
  21: ['y', 'Y'],
  22: ['u', 'U'],
  23: ['i', 'I'],
  24: ['o', 'O'],
  25: ['p', 'P'],
  26: ['[', '{'],
  27: [']', '}'],
  30: ['a', 'A'],
  31: ['s', 'S'],
  32: ['d', 'D'],
  33: ['f', 'F'],
  34: ['g', 'G'],
  35: ['h', 'H'],
  36: ['j', 'J'],
  37: ['k', 'K'],
  38: ['l', 'L'],
  39: [';', ':'],
  40: ["'", '"'],
  41: ['`', '~'],
  43: ['\\', '|'],
  44: ['z', 'Z'],
  45: ['x', 'X'],
  46: ['c', 'C'],
  47: ['v', 'V'],
  48: ['b', 'B'],
  49: ['n', 'N'],
  50: ['m', 'M'],
  51: [',', '<'],
  52: ['.', '>'],
  53: ['/', '?'],
  57: [' ', ' '],
  55: ['*', '*'],
  71: ['7', '7'],
  72: ['8', '8'],
  73: ['9', '9'],
  74: ['-', '-'],
  75: ['4', '4'],
  76: ['5', '5'],
  77: ['6', '6'],
  78: ['+', '+'],
  79: ['1', '1'],
  80: ['2', '2'],
  81: ['3', '3'],
  82: ['0', '0'],
  83: ['.', '.'],
  3637: ['/', '/'],
};

const NAMED: Readonly<Record<number, string>> = {
  1: 'Escape',
  14: 'Backspace',
  15: 'Tab',
  28: 'Enter',
  3612: 'Enter',
  58: 'CapsLock',
  3657: 'PageUp',
  3665: 'PageDown',
  3663: 'End',
  3655: 'Home',
  3666: 'Insert',
  3667: 'Delete',
  57419: 'ArrowLeft',
  57416: 'ArrowUp',
  57421: 'ArrowRight',
  57424: 'ArrowDown',
  3639: 'PrintScreen',
  59: 'F1',
  60: 'F2',
  61: 'F3',
  62: 'F4',
  63: 'F5',
  64: 'F6',
  65: 'F7',
  66: 'F8',
  67: 'F9',
  68: 'F10',
  87: 'F11',
  88: 'F12',
};

/** Modifier keys: they change the keys pressed with them, and are no action on their own. */
const MODIFIER_KEYS = new Set([29, 3613, 56, 3640, 42, 54, 3675, 3676, 69, 70]);

const BUTTONS: Readonly<Record<number, MouseButton>> = { 1: 'left', 2: 'right', 3: 'middle' };

interface HookEvent {
  readonly altKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
  readonly keycode?: number;
  readonly x?: number;
  readonly y?: number;
  readonly button?: unknown;
  readonly clicks?: number;
  readonly rotation?: number;
  readonly direction?: number;
  readonly amount?: number;
}

const modifiersOf = (e: HookEvent): Modifier[] => [
  ...(e.ctrlKey ? (['ctrl'] as const) : []),
  ...(e.altKey ? (['alt'] as const) : []),
  ...(e.shiftKey ? (['shift'] as const) : []),
  ...(e.metaKey ? (['super'] as const) : []),
];

/** A key event in neutral names; undefined for a lone modifier or a key with no name here. */
export function keyEventOf(keycode: number, e: HookEvent, at: number): InputEvent | undefined {
  if (MODIFIER_KEYS.has(keycode)) return undefined;
  const modifiers = modifiersOf(e);
  const printable = PRINTABLE[keycode];
  if (printable) {
    const [plain, shifted] = printable;
    const key = plain === ' ' ? 'Space' : plain;
    return { kind: 'key', key, char: e.shiftKey ? shifted : plain, modifiers, at };
  }
  const named = NAMED[keycode];
  return named ? { kind: 'key', key: named, modifiers, at } : undefined;
}

/** A server time this far from ours is another clock (an X server on another machine). */
const MAX_LAG_MS = 10_000;

/**
 * When an event with X server time `serverTime` happened, on `performance.now()`'s clock. The
 * hook hands events over in batches, 100–200 ms after they happened (more on a loaded machine):
 * taken on arrival, an input would be paired with a screen that already shows its effect. The
 * X server stamps each event with CLOCK_MONOTONIC in ms (wrapping at 2^32), the clock that
 * `performance.now()` counts on too.
 */
export function happenedAt(
  serverTime: number,
  now = performance.now(),
  monotonicMs = Number(process.hrtime.bigint() / 1_000_000n),
): number {
  const lag = ((((monotonicMs - serverTime) % 2 ** 32) + 2 ** 32 + 2 ** 31) % 2 ** 32) - 2 ** 31;
  return lag > MAX_LAG_MS || lag < -MAX_LAG_MS ? now : now - Math.max(0, lag);
}

/**
 * Starts listening on `display` (which must be this process's `$DISPLAY`, see openDesktop).
 * Throws InfrastructureError when the X server has no RECORD extension or the hook fails.
 */
export async function listenInput(display: Display, onEvent: (event: InputEvent) => void): Promise<InputListener> {
  display.assertAlive();
  let hook: typeof import('uiohook-napi').uIOhook;
  try {
    ({ uIOhook: hook } = await import('uiohook-napi'));
  } catch (error) {
    throw new InfrastructureError('MISSING_TOOL', `cannot load the input listener (uiohook-napi): ${(error as Error).message}`, {
      cause: error,
    });
  }
  const point = (e: HookEvent): Point => ({ x: e.x ?? 0, y: e.y ?? 0 });
  hook.on('mousedown', (e) => {
    const button = BUTTONS[Number(e.button)];
    if (button) onEvent({ kind: 'press', button, point: point(e), clicks: e.clicks, at: happenedAt(e.time) });
  });
  hook.on('mouseup', (e) => {
    const button = BUTTONS[Number(e.button)];
    if (button) onEvent({ kind: 'release', button, point: point(e), at: happenedAt(e.time) });
  });
  hook.on('wheel', (e) => {
    const vertical = e.direction === 3;
    const direction: ScrollDirection = vertical ? (e.rotation < 0 ? 'up' : 'down') : e.rotation < 0 ? 'left' : 'right';
    onEvent({ kind: 'wheel', point: point(e), direction, amount: Math.max(1, Math.abs(e.rotation)), at: happenedAt(e.time) });
  });
  hook.on('keydown', (e) => {
    const event = keyEventOf(e.keycode, e, happenedAt(e.time));
    if (event) onEvent(event);
  });
  try {
    hook.start();
  } catch (error) {
    throw new InfrastructureError(
      'MISSING_TOOL',
      `cannot listen to the input of display ${display.name} (the X server needs the RECORD extension): ${(error as Error).message}`,
      { cause: error },
    );
  }
  return {
    stop: () => {
      hook.removeAllListeners();
      hook.stop();
    },
  };
}
