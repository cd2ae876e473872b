/**
 * The target ladder of a replayed action: the recorded position if the anchor still matches
 * there, then a template search for the anchor image in the window, then OCR of the anchor's
 * text, then (only when allowed) the model. Each rung is dearer and less certain than the last.
 */
import type { Anchor, Frame, Point, ResolvedBy, Target } from '../domain.ts';
import { isTextTarget } from '../domain.ts';
import { matchAt, findTemplate } from '../vision/template.ts';
import type { Stage, Shot } from './stage.ts';
import { locateText, centre } from './locate.ts';

/** Asks a model where a target is now; undefined when it cannot tell. */
export type ModelLocator = (frame: Frame, description: string) => Promise<Point | undefined>;

export interface Resolution {
  readonly point: Point;
  readonly resolvedBy: ResolvedBy;
  /** How far the target moved since recording. */
  readonly offset: Point;
}

export interface Unresolved {
  readonly point?: undefined;
  /** The best score any rung reached, for the failure message. */
  readonly bestScore: number;
  readonly ocrRead: string;
}

/** The anchor must match this well at its recorded place. */
const RECORDED_MIN_SCORE = 0.97;
/** …and this well elsewhere, found by template search. */
const TEMPLATE_MIN_SCORE = 0.9;

export interface LadderInput {
  readonly stage: Stage;
  readonly shot: Shot;
  readonly anchor: Anchor | undefined;
  readonly anchorImage: Frame | undefined;
  /** The target as written in the action. */
  readonly target: Target;
  readonly resolveText: (template: string) => string;
  readonly model?: ModelLocator;
  readonly description: string;
}

const moved = (from: Point, to: Point): Point => ({ x: to.x - from.x, y: to.y - from.y });

export async function resolveTarget(input: LadderInput): Promise<Resolution | Unresolved> {
  const { shot, anchor, anchorImage, target } = input;
  if (!anchor || !anchorImage) {
    // No anchor was recorded (a coordinate typed by hand into an empty area): trust the position.
    const point = isTextTarget(target) ? undefined : target;
    if (point) return { point, resolvedBy: 'recorded', offset: { x: 0, y: 0 } };
  }
  let bestScore = 0;
  if (anchor && anchorImage) {
    const here = matchAt(shot.frame, anchorImage, { x: anchor.box.x, y: anchor.box.y });
    if (here >= RECORDED_MIN_SCORE) return { point: anchor.point, resolvedBy: 'recorded', offset: { x: 0, y: 0 } };
    bestScore = here;
    const found = findTemplate(shot.frame, anchorImage, { minScore: TEMPLATE_MIN_SCORE });
    bestScore = Math.max(bestScore, found.score);
    if (found.found) {
      const offset = moved({ x: anchor.box.x, y: anchor.box.y }, found.point);
      return {
        point: { x: anchor.point.x + offset.x, y: anchor.point.y + offset.y },
        resolvedBy: 'template',
        offset,
      };
    }
  }
  const text = isTextTarget(target) ? input.resolveText(target.text) : anchor?.text;
  let ocrRead = '';
  if (text) {
    const located = await locateText(input.stage, text, { first: shot });
    ocrRead = located.read;
    if (located.hit) {
      const point = centre(located.hit.box);
      return { point, resolvedBy: 'ocr', offset: anchor ? moved(anchor.point, point) : { x: 0, y: 0 } };
    }
  }
  if (input.model) {
    const point = await input.stage.guard(input.model(shot.frame, input.description));
    if (point) return { point, resolvedBy: 'model', offset: anchor ? moved(anchor.point, point) : { x: 0, y: 0 } };
  }
  return { bestScore, ocrRead };
}
