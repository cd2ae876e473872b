/**
 * Input through the xdotool command: one process per action (~20 ms to start). Kept for what
 * the keymap of a display retrace does not own lacks — xdotool lends a spare key for the
 * moment — for a platform's own key names, whose values only Xlib's table knows, and as a
 * provider of its own when forced.
 */
import { InfrastructureError, InvalidInputError } from '../../errors.ts';
import type { KeyCombo } from '../../key-combo.ts';
import { runTool } from '../exec-tool.ts';
import type { Display } from '../types.ts';
import { toXdotoolKey } from '../x-keys.ts';
import type { InputProvider, Pixel } from './types.ts';

/** The least delay of text typed through xdotool: a character it lends a spare key stays mapped 20 ms. */
const SPARE_KEY_DELAY_MS = 40;

export class XdotoolInput implements InputProvider {
  readonly name = 'xdotool';

  constructor(private readonly display: Display) {}

  async move(to: Pixel): Promise<void> {
    await this.run(['mousemove', '--sync', String(to.x), String(to.y)]);
  }

  async press(at: Pixel, button: number, times: number): Promise<void> {
    // --sync: the click must land where the pointer went, not where it was.
    const move = ['mousemove', '--sync', String(at.x), String(at.y)];
    await this.run(times > 0 ? [...move, 'click', '--repeat', String(times), '--delay', '0', String(button)] : move);
  }

  async hold(button: number, down: boolean): Promise<void> {
    await this.run([down ? 'mousedown' : 'mouseup', String(button)]);
  }

  async key(combo: KeyCombo, written: string): Promise<void> {
    const key = toXdotoolKey(combo);
    const result = await this.run(['key', '--', key]);
    // xdotool skips an unknown keysym with a message and still exits 0.
    if (/No such key name/.test(result.stderr)) {
      throw new InvalidInputError(
        undefined,
        `Invalid key combo "${written}": X knows no key "${key}". Use X keysym names such as ` +
          `Return, Tab, Escape, BackSpace, F5, Left, Prior (Page Up).`,
      );
    }
  }

  async type(text: string, delayMs: number): Promise<void> {
    // xdotool types "\n" as the Linefeed keysym, which GTK ignores: send Return for it.
    const lines = text.split('\n');
    // xdotool unmaps the spare key it lends a missing character half its delay after the key
    // went up; an app that looks the key up later than that (xterm, busy) reads nothing.
    const delay = Math.max(delayMs, SPARE_KEY_DELAY_MS);
    for (const [index, line] of lines.entries()) {
      if (index > 0) await this.run(['key', 'Return']);
      if (line === '') continue;
      await this.run(['type', '--delay', String(delay), '--', line], 10_000 + line.length * delay * 4);
    }
  }

  private async run(args: readonly string[], timeoutMs = 10_000): Promise<{ stderr: string }> {
    this.display.assertAlive();
    const result = await runTool('xdotool', args, { env: { ...process.env, ...this.display.env }, timeoutMs });
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
