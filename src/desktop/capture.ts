/**
 * Screen capture, and the server's reports of drawing (x11/drawing.ts) that tell a wait when
 * to grab.
 *
 * A grab is a GetImage of the root window over retrace's own X connection, its reply written
 * straight into the frame and turned to RGBA in place: one fresh buffer per grab. nut-js
 * (libnut's XGetImage) is the fallback, for a display without a local socket or with pixels
 * other than 32-bit BGRX; it costs two more copies of the image, and fresh memory is slow to
 * come by on a virtual machine (a 1280×800 grab took 3–30 ms there, the own one 1.5–5).
 *
 * One process captures one display: see nut.ts. X servers do not scale, so a grab's pixel
 * density is always 1 and frame pixels are screen pixels.
 */
import type { DrawReport, Frame, Region } from '../domain.ts';
import { InfrastructureError } from '../errors.ts';
import { bgraToRgba } from './bgra.ts';
import { nutFor } from './nut.ts';
import type { Display, ScreenCapture } from './types.ts';
import { connectionTo, type XConnection, type XPixelFormat } from './x11/connection.ts';
import { displayFailure } from './x11/x-errors.ts';
import { DrawingWatch } from './x11/drawing.ts';
import { drawingReportsWanted } from '../switches.ts';

/** Little-endian 32-bit pixels, red in the third byte: what bgraToRgba reads. */
const isBgrx = (pixels: XPixelFormat): boolean =>
  pixels.byteOrder === 0 &&
  pixels.bitsPerPixel === 32 &&
  pixels.scanlinePad === 32 &&
  pixels.masks?.red === 0xff0000 &&
  pixels.masks.green === 0xff00 &&
  pixels.masks.blue === 0xff;

export class XScreenCapture implements ScreenCapture {
  private watch: Promise<DrawingWatch | undefined> | undefined;
  private readonly own: () => Promise<XConnection>;
  private nutOnly = false;

  constructor(private readonly display: Display) {
    this.own = connectionTo(display.name, display.env);
  }

  async drawing(region: Region): Promise<DrawReport | undefined> {
    if (!drawingReportsWanted()) return undefined;
    this.watch ??= DrawingWatch.open(this.display.name, this.display.env);
    const watch = await this.watch;
    return watch?.alive ? watch.report(region) : undefined;
  }

  async grab(region?: Region): Promise<Frame> {
    if (region !== undefined) this.checkRegion(region);
    const x = await this.connection();
    return x === undefined
      ? this.grabWithNut(region)
      : this.grabOwn(x, region ?? { x: 0, y: 0, width: this.display.width, height: this.display.height });
  }

  /** The own connection when the display has one fit for grabbing; once it had none, never again. */
  private async connection(): Promise<XConnection | undefined> {
    if (this.nutOnly) return undefined;
    const x = await this.own().catch(() => undefined);
    if (x !== undefined && isBgrx(x.pixels)) return x;
    this.nutOnly = true;
    x?.close();
    return undefined;
  }

  private async grabOwn(x: XConnection, area: Region): Promise<Frame> {
    const data = new Uint8Array(area.width * area.height * 4);
    try {
      await x.image(area, data);
    } catch (error) {
      throw displayFailure(this.display, 'Capturing the screen', error);
    }
    return { width: area.width, height: area.height, data: bgraToRgba(data, area.width, area.height, area.width * 4, data) };
  }

  private async grabWithNut(region: Region | undefined): Promise<Frame> {
    const { screen, Region } = await nutFor(this.display);
    let image: Awaited<ReturnType<typeof screen.grab>>;
    try {
      image =
        region === undefined ? await screen.grab() : await screen.grabRegion(new Region(region.x, region.y, region.width, region.height));
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
    // The buffer is ours alone: convert in place and expose it as a plain Uint8Array (a Buffer's
    // slice() would share memory where Uint8Array's copies).
    const inPlace = image.byteWidth === image.width * 4;
    const data = bgraToRgba(
      new Uint8Array(src.buffer, src.byteOffset, src.length),
      image.width,
      image.height,
      image.byteWidth,
      inPlace ? new Uint8Array(src.buffer, src.byteOffset, image.width * image.height * 4) : null,
    );
    return { width: image.width, height: image.height, data };
  }

  /** XGetImage outside the screen is an X protocol error, and Xlib's answer is to exit. */
  private checkRegion(region: Region): void {
    const { width, height } = this.display;
    const ok =
      Number.isInteger(region.x) &&
      Number.isInteger(region.y) &&
      Number.isInteger(region.width) &&
      Number.isInteger(region.height) &&
      region.width > 0 &&
      region.height > 0 &&
      region.x >= 0 &&
      region.y >= 0 &&
      region.x + region.width <= width &&
      region.y + region.height <= height;
    if (!ok) {
      throw new RangeError(
        `Capture region ${region.x},${region.y} ${region.width}x${region.height} is not a ` +
          `non-empty integer region inside the ${width}x${height} screen of ${this.display.name}.`,
      );
    }
  }
}
