/**
 * A grab through nut-js (libnut's XGetImage): for a display retrace's own connection cannot
 * reach (a remote one) or whose pixels are not 32-bit BGRX (depth 16: 16-bit words, read
 * through the visual's masks). It costs two more copies of the
 * image than the own GetImage, and fresh memory is slow to come by on a virtual machine (a
 * 1280×800 grab took 3–30 ms there, the own one 1.5–5).
 */
import type { Frame, Region } from '../../domain.ts';
import { InfrastructureError } from '../../errors.ts';
import { bgraToRgba, type ColourMasks, rgb16ToRgba } from '../bgra.ts';
import { nutFor } from '../nut.ts';
import type { Display } from '../types.ts';
import type { CaptureProvider } from './types.ts';

export class NutCapture implements CaptureProvider {
  readonly name = 'nut-js';

  /** `masks`: of the display's 16-bit pixels, when its setup told them; else X's usual 5-6-5. */
  constructor(
    private readonly display: Display,
    private readonly masks?: ColourMasks,
  ) {}

  async grab(area: Region): Promise<Frame> {
    const { screen, Region } = await nutFor(this.display);
    let image: Awaited<ReturnType<typeof screen.grab>>;
    try {
      image = await screen.grabRegion(new Region(area.x, area.y, area.width, area.height));
    } catch (error) {
      // libnut rejects with a bare string; a dead server is the usual reason.
      this.display.assertAlive();
      throw new InfrastructureError('DISPLAY_DIED', `Could not capture the screen of X display ${this.display.name}: ${String(error)}`, {
        cause: error,
      });
    }
    if (image.pixelDensity.scaleX !== 1 || image.pixelDensity.scaleY !== 1) {
      throw new InfrastructureError(
        'DISPLAY_DIED',
        `X display ${this.display.name} returned a scaled capture (pixel density ` +
          `${image.pixelDensity.scaleX}x${image.pixelDensity.scaleY}); only 1 is supported.`,
      );
    }
    const src = image.data;
    const bytes = new Uint8Array(src.buffer, src.byteOffset, src.length);
    if (image.bitsPerPixel === 16) {
      return { width: image.width, height: image.height, data: rgb16ToRgba(bytes, image.width, image.height, image.byteWidth, this.masks) };
    }
    if (image.bitsPerPixel !== 32) {
      throw new InfrastructureError(
        'NO_DISPLAY',
        `X display ${this.display.name} hands out ${image.bitsPerPixel}-bit pixels; retrace reads 32-bit and 16-bit ones. ` +
          'Start the X server at depth 24 (Xvfb -screen 0 1280x800x24).',
      );
    }
    // The buffer is ours alone: convert in place and expose it as a plain Uint8Array (a Buffer's
    // slice() would share memory where Uint8Array's copies).
    const inPlace = image.byteWidth === image.width * 4;
    const data = bgraToRgba(
      bytes,
      image.width,
      image.height,
      image.byteWidth,
      inPlace ? new Uint8Array(src.buffer, src.byteOffset, image.width * image.height * 4) : null,
    );
    return { width: image.width, height: image.height, data };
  }
}
