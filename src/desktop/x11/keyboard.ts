/**
 * Keys pressed through XTEST (x11/xtest.ts) for every keysym the server's keymap has at its
 * first or its shifted level. No process per key: starting xdotool costs a process start
 * (~20 ms), and forking a large process makes all its memory copy-on-write, so the grabs after
 * it fault their pages back one by one (a 1280×800 grab took 55 ms after a key press, 6 ms
 * otherwise). A secret typed this way is not on a command line either.
 *
 * What the keymap lacks is lent a spare keycode (one without keysyms) on a display retrace owns,
 * and keeps it while the display lives. It is never given back during a run: an app looks a key
 * up when it handles the event, and a keymap changed back before then reads nothing (xdotool
 * unmaps its spare key shortly after the key went up, and a busy xterm lost a "€" that way). On
 * a display that is not retrace's, or with no spare keycode left, `press` and `type` say false
 * and do nothing: the caller sends those keys another way.
 */
import type { FakeEvent, XTest } from './xtest.ts';

const MAPPING_NOTIFY = 34;
const SHIFT_L = 0xffe1;

/** Where a keysym is: its keycode, and whether Shift selects it. */
interface KeyPlace {
  readonly keycode: number;
  readonly shift: boolean;
}

interface Keymap {
  readonly places: Map<number, KeyPlace>;
  /** Keycodes without any keysym, highest first. */
  readonly spare: number[];
}

/** Keys held down in order, let go in reverse. */
const stroke = (keycodes: readonly number[]): FakeEvent[] => [
  ...keycodes.map((code): FakeEvent => ({ kind: 'key', down: true, code })),
  ...[...keycodes].reverse().map((code): FakeEvent => ({ kind: 'key', down: false, code })),
];

export class XKeyboard {
  private keymap: Promise<Keymap> | undefined;

  /** `lend`: whether missing keysyms may be put on spare keycodes (the display is retrace's own). */
  constructor(
    private readonly xtest: XTest,
    private readonly lend: boolean,
  ) {
    // Another client changed the keymap: read it again before the next key.
    xtest.x.onEvent = (code) => {
      if (code === MAPPING_NOTIFY) this.keymap = undefined;
    };
  }

  /**
   * Presses `keysyms` down in order and lets them go in reverse (a combo: modifiers first), with
   * Shift added where the last one needs it. Resolves once the server has handled them.
   */
  async press(keysyms: readonly number[]): Promise<boolean> {
    if (!(await this.present(keysyms))) return false;
    const places = await this.placesOf(keysyms);
    if (places === undefined) return false;
    const keycodes = await this.withShift(places);
    if (keycodes === undefined) return false;
    await this.xtest.send(stroke(keycodes));
    return true;
  }

  /** Types `keysyms` one after the other, `delayMs` apart, as `xdotool type --delay` does. */
  async type(keysyms: readonly number[], delayMs: number): Promise<boolean> {
    if (!(await this.present(keysyms))) return false;
    const keys: number[][] = [];
    for (const keysym of keysyms) {
      const places = await this.placesOf([keysym]);
      const keycodes = places && (await this.withShift(places));
      if (keycodes === undefined) return false;
      keys.push(keycodes);
    }
    for (const [i, keycodes] of keys.entries()) {
      if (i > 0 && delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      await this.xtest.send(stroke(keycodes));
    }
    return true;
  }

  /** Whether every keysym is in the keymap, after lending spare keycodes to those it lacked. */
  private async present(keysyms: readonly number[]): Promise<boolean> {
    const { places, spare } = await this.current();
    const missing = [...new Set(keysyms.filter((k) => !places.has(k)))];
    if (missing.length === 0) return true;
    if (!this.lend || missing.length > spare.length) return false;
    // Both levels: the key then types its character whether Shift is down or not.
    for (const [i, keysym] of missing.entries()) await this.xtest.x.changeKeyboardMapping(spare[i]!, [keysym, keysym]);
    this.keymap = undefined;
    return true;
  }

  private async placesOf(keysyms: readonly number[]): Promise<KeyPlace[] | undefined> {
    const { places: keymap } = await this.current();
    const places = keysyms.map((k) => keymap.get(k));
    return places.every((p): p is KeyPlace => p !== undefined) ? places : undefined;
  }

  /** The keycodes to hold, Shift's before the last key when its level needs it. */
  private async withShift(places: readonly KeyPlace[]): Promise<number[] | undefined> {
    const keycodes = places.map((p) => p.keycode);
    if (!places.at(-1)?.shift) return keycodes;
    const shift = (await this.placesOf([SHIFT_L]))?.[0];
    if (shift === undefined) return undefined;
    return keycodes.includes(shift.keycode) ? keycodes : [...keycodes.slice(0, -1), shift.keycode, ...keycodes.slice(-1)];
  }

  /** The keymap as last read; read again after it changed. */
  private current(): Promise<Keymap> {
    return (this.keymap ??= this.readKeymap());
  }

  /** Each keysym at its first place: the lowest keycode, the unshifted level before the shifted. */
  private async readKeymap(): Promise<Keymap> {
    const { perKeycode, keysyms } = await this.xtest.x.keyboardMapping();
    const keymap = new Map<number, KeyPlace>();
    const spare: number[] = [];
    for (let i = 0; i * perKeycode < keysyms.length; i++) {
      if (keysyms.subarray(i * perKeycode, (i + 1) * perKeycode).every((k) => k === 0)) spare.unshift(this.xtest.x.keycodes.min + i);
    }
    for (const shift of [false, true]) {
      for (let i = 0; i * perKeycode < keysyms.length; i++) {
        const keysym = keysyms[i * perKeycode + (shift ? 1 : 0)];
        if (keysym === undefined || keysym === 0 || keymap.has(keysym)) continue;
        keymap.set(keysym, { keycode: this.xtest.x.keycodes.min + i, shift });
      }
    }
    return { places: keymap, spare };
  }
}
