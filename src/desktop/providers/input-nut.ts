/**
 * The mouse through nut-js (libnut: Xlib and its XTEST), for a display retrace's own connection
 * cannot reach with XTEST (a remote one). libnut loads in ~180 ms on the first action and binds
 * the process to one display (nut.ts). Keys go through xdotool: libnut types nothing, and says
 * nothing, for a character the keymap lacks.
 */
import { InfrastructureError } from '../../errors.ts';
import type { KeyCombo } from '../../key-combo.ts';
import { type Nut, nutFor } from '../nut.ts';
import type { Display } from '../types.ts';
import { XdotoolInput } from './input-xdotool.ts';
import type { InputProvider, Pixel } from './types.ts';

export class NutInput implements InputProvider {
  readonly name = 'nut-js';
  private readonly keys: XdotoolInput;

  constructor(private readonly display: Display) {
    this.keys = new XdotoolInput(display);
  }

  async move(to: Pixel): Promise<void> {
    const nut = await nutFor(this.display);
    await this.guard(() => nut.mouse.setPosition(to));
  }

  async press(at: Pixel, button: number, times: number): Promise<void> {
    const nut = await nutFor(this.display);
    await this.guard(() => nut.mouse.setPosition(at));
    if (button >= 4) {
      // The wheel: libnut scrolls by pressing buttons 4–7 itself, one press a step.
      if (times > 0) await this.guard(() => this.scroll(nut, button, times));
      return;
    }
    // Clicks one by one rather than libnut's double click, which sleeps 200 ms between.
    const pressed = this.button(nut, button);
    for (let i = 0; i < times; i++) await this.guard(() => nut.mouse.click(pressed));
  }

  async hold(button: number, down: boolean): Promise<void> {
    const nut = await nutFor(this.display);
    const held = this.button(nut, button);
    await this.guard(() => (down ? nut.mouse.pressButton(held) : nut.mouse.releaseButton(held)));
  }

  key(combo: KeyCombo, written: string): Promise<void> {
    return this.keys.key(combo, written);
  }

  type(text: string, delayMs: number): Promise<void> {
    return this.keys.type(text, delayMs);
  }

  private scroll(nut: Nut, button: number, steps: number): Promise<unknown> {
    const { mouse } = nut;
    return button === 4
      ? mouse.scrollUp(steps)
      : button === 5
        ? mouse.scrollDown(steps)
        : button === 6
          ? mouse.scrollLeft(steps)
          : mouse.scrollRight(steps);
  }

  private button(nut: Nut, button: number): Nut['Button'][keyof Nut['Button']] {
    return button === 2 ? nut.Button.MIDDLE : button === 3 ? nut.Button.RIGHT : nut.Button.LEFT;
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
}
