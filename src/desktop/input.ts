/**
 * Mouse and keyboard on one X display.
 *
 * Both go through XTEST over retrace's own X connection (x11/xtest.ts). The pointer jumps
 * rather than glides: retrace waits for the screen itself. A click is one write (move, press,
 * release) and one round trip. Keys are looked up in the keymap with Shift pressed where they
 * need it (x11/keyboard.ts); on a display retrace owns, what the keymap lacks is lent a spare
 * keycode. The rest — a platform's own key names, and characters the keymap of a user's own
 * display lacks — go through xdotool, which maps a spare key for the moment; a display retrace
 * cannot reach over its own connection (a remote one, or one without XTEST) gets the mouse
 * through nut-js and keys through xdotool.
 */
import type { Point, ScrollDirection } from '../domain.ts';
import { InfrastructureError, InvalidInputError } from '../errors.ts';
import { runTool } from './exec-tool.ts';
import { parseKeyCombo } from '../key-combo.ts';
import { charKeysym, comboKeysyms, toXdotoolKey } from './x-keys.ts';
import { connectionTo, type XConnection } from './x11/connection.ts';
import { displayFailure } from './x11/x-errors.ts';
import { XKeyboard } from './x11/keyboard.ts';
import { XTest, type FakeEvent } from './x11/xtest.ts';
import { nutFor, type Nut } from './nut.ts';
import type { Display, InputDriver, MouseButton } from './types.ts';

export interface XInputOptions {
  /**
   * Delay between typed characters, in ms. 6 ms types about 150 characters/s and keeps up
   * with slow text widgets. @default 6
   */
  readonly typeDelayMs?: number;
  /** Intermediate pointer positions of a drag; toolkits need motion to start a drag. @default 10 */
  readonly dragSteps?: number;
}

export const INPUT_DEFAULTS = Object.freeze({ typeDelayMs: 6, dragSteps: 10 });

/** The least delay of text typed through xdotool: a character it lends a spare key stays mapped 20 ms. */
const SPARE_KEY_DELAY_MS = 40;

const toPixel = (point: Point): { x: number; y: number } => ({
  x: Math.round(point.x),
  y: Math.round(point.y),
});

/** X's button numbers; the wheel is buttons 4–7, one press and release a step. */
const BUTTON: Record<MouseButton, number> = { left: 1, middle: 2, right: 3 };
const WHEEL: Record<ScrollDirection, number> = { up: 4, down: 5, left: 6, right: 7 };

const moveTo = (point: Point): FakeEvent => ({ kind: 'motion', ...toPixel(point) });
/** A button pressed and let go `times` times, back to back. */
const presses = (code: number, times: number): FakeEvent[] =>
  Array.from({ length: times }, (): FakeEvent[] => [
    { kind: 'button', down: true, code },
    { kind: 'button', down: false, code },
  ]).flat();

export class XInputDriver implements InputDriver {
  private readonly typeDelayMs: number;
  private readonly dragSteps: number;
  private readonly connection: () => Promise<XConnection>;
  private xtestOf: Promise<{ xtest: XTest; keyboard: XKeyboard } | undefined> | undefined;

  constructor(
    private readonly display: Display,
    options: XInputOptions = {},
  ) {
    this.typeDelayMs = options.typeDelayMs ?? INPUT_DEFAULTS.typeDelayMs;
    this.dragSteps = Math.max(1, options.dragSteps ?? INPUT_DEFAULTS.dragSteps);
    this.connection = connectionTo(display.name, display.env);
  }

  async move(to: Point): Promise<void> {
    if (await this.viaXTest((x) => x.send([moveTo(to)]))) return;
    const nut = await nutFor(this.display);
    await this.warp(nut, to);
  }

  async click(at: Point, options: { button?: MouseButton; count?: 1 | 2 } = {}): Promise<void> {
    const count = options.count ?? 1;
    const code = BUTTON[options.button ?? 'left'];
    // Two clicks back to back rather than libnut's double click, which sleeps 200 ms between.
    if (await this.viaXTest((x) => x.send([moveTo(at), ...presses(code, count)]))) return;
    const nut = await nutFor(this.display);
    const button = this.buttonOf(nut, options.button ?? 'left');
    await this.warp(nut, at);
    for (let i = 0; i < count; i++) {
      await this.guard(() => nut.mouse.click(button));
    }
  }

  async drag(from: Point, to: Point): Promise<void> {
    const start = toPixel(from);
    const end = toPixel(to);
    // Toolkits need motion to start a drag: steps in between, each handled before the next.
    const steps = Array.from({ length: this.dragSteps }, (_, i) => {
      const t = (i + 1) / this.dragSteps;
      return { x: start.x + (end.x - start.x) * t, y: start.y + (end.y - start.y) * t };
    });
    const dragged = await this.viaXTest(async (x) => {
      await x.send([moveTo(start), { kind: 'button', down: true, code: BUTTON.left }]);
      try {
        for (const step of steps) await x.send([moveTo(step)]);
      } finally {
        await x.send([{ kind: 'button', down: false, code: BUTTON.left }]);
      }
    });
    if (dragged) return;
    const nut = await nutFor(this.display);
    await this.warp(nut, start);
    await this.guard(() => nut.mouse.pressButton(nut.Button.LEFT));
    try {
      for (const step of steps) await this.warp(nut, step);
    } finally {
      await this.guard(() => nut.mouse.releaseButton(nut.Button.LEFT));
    }
  }

