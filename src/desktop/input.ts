/**
 * Mouse and keyboard on one X display, through the input provider chosen when the desktop
 * opened (providers/choose.ts): XTEST over retrace's own connection, nut-js, or xdotool. What
 * every provider shares is here — whole pixels, X button numbers, the drag's steps, the combo's
 * parsing, "\r\n" as one line break — so a provider is only the wire.
 */
import type { Point, ScrollDirection } from '../domain.ts';
import { parseKeyCombo } from '../key-combo.ts';
import type { InputProvider, Pixel } from './providers/types.ts';
import type { InputDriver, MouseButton } from './types.ts';

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

const toPixel = (point: Point): Pixel => ({ x: Math.round(point.x), y: Math.round(point.y) });

/** X's button numbers; the wheel is buttons 4–7, one press and release a step. */
const BUTTON: Record<MouseButton, number> = { left: 1, middle: 2, right: 3 };
const WHEEL: Record<ScrollDirection, number> = { up: 4, down: 5, left: 6, right: 7 };

export class XInputDriver implements InputDriver {
  private readonly typeDelayMs: number;
  private readonly dragSteps: number;

  constructor(
    private readonly provider: InputProvider,
    options: XInputOptions = {},
  ) {
    this.typeDelayMs = options.typeDelayMs ?? INPUT_DEFAULTS.typeDelayMs;
    this.dragSteps = Math.max(1, options.dragSteps ?? INPUT_DEFAULTS.dragSteps);
  }

  async move(to: Point): Promise<void> {
    return this.provider.move(toPixel(to));
  }

  async click(at: Point, options: { button?: MouseButton; count?: 1 | 2 } = {}): Promise<void> {
    return this.provider.press(toPixel(at), BUTTON[options.button ?? 'left'], options.count ?? 1);
  }

  async drag(from: Point, to: Point): Promise<void> {
    const start = toPixel(from);
    const end = toPixel(to);
    // Toolkits need motion to start a drag: steps in between, each handled before the next.
    const steps = Array.from({ length: this.dragSteps }, (_, i) => {
      const t = (i + 1) / this.dragSteps;
      return toPixel({ x: start.x + (end.x - start.x) * t, y: start.y + (end.y - start.y) * t });
    });
    await this.provider.move(start);
    await this.provider.hold(BUTTON.left, true);
    try {
      for (const step of steps) await this.provider.move(step);
    } finally {
      await this.provider.hold(BUTTON.left, false);
    }
  }

  async scroll(at: Point, direction: ScrollDirection, amount: number): Promise<void> {
    return this.provider.press(toPixel(at), WHEEL[direction], Math.max(0, Math.round(amount)));
  }

  async key(combo: string): Promise<void> {
    return this.provider.key(parseKeyCombo(combo), combo);
  }

  async type(text: string): Promise<void> {
    return this.provider.type(text.replace(/\r\n/g, '\n'), this.typeDelayMs);
  }
}
