/**
 * The target ladder of a replayed action. The rungs and their acceptance thresholds are data
 * (`RUNGS` in thresholds.ts); this module gives each rung its way of looking and walks them in
 * order: the first rung whose finding is accepted resolves the target, and the caller records
 * which rung won. Adding a rung is an entry in `RUNGS` and a finder here.
 */
import type { Anchor, Frame, Point, Region, ResolvedBy, RungTry, Target } from '../domain.ts';
import { isPointTarget, isTextTarget } from '../domain.ts';
import { matchAt, findTemplateScaled } from '../vision/template.ts';
import { containsPoint } from '../vision/frame.ts';
import type { Stage, Shot } from './stage.ts';
import { locateText, centre } from './locate.ts';
import { RUNGS, SCALE_LIMITS, type RungSpec } from './thresholds.ts';
import { findByElement } from './element-target.ts';

/** Asks a model where a target is now; undefined when it cannot tell. */
export type ModelLocator = (frame: Frame, description: string) => Promise<Point | undefined>;

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
  /** The sizes the anchor is searched at by the template rung (`windowScales`): 1 is as recorded. */
  readonly scales?: readonly number[];
}

export interface Resolution {
  readonly point: Point;
  readonly resolvedBy: ResolvedBy;
  /** How far the target moved since recording. */
  readonly offset: Point;
  /** Every rung that looked, in order, the winner last. */
  readonly tried: readonly RungTry[];
}

export interface Unresolved {
  readonly point?: undefined;
  /** The best score any rung reached, for the failure message. */
  readonly bestScore: number;
  /** What OCR read while looking, if the OCR rung ran. */
  readonly ocrRead: string;
  /** The best place any rung found, though not accepted: boxed in the failure's evidence. */
  readonly candidate?: Region;
  readonly tried: readonly RungTry[];
}

/** What one rung saw: where it would put the target, and how sure it is. */
export interface Finding {
  readonly point?: Point;
  /** Where the target would be, for evidence. */
  readonly box?: Region;
  readonly score: number;
  /** Score of the best other place (0 when there is none). */
  readonly runnerUp: number;
  readonly read?: string;
  /** Where the target must be, whichever rung finds it: a role target's element, as the tree has it now. */
  readonly confine?: Region;
}

/** A rung's way of looking; undefined when it has nothing to look for (no anchor, no text). */
type Finder = (input: LadderInput) => Promise<Finding | undefined>;

const moved = (from: Point, to: Point): Point => ({ x: to.x - from.x, y: to.y - from.y });

const FINDERS: Readonly<Record<ResolvedBy, Finder>> = {
  element: findByElement,
  async recorded({ anchor, anchorImage, target, shot }) {
    // No anchor was recorded (a coordinate typed by hand into an empty area): trust the position.
    if (!anchor || !anchorImage) return isPointTarget(target) ? { point: target, score: 1, runnerUp: 0 } : undefined;
    const score = matchAt(shot.frame, anchorImage, { x: anchor.box.x, y: anchor.box.y });
    return { point: anchor.point, box: anchor.box, score, runnerUp: 0 };
  },
  async template({ anchor, anchorImage, shot, scales }) {
    if (!anchor || !anchorImage) return undefined;
    const found = findTemplateScaled(shot.frame, anchorImage, scales ?? [1], { minScore: 0 });
    // The point keeps its place inside the anchor, drawn as much larger as the anchor is.
    return {
      point: {
        x: Math.round(found.point.x + (anchor.point.x - anchor.box.x) * found.scale),
        y: Math.round(found.point.y + (anchor.point.y - anchor.box.y) * found.scale),
      },
      box: found.box,
      score: found.score,
      runnerUp: found.secondScore,
    };
  },
  async ocr({ stage, shot, anchor, target, resolveText }) {
    const text = isTextTarget(target) ? resolveText(target.text) : anchor?.text;
    if (!text) return undefined;
    const located = await locateText(stage, text, { first: shot });
    if (!located.hit) return { score: 0, runnerUp: 0, read: located.read };
    return { point: centre(located.hit.box), box: located.hit.box, score: located.hit.score, runnerUp: 0, read: located.read };
  },
  async model({ stage, shot, model, description }) {
    if (!model) return undefined;
    const point = await stage.guard(model(shot.frame, description));
    return point ? { point, score: 1, runnerUp: 0 } : { score: 0, runnerUp: 0 };
  },
};

const accepted = (rung: RungSpec, finding: Finding): boolean =>
  finding.point !== undefined && finding.score >= rung.minScore && finding.score - finding.runnerUp >= rung.margin;

/**
 * The scales an anchor is searched at: as recorded, and — on a window grown or shrunk since it
 * was recorded (another DPI, a zoom) — by how much each side changed. A window resized at the
 * same scale (a stretched layout) finds nothing better at those and keeps what scale 1 finds.
 */
export function windowScales(recorded: { width: number; height: number } | undefined, now: { width: number; height: number }): number[] {
  if (!recorded) return [1];
  const ratios = [now.width / recorded.width, now.height / recorded.height].filter(
    (r) => Math.abs(r - 1) >= SCALE_LIMITS.sameScale && r >= SCALE_LIMITS.min && r <= SCALE_LIMITS.max,
  );
  return [1, ...new Set(ratios)];
}

/** Walks the rungs in order; the first accepted finding resolves the target. */
export async function resolveTarget(input: LadderInput, rungs: readonly RungSpec[] = RUNGS): Promise<Resolution | Unresolved> {
  let best: Finding | undefined;
  let ocrRead = '';
  let confine: Region | undefined;
  const tried: RungTry[] = [];
  for (const rung of rungs) {
    const finding = await FINDERS[rung.name](input);
    if (!finding) continue;
    if (finding.read !== undefined) ocrRead = finding.read;
    confine ??= finding.confine;
    // A role target's element, as the tree has it now, is where any rung must find it.
    const ok = accepted(rung, finding) && finding.point !== undefined && (confine === undefined || containsPoint(confine, finding.point));
    tried.push({
      rung: rung.name,
      score: finding.score,
      runnerUp: finding.runnerUp,
      ...(finding.box ? { box: finding.box } : {}),
      accepted: ok,
    });
    if (ok && finding.point) {
      const { anchor } = input;
      // The recorded rung's point is where the anchor was: it has not moved.
      const offset = rung.name === 'recorded' || !anchor ? { x: 0, y: 0 } : offsetOf(rung.name, anchor, finding);
      return { point: finding.point, resolvedBy: rung.name, offset, tried };
    }
    if (!best || finding.score > best.score) best = finding;
  }
  return { bestScore: best?.score ?? 0, ocrRead, ...(best?.box ? { candidate: best.box } : {}), tried };
}

/** How far the target moved: by the anchor's box for an image match, by its point otherwise. */
const offsetOf = (rung: ResolvedBy, anchor: Anchor, finding: Finding): Point =>
  rung === 'template' && finding.box
    ? moved({ x: anchor.box.x, y: anchor.box.y }, finding.box)
    : moved(anchor.point, finding.point ?? anchor.point);
