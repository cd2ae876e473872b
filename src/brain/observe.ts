/**
 * Turns what the screen looked like before and after an action into the recorded evidence of a
 * path: the target's anchor and the regions the action changed. The action cycle uses it for new
 * recordings and for the proposal of a healed replay.
 */
import type { Action, Anchor, Effect, Frame, Point, RecordedAction, Region } from '../domain.ts';
import { fingerprint } from '../vision/fingerprint.ts';
import { crop, encodePng, clampRegion, containsPoint, inflateRegion } from '../vision/frame.ts';
import { changedRegions } from '../vision/changes.ts';
import { isCaretLike } from '../vision/settle.ts';
import { readText } from '../vision/ocr/find-text.ts';
import type { TextReader } from '../vision/types.ts';
import { segmentControls } from '../vision/segment.ts';
import { assetName } from '../paths/store.ts';
import { EFFECT_THRESHOLDS } from './thresholds.ts';

/** Images collected while observing, keyed by asset name. */
export type AssetSink = Map<string, Uint8Array>;

const ANCHOR_FALLBACK = { width: 56, height: 36 };
/** A control larger than this is a panel, not a button: anchor on a fixed crop instead. */
const MAX_CONTROL = { width: 320, height: 120 };
const { minEffectPixels: MIN_EFFECT_PIXELS, padding: EFFECT_PADDING } = EFFECT_THRESHOLDS;

const store = (sink: AssetSink, frame: Frame): string => {
  const png = encodePng(frame);
  const name = assetName(png);
  sink.set(name, png);
  return name;
};

/** The box an anchor crops: the control under the point, or a fixed crop centred on it. */
export function anchorBox(frame: Frame, point: Point): Region {
  const control = segmentControls(frame)
    .filter((r) => containsPoint(r, point) && r.width <= MAX_CONTROL.width && r.height <= MAX_CONTROL.height)
    .sort((a, b) => a.width * a.height - b.width * b.height)[0];
  const box = control
    ? inflateRegion(control, 2)
    : {
        x: point.x - ANCHOR_FALLBACK.width / 2,
        y: point.y - ANCHOR_FALLBACK.height / 2,
        ...ANCHOR_FALLBACK,
      };
  return clampRegion(box, frame.width, frame.height);
}

export function makeAnchor(frame: Frame, point: Point, text: string | undefined, sink: AssetSink): Anchor {
  const box = anchorBox(frame, point);
  const image = store(sink, crop(frame, box));
  return text === undefined ? { point, box, image } : { point, box, image, text };
}

/**
 * The regions `before` → `after` changed, outside `dynamic`, each with its post image and the
 * text OCR reads in it (neither for an action that typed a secret).
 */
export async function makeEffects(
  before: Frame,
  after: Frame,
  dynamic: readonly Region[],
  secret: boolean,
  sink: AssetSink,
  reader: TextReader,
): Promise<Effect[]> {
  const changes = changedRegions(before, after, { ignore: dynamic, minPixels: MIN_EFFECT_PIXELS });
  // A caret is in either blink phase on any frame: its appearing is no effect to verify.
  const effects: Effect[] = [];
  for (const changed of changes.filter((c) => !isCaretLike(c))) {
    const region = clampRegion(inflateRegion(changed, EFFECT_PADDING), after.width, after.height);
    if (secret) {
      effects.push({ region });
      continue;
    }
    const text = (await readText(reader, after, region))
      .split('\n')
      .map((line) => line.replace(/\s+/g, ' ').trim())
      .filter((line) => line.length > 0)
      .join('\n');
    effects.push(text ? { region, image: store(sink, crop(after, region)), text } : { region, image: store(sink, crop(after, region)) });
  }
  return effects;
}

export interface ObserveInput {
  readonly action: Action;
  readonly before: Frame;
  readonly after: Frame;
  /** The first target's window-relative point, when the action has one. */
  readonly point?: Point;
  /** The text under the point (the anchor's OCR text); omitted for a secret action. */
  readonly text?: string;
  readonly dynamic: readonly Region[];
  readonly secret: boolean;
  readonly settleMs: number;
  readonly assets: AssetSink;
  readonly reader: TextReader;
}

/**
 * An action as a path records it, from the window before and after it: the anchor of its
 * target, the fingerprints of both states and the regions it changed. (`retrace record` builds
 * its actions with it; the action cycle assembles the same fields for learning.)
 */
export async function observeAction(input: ObserveInput): Promise<RecordedAction> {
  const { action, before, after, point, dynamic, secret } = input;
  const anchor = point ? makeAnchor(before, point, secret ? undefined : input.text, input.assets) : undefined;
  const effects = await makeEffects(before, after, dynamic, secret, input.assets, input.reader);
  return {
    action,
    ...(anchor ? { anchor } : {}),
    before: fingerprint(before, dynamic),
    after: fingerprint(after, dynamic),
    effects,
    dynamic,
    settleMs: Math.round(input.settleMs),
    ...(secret ? { secret: true } : {}),
  };
}
