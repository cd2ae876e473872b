/**
 * The backends behind ScreenCapture and InputDriver: one small interface per kind, one module
 * per provider, picked once per desktop by choose.ts. The classes above them (capture.ts,
 * input.ts) keep what every backend shares — region checks, drag steps, combo parsing — and
 * never switch backend per call.
 */
import type { Frame, Region } from '../../domain.ts';
import type { KeyCombo } from '../../key-combo.ts';
import type { CaptureProviderName, InputProviderName } from '../types.ts';

export interface CaptureProvider {
  readonly name: CaptureProviderName;
  /** The pixels of `area` (whole pixels, inside the screen: the caller checked) as RGBA. */
  grab(area: Region): Promise<Frame>;
}

/** A point in whole screen pixels. */
export interface Pixel {
  readonly x: number;
  readonly y: number;
}

export interface InputProvider {
  readonly name: InputProviderName;
  /** Moves the pointer to `to`; resolves once the server has it. */
  move(to: Pixel): Promise<void>;
  /**
   * Moves to `at`, then presses and lets go X button `button` (1 left, 2 middle, 3 right, 4–7
   * the wheel) `times` times back to back.
   */
  press(at: Pixel, button: number, times: number): Promise<void>;
  /** Presses (`down`) or lets go of `button` where the pointer is: the ends of a drag. */
  hold(button: number, down: boolean): Promise<void>;
  /** Presses a combo's keys in order and lets them go in reverse; `written` is the combo as the spec wrote it, for errors. */
  key(combo: KeyCombo, written: string): Promise<void>;
  /** Types `text` ("\n" as Return), `delayMs` between characters. */
  type(text: string, delayMs: number): Promise<void>;
}
