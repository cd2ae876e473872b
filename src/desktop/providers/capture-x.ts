/**
 * A grab as a GetImage of the root window over retrace's own X connection, its reply written
 * straight into the frame and turned to RGBA in place: one fresh buffer per grab. Needs a local
 * display whose pixels are 32-bit BGRX (choose.ts checks at open).
 */
import type { Frame, Region } from '../../domain.ts';
import { bgraToRgba } from '../bgra.ts';
import type { Display } from '../types.ts';
import type { XConnection, XPixelFormat } from '../x11/connection.ts';
import { displayFailure } from '../x11/x-errors.ts';
import type { CaptureProvider } from './types.ts';

/** Little-endian 32-bit pixels, red in the third byte: what bgraToRgba reads. */
export const isBgrx = (pixels: XPixelFormat): boolean =>
  pixels.byteOrder === 0 &&
  pixels.bitsPerPixel === 32 &&
  pixels.scanlinePad === 32 &&
  pixels.masks?.red === 0xff0000 &&
  pixels.masks.green === 0xff00 &&
  pixels.masks.blue === 0xff;

export class XProtocolCapture implements CaptureProvider {
  readonly name = 'x-protocol';

  constructor(
    private readonly display: Display,
    private readonly connection: () => Promise<XConnection>,
  ) {}

  async grab(area: Region): Promise<Frame> {
    const data = new Uint8Array(area.width * area.height * 4);
    try {
      await (await this.connection()).image(area, data);
    } catch (error) {
      throw displayFailure(this.display, 'Capturing the screen', error);
    }
    return { width: area.width, height: area.height, data: bgraToRgba(data, area.width, area.height, area.width * 4, data) };
  }
}
