/**
 * Screenshots for the model and the geometry that maps its coordinates back to the window.
 *
 * The model sees the application window scaled down to fit 1280×800 (aspect kept, never
 * upscaled): larger images are resized by the API anyway, which costs accuracy. Coordinates
 * the model returns are in screenshot pixels; {@link toWindowPoint} turns them into
 * window-relative pixels and refuses anything outside the screenshot, so no action can land
 * outside the application's window.
 */
import type { Frame, Point } from '../../domain.ts';
import { encodePng, scale } from '../../vision/frame.ts';

/** Largest screenshot sent to the model, in pixels. */
export const MAX_SHOT_WIDTH = 1280;
export const MAX_SHOT_HEIGHT = 800;

/** Sizes of the window frame and of the screenshot the model saw of it. */
export interface ShotGeometry {
  readonly frameWidth: number;
  readonly frameHeight: number;
  readonly shotWidth: number;
  readonly shotHeight: number;
}

export interface Screenshot {
  readonly geometry: ShotGeometry;
  /** PNG, base64. */
  readonly base64: string;
}

/** The screenshot size for a window: fits MAX_SHOT_WIDTH × MAX_SHOT_HEIGHT, aspect kept, never upscaled. */
export function fitShot(width: number, height: number): ShotGeometry {
  const factor = Math.min(1, MAX_SHOT_WIDTH / width, MAX_SHOT_HEIGHT / height);
  return {
    frameWidth: width,
    frameHeight: height,
    shotWidth: Math.max(1, Math.min(MAX_SHOT_WIDTH, Math.round(width * factor))),
    shotHeight: Math.max(1, Math.min(MAX_SHOT_HEIGHT, Math.round(height * factor))),
  };
}

/** The window frame as the model sees it. */
export function takeScreenshot(frame: Frame): Screenshot {
  if (frame.width < 1 || frame.height < 1) {
    throw new RangeError(`screenshot: the window frame is empty (${frame.width}×${frame.height})`);
  }
  const geometry = fitShot(frame.width, frame.height);
  const scaled =
    geometry.shotWidth === frame.width && geometry.shotHeight === frame.height
      ? frame
      : scale(frame, geometry.shotWidth, geometry.shotHeight, { method: 'bilinear' });
  return { geometry, base64: encodePng(scaled).toString('base64') };
}

export type WindowPoint = { readonly ok: true; readonly point: Point } | { readonly ok: false; readonly reason: string };

/**
 * A model coordinate `[x, y]` (screenshot pixels) as a window-relative point, rounded and
 * clamped to the window. Rejects a malformed coordinate and one outside the screenshot
 * (the right and bottom edges themselves are accepted).
 */
export function toWindowPoint(coordinate: unknown, g: ShotGeometry): WindowPoint {
  if (!Array.isArray(coordinate) || coordinate.length !== 2 || !coordinate.every((c) => typeof c === 'number' && Number.isFinite(c))) {
    return { ok: false, reason: `coordinate must be [x, y] with two numbers; got ${JSON.stringify(coordinate)}` };
  }
  const [x, y] = coordinate as [number, number];
  if (x < 0 || y < 0 || x > g.shotWidth || y > g.shotHeight) {
    return {
      ok: false,
      reason:
        `coordinate [${x}, ${y}] is outside the screen (${g.shotWidth}×${g.shotHeight}). ` +
        `The screen is the application window only; nothing outside it can be used.`,
    };
  }
  const wx = Math.round((x * g.frameWidth) / g.shotWidth);
  const wy = Math.round((y * g.frameHeight) / g.shotHeight);
  return {
    ok: true,
    point: { x: Math.min(g.frameWidth - 1, Math.max(0, wx)), y: Math.min(g.frameHeight - 1, Math.max(0, wy)) },
  };
}

/** A window point in screenshot pixels (for telling the model where the pointer is). */
export function toShotPoint(point: Point, g: ShotGeometry): Point {
  return {
    x: Math.round((point.x * g.shotWidth) / g.frameWidth),
    y: Math.round((point.y * g.shotHeight) / g.frameHeight),
  };
}
