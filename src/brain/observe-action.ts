/**
 * What an action did, as a path keeps it: the anchor of its target, the regions it changed and
 * what it changed in the app's elements. Learning keeps every action so; replay keeps a healed
 * one so (its proposal).
 */
import type { Action, Frame, Point, RecordedAction, Region } from '../domain.ts';
import type { Element } from '../desktop/types.ts';
import { fingerprint } from '../vision/fingerprint.ts';
import { crop } from '../vision/frame.ts';
import type { Stage } from './stage.ts';
import type { Settled } from './settle.ts';
import { elementAnchorAt } from './element-target.ts';
import { asElementEvidence, elementChanges, focusMoves, leftAsItWas, readElements, readSettledElements } from './element-effects.ts';
import { makeAnchor, makeEffects, type AssetSink, type ObserveInput } from './observe.ts';
import type { Resolved } from './cycle-strategy.ts';

/** What the action did, as a path keeps it: the anchor of its target and the regions it changed. */
export async function observe(
  stage: Stage,
  action: Action,
  before: Settled,
  after: Settled,
  resolved: Resolved,
  dynamic: readonly Region[],
  secret: boolean,
  assets: AssetSink,
  recorded?: RecordedAction,
  elementsBefore?: readonly Element[],
  /** What the action typed, placeholders resolved: recorded as typed where OCR misreads it. */
  typed?: string,
  /** Learning on an app with no elements: the control the pointer left, and the one it rests on now. */
  pointer?: Pick<ObserveInput, 'pointerLeft' | 'hovered'>,
): Promise<RecordedAction> {
  const point = resolved.points[0];
  // A healed action keeps the text it was recorded with; a learned one reads what is under it.
  const text = secret
    ? undefined
    : recorded
      ? recorded.anchor?.text
      : (resolved.text ?? (point ? await readUnder(stage, before.frame, point) : undefined));
  const pixelAnchor = point && (!recorded || recorded.anchor) ? makeAnchor(before.frame, point, text, assets) : undefined;
  // The element under the target, as the app publishes it (read now when healing a replay).
  const elementsNow = elementsBefore ?? (recorded && point ? await readElements(stage, after.window) : undefined);
  const element = point && elementsNow ? elementAnchorAt(elementsNow, point) : undefined;
  const anchor = pixelAnchor && element ? { ...pixelAnchor, element } : pixelAnchor;
  const elementsAfter = elementsBefore ? await readSettledElements(stage, after.window, dynamic) : undefined;
  const focusOnly = elementsBefore && elementsAfter ? focusMoves(elementsBefore, elementsAfter).focusOnly : undefined;
  const elements = recorded
    ? recorded.elements
    : elementsBefore && elementsAfter
      ? elementChanges(elementsBefore, elementsAfter, { dynamic, secret, ...(element && { target: element }) })
      : undefined;
  // Where the app's elements tell what changed, they decide; the pixels there are evidence.
  const told = elementsBefore !== undefined && elementsAfter !== undefined && !secret;
  const pixels = await stage.guard(
    makeEffects({
      before: before.frame,
      after: after.frame,
      dynamic,
      secret,
      sink: assets,
      reader: stage.reader,
      ...(anchor ? { target: anchor.box } : {}),
      ...(told && leftAsItWas(elements ?? [], element) && { targetUnchanged: true }),
      ...(focusOnly?.length ? { focusOnly } : {}),
      ...pointer,
      known: { ...(typed !== undefined && { typed }), ...(elementsAfter && { elements: elementsAfter }) },
    }),
  );
  const effects = told ? asElementEvidence(pixels, elements ?? [], elementsAfter, element) : pixels;
  return {
    action,
    ...(anchor ? { anchor } : {}),
    before: fingerprint(before.frame, dynamic),
    after: fingerprint(after.frame, dynamic),
    effects,
    ...(elements?.length ? { elements } : {}),
    dynamic,
    settleMs: Math.round(after.settleMs),
    ...(secret ? { secret: true } : {}),
    // A healed proposal keeps what the path waits for before its first action.
    ...(recorded?.beforeLine && { beforeLine: recorded.beforeLine }),
  };
}

/** OCR text under a point, so a coordinate-only target still gets a text rung on replay. */
async function readUnder(stage: Stage, frame: Frame, point: Point): Promise<string | undefined> {
  const box: Region = { x: Math.max(0, point.x - 40), y: Math.max(0, point.y - 14), width: 80, height: 28 };
  const text = (await stage.guard(stage.reader.read(crop(frame, box), { layout: 'line' }))).text.trim();
  return text.length > 0 ? text : undefined;
}
