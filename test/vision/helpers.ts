/** Shared helpers of the vision tests: image files, synthetic frames, a fake clock. */
import { readFileSync } from 'node:fs';
import type { DrawReport, Frame, Region } from '../../src/domain.ts';
import { createFrame, decodePng, fillRegion } from '../../src/vision/frame.ts';
import type { Clock } from '../../src/vision/settle.ts';
import type { Rgba } from '../../src/vision/types.ts';
import { random } from '../support/seeded.ts';

/** A PNG of test/vision/images, decoded. */
export const loadImage = (name: string): Frame => decodePng(readFileSync(new URL(`./images/${name}.png`, import.meta.url)));

/** Deterministic pseudo-random numbers in [0, 1), shared with the other tests. */
export { random };

/** An opaque frame of random colours. */
export function noiseFrame(width: number, height: number, seed: number): Frame {
  const next = random(seed);
  const frame = createFrame(width, height);
  for (let i = 0; i < frame.data.length; i += 4) {
    frame.data[i] = Math.floor(next() * 256);
    frame.data[i + 1] = Math.floor(next() * 256);
    frame.data[i + 2] = Math.floor(next() * 256);
    frame.data[i + 3] = 255;
  }
  return frame;
}

export const WHITE: Rgba = [255, 255, 255, 255];
export const BLACK: Rgba = [0, 0, 0, 255];
export const GRAY: Rgba = [200, 200, 200, 255];

/** A frame of one colour with some filled rectangles on it. */
export function drawn(width: number, height: number, ground: Rgba, boxes: readonly (readonly [Region, Rgba])[] = []): Frame {
  const frame = createFrame(width, height, ground);
  for (const [r, c] of boxes) fillRegion(frame, r, c);
  return frame;
}

export function pixel(frame: Frame, x: number, y: number): number[] {
  const p = (y * frame.width + x) * 4;
  return Array.from(frame.data.subarray(p, p + 4));
}

/** Virtual time: `sleep` advances it at once; `tick` lets a fake grab cost time too. */
export class FakeClock implements Clock {
  t = 0;
  readonly sleeps: number[] = [];
  now(): number {
    return this.t;
  }
  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.t += ms;
  }
  tick(ms: number): void {
    this.t += ms;
  }
}

/** A grab function over a fake clock: each grab costs `grabMs` and shows `screen(t)`. */
export function fakeScreen(clock: FakeClock, screen: (t: number) => Frame, grabMs = 4): () => Promise<Frame> {
  return async () => {
    const frame = screen(clock.t);
    clock.tick(grabMs);
    return frame;
  };
}

/**
 * The display's reports of drawing over a fake clock: the app draws at `drawsAt` (ms). A wait
 * for drawing moves the clock to the next one, or to its end.
 */
export function fakeDrawing(clock: FakeClock, drawsAt: readonly number[]): DrawReport & { marks: number } {
  let markedAt = -1;
  return {
    marks: 0,
    mark() {
      markedAt = clock.t;
      this.marks++;
    },
    async drawn(until: number): Promise<boolean> {
      const next = drawsAt.find((t) => t > markedAt);
      if (next === undefined || next > until) {
        clock.t = Math.max(clock.t, until);
        return false;
      }
      clock.t = Math.max(clock.t, next);
      return true;
    },
  };
}

/** Centre of a region. */
export const centre = (r: Region): { x: number; y: number } => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });

export const inside = (p: { x: number; y: number }, r: Region): boolean =>
  p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height;

/** Intersection over union of two regions. */
export function iou(a: Region, b: Region): number {
  const x0 = Math.max(a.x, b.x);
  const y0 = Math.max(a.y, b.y);
  const x1 = Math.min(a.x + a.width, b.x + b.width);
  const y1 = Math.min(a.y + a.height, b.y + b.height);
  const common = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  return common / (a.width * a.height + b.width * b.height - common);
}
