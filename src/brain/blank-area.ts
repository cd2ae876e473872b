/**
 * Blank areas of effect images: one flat colour but for a caret (a field cleared after saving),
 * and the area a look changed left blank in the colour around it (a radio button's dot gone).
 */
import type { Frame, Region } from '../domain.ts';
import { crop, inflateRegion } from '../vision/frame.ts';
import { withoutCarets } from '../vision/caret.ts';
import { EFFECT_THRESHOLDS } from './thresholds.ts';

const { channelTolerance } = EFFECT_THRESHOLDS;

/** The colour of a frame that is one flat colour (within the channel tolerance), else undefined. */
function flatColour(frame: Frame): readonly [number, number, number] | undefined {
  const d = frame.data;
  const [r, g, b] = [d[0] ?? 0, d[1] ?? 0, d[2] ?? 0];
  for (let i = 4; i < d.length; i += 4) {
    if (
      Math.abs((d[i] ?? 0) - r) > channelTolerance ||
      Math.abs((d[i + 1] ?? 0) - g) > channelTolerance ||
      Math.abs((d[i + 2] ?? 0) - b) > channelTolerance
    ) {
      return undefined;
    }
  }
  return [r, g, b];
}

/** Flat but for a caret: a cleared field keeps its caret. */
export const isFlat = (frame: Frame): boolean => flatColour(withoutCarets(frame)) !== undefined;

/**
 * The area a look changed (its image less the padding learning added), image-relative, when it
 * is blank there in the colour around it: what changed went away, and left what it was drawn on.
 * A change that is itself a flat colour (a status light turned green) is not: around it, the
 * colour differs. Undefined when the area shows something.
 */
export function blankCore(image: Frame): Region | undefined {
  const pad = EFFECT_THRESHOLDS.padding;
  const core = inflateRegion({ x: 0, y: 0, width: image.width, height: image.height }, -pad);
  if (core.width <= 0 || core.height <= 0) return undefined;
  const colour = flatColour(withoutCarets(crop(image, core)));
  if (!colour) return undefined;
  const near = (x: number, y: number): boolean => {
    const i = (y * image.width + x) * 4;
    return colour.every((c, k) => Math.abs((image.data[i + k] ?? 0) - c) <= channelTolerance);
  };
  // The ring of pixels just around it, mostly in its colour.
  let same = 0;
  let all = 0;
  for (let y = core.y - 1; y <= core.y + core.height; y++) {
    for (let x = core.x - 1; x <= core.x + core.width; x++) {
      if (y >= core.y && y < core.y + core.height && x >= core.x && x < core.x + core.width) continue;
      all++;
      if (near(x, y)) same++;
    }
  }
  return same >= 0.5 * all ? core : undefined;
}
