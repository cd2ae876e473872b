/**
 * Screen capture through the provider chosen when the desktop opened (providers/choose.ts: the
 * own X connection's GetImage, or nut-js), and the server's reports of drawing
 * (x11/drawing.ts) that tell a wait when to grab.
 *
 * One process captures one display: see nut.ts. X servers do not scale, so a grab's pixel
 * density is always 1 and frame pixels are screen pixels.
 */
import type { DrawReport, Frame, Region } from '../domain.ts';
import { drawingReportsWanted } from '../switches.ts';
import type { CaptureProvider } from './providers/types.ts';
import type { Display, ScreenCapture } from './types.ts';
import { DrawingWatch } from './x11/drawing.ts';

export class XScreenCapture implements ScreenCapture {
  private watch: Promise<DrawingWatch | undefined> | undefined;

  constructor(
    private readonly display: Display,
    private readonly provider: CaptureProvider,
  ) {}

  async drawing(region: Region): Promise<DrawReport | undefined> {
    if (!drawingReportsWanted()) return undefined;
    this.watch ??= DrawingWatch.open(this.display.name, this.display.env);
    const watch = await this.watch;
    return watch?.alive ? watch.report(region) : undefined;
  }

  async grab(region?: Region): Promise<Frame> {
    if (region !== undefined) this.checkRegion(region);
    this.display.assertAlive();
    return this.provider.grab(region ?? { x: 0, y: 0, width: this.display.width, height: this.display.height });
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