  async scroll(at: Point, direction: ScrollDirection, amount: number): Promise<void> {
    const steps = Math.max(0, Math.round(amount));
    if (await this.viaXTest((x) => x.send([moveTo(at), ...presses(WHEEL[direction], steps)]))) return;
    const nut = await nutFor(this.display);
    await this.warp(nut, at);
    if (steps === 0) return;
    const { mouse } = nut;
    await this.guard(() => {
      switch (direction) {
        case 'up':
          return mouse.scrollUp(steps);
        case 'down':
          return mouse.scrollDown(steps);
        case 'left':
          return mouse.scrollLeft(steps);
        case 'right':
          return mouse.scrollRight(steps);
      }
    });
  }

  async key(combo: string): Promise<void> {
    const parsed = parseKeyCombo(combo);
    const keysyms = comboKeysyms(parsed);
    if (keysyms !== undefined && (await this.viaKeyboard((k) => k.press(keysyms)))) return;
    const key = toXdotoolKey(parsed);
    const result = await this.xdotool(['key', '--', key]);
    // xdotool skips an unknown keysym with a message and still exits 0.
    if (/No such key name/.test(result.stderr)) {
      throw new InvalidInputError(
        undefined,
        `Invalid key combo "${combo}": X knows no key "${key}". Use X keysym names such as ` +
          `Return, Tab, Escape, BackSpace, F5, Left, Prior (Page Up).`,
      );
    }
  }

  async type(text: string): Promise<void> {
    const unified = text.replace(/\r\n/g, '\n');
    const keysyms = Array.from(unified, charKeysym);
    if (await this.viaKeyboard((k) => k.type(keysyms, this.typeDelayMs))) return;
    // xdotool types "\n" as the Linefeed keysym, which GTK ignores: send Return for it.
    const lines = unified.split('\n');
    // xdotool unmaps the spare key it lends a missing character half its delay after the key
    // went up; an app that looks the key up later than that (xterm, busy) reads nothing.
    const delayMs = Math.max(this.typeDelayMs, SPARE_KEY_DELAY_MS);
    for (const [index, line] of lines.entries()) {
      if (index > 0) await this.xdotool(['key', 'Return']);
      if (line === '') continue;
      await this.xdotool(['type', '--delay', String(delayMs), '--', line], {
        timeoutMs: 10_000 + line.length * delayMs * 4,
      });
    }
  }

  /**
   * Sends keys through the own connection's keyboard: false when there is none (a remote
   * display, no XTEST) or the keymap lacks a key it may not or cannot lend, and nothing was sent.
   */
  private async viaKeyboard(send: (keyboard: XKeyboard) => Promise<boolean>): Promise<boolean> {
    return (await this.withXTest('Key input', (own) => send(own.keyboard))) === true;
  }

  /** Sends pointer input through XTEST: false when the display offers none, and nothing was sent. */
  private async viaXTest(send: (xtest: XTest) => Promise<void>): Promise<boolean> {
    return (await this.withXTest('Mouse input', (own) => send(own.xtest).then(() => true))) === true;
  }

  /** `work` with the own connection's XTEST; undefined without one. A failure there is the display's. */
  private async withXTest<T>(what: string, work: (own: { xtest: XTest; keyboard: XKeyboard }) => Promise<T>): Promise<T | undefined> {
    this.display.assertAlive();
    const own = await this.xtest();
    if (own === undefined) return undefined;
    try {
      return await work(own);
    } catch (error) {
      throw displayFailure(this.display, what, error);
    }
  }

  /** Opened once; after its connection ended, again. */
  private xtest(): Promise<{ xtest: XTest; keyboard: XKeyboard } | undefined> {
    this.xtestOf ??= this.connection().then(
      async (x) => {
        const xtest = await XTest.open(x);
        void x.closed.then(() => {
          this.xtestOf = undefined;
        });
        return xtest && { xtest, keyboard: new XKeyboard(xtest, this.display.owned) };
      },
      () => undefined,
    );
    return this.xtestOf;
  }

  private async warp(nut: Nut, to: Point): Promise<void> {
    const { x, y } = toPixel(to);
    await this.guard(() => nut.mouse.setPosition({ x, y }));
  }

  private buttonOf(nut: Nut, button: MouseButton): Nut['Button'][keyof Nut['Button']] {
    switch (button) {
      case 'left':
        return nut.Button.LEFT;
      case 'right':
        return nut.Button.RIGHT;
      case 'middle':
        return nut.Button.MIDDLE;
    }
  }

  /** libnut fails with bare strings; a dead server is the reason worth naming. */
  private async guard(action: () => Promise<unknown>): Promise<void> {
    this.display.assertAlive();
    try {
      await action();
    } catch (error) {
      this.display.assertAlive();
      throw new InfrastructureError('DISPLAY_DIED', `Mouse input on X display ${this.display.name} failed: ${String(error)}`, {
        cause: error,
      });
    }
  }

  private async xdotool(args: readonly string[], options: { timeoutMs?: number } = {}): Promise<{ stderr: string }> {
    this.display.assertAlive();
    const result = await runTool('xdotool', args, {
      env: { ...process.env, ...this.display.env },
      timeoutMs: options.timeoutMs ?? 10_000,
    });
    if (result.code !== 0) {
      this.display.assertAlive();
      throw new InfrastructureError(
        'DISPLAY_DIED',
        `xdotool ${args[0] ?? ''} failed on X display ${this.display.name} ` +
          `(exit ${result.code}): ${result.stderr.trim() || 'no output'}`,
      );
    }
    return result;
  }
}
