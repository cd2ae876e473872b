/**
 * Input through the XTEST extension over retrace's own X connection (x11/xtest.ts): no process
 * and no native library per action. The pointer jumps rather than glides: retrace waits for
 * the screen itself. A click is one write (move, press, release) and one round trip. Keys are
 * looked up in the keymap with Shift where they need it (x11/keyboard.ts); on a display retrace
 * owns, what the keymap lacks is lent a spare keycode. What XTEST cannot press — a platform's
 * own key names, and characters the keymap of a user's own display lacks — goes through
 * xdotool, which lends a spare key for the moment: part of this provider, decided per key by
 * the keymap, not per call by what the display offers.
 */
import type { KeyCombo } from '../../key-combo.ts';
import type { Display } from '../types.ts';
import { charKeysym, comboKeysyms } from '../x-keys.ts';
import type { XConnection } from '../x11/connection.ts';
import { XKeyboard } from '../x11/keyboard.ts';
import { displayFailure } from '../x11/x-errors.ts';
import { type FakeEvent, XTest } from '../x11/xtest.ts';
import { XdotoolInput } from './input-xdotool.ts';
import type { InputProvider, Pixel } from './types.ts';

interface Own {
  readonly xtest: XTest;
  readonly keyboard: XKeyboard;
}

const moveTo = (to: Pixel): FakeEvent => ({ kind: 'motion', x: to.x, y: to.y });

export class XTestInput implements InputProvider {
  readonly name = 'xtest';
  private readonly unpressable: XdotoolInput;
  private own: Promise<Own> | undefined;

  /** `connection`: the own connection, on which `xtest` was found when the provider was chosen. */
  constructor(
    private readonly display: Display,
    private readonly connection: () => Promise<XConnection>,
    xtest: XTest,
  ) {
    this.unpressable = new XdotoolInput(display);
    this.adopt(Promise.resolve(xtest));
  }

  move(to: Pixel): Promise<void> {
    return this.send('Mouse input', [moveTo(to)]);
  }

  press(at: Pixel, button: number, times: number): Promise<void> {
    const presses = Array.from({ length: times }, (): FakeEvent[] => [
      { kind: 'button', down: true, code: button },
      { kind: 'button', down: false, code: button },
    ]).flat();
    return this.send('Mouse input', [moveTo(at), ...presses]);
  }

  hold(button: number, down: boolean): Promise<void> {
    return this.send('Mouse input', [{ kind: 'button', down, code: button }]);
  }

  async key(combo: KeyCombo, written: string): Promise<void> {
    const keysyms = comboKeysyms(combo);
    if (keysyms !== undefined && (await this.with('Key input', (own) => own.keyboard.press(keysyms)))) return;
    await this.unpressable.key(combo, written);
  }

  async type(text: string, delayMs: number): Promise<void> {
    const keysyms = Array.from(text, charKeysym);
    if (await this.with('Key input', (own) => own.keyboard.type(keysyms, delayMs))) return;
    await this.unpressable.type(text, delayMs);
  }

  private send(what: string, events: readonly FakeEvent[]): Promise<void> {
    return this.with(what, (own) => own.xtest.send(events));
  }

  /** `work` with the own connection's XTEST; a failure there is the display's. */
  private async with<T>(what: string, work: (own: Own) => Promise<T>): Promise<T> {
    this.display.assertAlive();
    try {
      return await work(await this.opened());
    } catch (error) {
      throw displayFailure(this.display, what, error);
    }
  }

  /** The XTEST of the own connection; after that connection ended, of the next one. */
  private opened(): Promise<Own> {
    return (
      this.own ??
      this.adopt(
        this.connection().then(async (x) => {
          const xtest = await XTest.open(x);
          if (xtest === undefined) throw new Error(`the X server ${this.display.name} no longer offers XTEST`);
          return xtest;
        }),
      )
    );
  }

  private adopt(opening: Promise<XTest>): Promise<Own> {
    const own = opening.then((xtest) => {
      void xtest.x.closed.then(() => {
        if (this.own === own) this.own = undefined;
      });
      return { xtest, keyboard: new XKeyboard(xtest, this.display.owned) };
    });
    own.catch(() => {
      if (this.own === own) this.own = undefined;
    });
    this.own = own;
    return own;
  }
}
