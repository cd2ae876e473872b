/**
 * The pointer is part of a goal's start state: a control under it is drawn hovered, and the
 * first action, moving it away, would change that control as well as its target. Learning parks
 * it outside the window and records where (window-relative) with the path; replay puts it back
 * there before the first action, on any display, so every run starts with the same hover state
 * whatever the run before left under the pointer.
 */
import type { Point, Region } from '../domain.ts';
import { containsPoint } from '../vision/frame.ts';
import type { Stage } from './stage.ts';

/**
 * A corner of the screen outside the window (window-relative), bottom right first: without a
 * window manager windows open at the top left. A window that covers the screen leaves no
 * outside; its bottom-right corner pixel is the least likely to be a control.
 */
export function parkingSpot(window: Region, screen: { readonly width: number; readonly height: number }): Point {
  const corners: Point[] = [
    { x: screen.width - 1, y: screen.height - 1 },
    { x: 0, y: screen.height - 1 },
    { x: screen.width - 1, y: 0 },
    { x: 0, y: 0 },
  ];
  const outside = corners.find((p) => !containsPoint(window, p)) ?? corners[0]!;
  return { x: outside.x - window.x, y: outside.y - window.y };
}

/**
 * Moves the pointer to `recorded` (window-relative), or parks it when there is no recorded spot
 * or it would now fall inside the window or off the screen; returns where it went, window-relative.
 */
export async function placePointer(stage: Stage, recorded?: Point): Promise<Point> {
  const window = (await stage.window()).region;
  const screen = stage.desktop.display;
  const onScreen = { x: 0, y: 0, width: screen.width, height: screen.height };
  const absolute = (p: Point): Point => ({ x: window.x + p.x, y: window.y + p.y });
  const usable = recorded !== undefined && containsPoint(onScreen, absolute(recorded)) && !containsPoint(window, absolute(recorded));
  const spot = usable ? recorded : parkingSpot(window, screen);
  await stage.guard(stage.input.move(absolute(spot)));
  return spot;
}
