/**
 * A window frame as PNG, encoded once however many reports show it (Allure, the trace, the
 * storyboard): a full window costs tens of milliseconds to encode.
 */
import type { Frame } from '../domain.ts';
import { encodePng } from '../vision/frame.ts';

const encoded = new WeakMap<Frame, Uint8Array>();

export function pngOnce(frame: Frame): Uint8Array {
  const known = encoded.get(frame);
  if (known) return known;
  const png = encodePng(frame);
  encoded.set(frame, png);
  return png;
}
