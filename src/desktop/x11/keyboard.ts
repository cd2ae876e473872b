/**
 * Keys pressed through XTEST (x11/xtest.ts) for every keysym the server's keymap has at its
 * first or its shifted level. No process per key: starting xdotool costs a process start
 * (~20 ms), and forking a large process makes all its memory copy-on-write, so the grabs after
 * it fault their pages back one by one (a 1280×800 grab took 55 ms after a key press, 6 ms
 * otherwise). A secret typed this way is not on a command line either. What the keymap lacks
 * (xdotool maps it to a spare key for the moment) is the caller's to send another way: `press`
 * and `type` say false and do nothing.
 */
import type { FakeEvent, XTest } from './xtest.ts';

const MAPPING_NOTIFY = 34;
const SHIFT_L = 0xffe1;

/** Where a keysym is: its keycode, and whether Shift selects it. */
interface KeyPlace {
  readonly keycode: number;
  readonly shift: boolean;
}

/** Keys held down in order, let go in reverse. */
const stroke = (keycodes: readonly number[]): FakeEvent[] => [
  ...keycodes.map((code): FakeEvent => ({ kind: 'key', down: true, code })),
  ...[...keycodes].reverse().map((code): FakeEvent => ({ kind: 'key', down: false, code })),
];

export class XKeyboard {
  private keymap: Promise<Map<number, KeyPlace>> | undefined;

  constructor(private readonly xtest: XTest) {
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
    const places = await this.placesOf(keysyms);
    if (places === undefined) return false;
    const keycodes = await this.withShift(places);
    if (keycodes === undefined) return false;
    await this.xtest.send(stroke(keycodes));
    return true;
  }

  /** Types `keysyms` one after the other, `delayMs` apart, as `xdotool type --delay` does. */
  async type(keysyms: readonly number[], delayMs: number): Promise<boolean> {
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

  private async placesOf(keysyms: readonly number[]): Promise<KeyPlace[] | undefined> {
    const keymap = await (this.keymap ??= this.readKeymap());
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

  /** Each keysym at its first place: the lowest keycode, the unshifted level before the shifted. */
  private async readKeymap(): Promise<Map<number, KeyPlace>> {
    const { perKeycode, keysyms } = await this.xtest.x.keyboardMapping();
    const keymap = new Map<number, KeyPlace>();
    for (const shift of [false, true]) {
      for (let i = 0; i * perKeycode < keysyms.length; i++) {
        const keysym = keysyms[i * perKeycode + (shift ? 1 : 0)];
        if (keysym === undefined || keysym === 0 || keymap.has(keysym)) continue;
        keymap.set(keysym, { keycode: this.xtest.x.keycodes.min + i, shift });
      }
    }
    return keymap;
  }
}
