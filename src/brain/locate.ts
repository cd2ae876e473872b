/** Finds a text target on the window by OCR, polling until it appears or time runs out. */
import type { Point, Region } from '../domain.ts';
import { regionCenter } from '../vision/frame.ts';
import { findText, readText } from '../vision/ocr/find-text.ts';
import type { Stage, Shot } from './stage.ts';

export interface TextHit {
  readonly box: Region;
  readonly score: number;
  readonly shot: Shot;
}

export interface LocateResult {
  readonly hit?: TextHit;
  /** What OCR read on the last attempt, for the error message when nothing matched. */
  readonly read: string;
}

/**
 * @param first a shot already taken (saves one capture when the screen is known to be settled).
 * @param timeoutMs how long to keep looking. @default 0 (one attempt)
 */
export async function locateText(
  stage: Stage,
  text: string,
  options: { readonly first?: Shot; readonly timeoutMs?: number } = {},
): Promise<LocateResult> {
  const deadline = Date.now() + (options.timeoutMs ?? 0);
  let shot = options.first ?? (await stage.shoot());
  for (;;) {
    const hits = await stage.guard(findText(stage.reader, shot.frame, text));
    const best = hits[0];
    if (best) return { hit: { box: best.box, score: best.score, shot }, read: best.read };
    if (Date.now() >= deadline) {
      const read = hits.length === 0 ? await readAll(stage, shot) : '';
      return { read };
    }
    shot = await stage.shoot();
  }
}

const readAll = async (stage: Stage, shot: Shot): Promise<string> =>
  (await stage.guard(readText(stage.reader, shot.frame))).replace(/\s+/g, ' ').trim();

/** The integer point at the middle of a box: where a click on it lands. */
export const centre = (box: Region): Point => {
  const c = regionCenter(box);
  return { x: Math.round(c.x), y: Math.round(c.y) };
};
