/**
 * The pointer's doing on the Tk order form of the toolkit corpus (no tree: pixels decide), on
 * real frames of it (test/vision/images/tk-ship-*: a click on Express, then on Gift wrap). Tk
 * lights the whole control under the pointer — black in the light colours, light grey in the
 * dark ones — so clicking Gift wrap takes Express's hover look off as it lights Gift wrap.
 * Neither is news: learning records only the check mark, and replay on the dark colours
 * verifies it and tells Express's look going from Express losing its dot.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Effect, Frame, Region } from '../../src/domain.ts';
import { anchorBox, makeEffects } from '../../src/brain/observe.ts';
import { PointerTrail } from '../../src/brain/pointer-trail.ts';
import { verifyEffects } from '../../src/brain/verify.ts';
import { unexplainedChanges } from '../../src/brain/unexpected.ts';
import { UNEXPECTED_LIMITS } from '../../src/brain/thresholds.ts';
import { cloneFrame, crop, decodePng, paste } from '../../src/vision/frame.ts';
import { closeSharedTextReader, sharedTextReader } from '../../src/vision/ocr/tesseract-reader.ts';
import { loadImage } from '../vision/helpers.ts';

const EXPRESS = { x: 164, y: 116 };
const GIFT_WRAP = { x: 251, y: 115 };
/** The Express radio button as Tk draws it, its indicator and label. */
const EXPRESS_BUTTON = { x: 108, y: 104, width: 85, height: 21 };

const STATUS = { x: 9, y: 166, width: 240, height: 20 };

const content = (effects: readonly Effect[]): Region[] => effects.filter((e) => e.kind !== 'feedback').map((e) => e.region);

/** Learning both clicks as learn-step.ts does, the pointer's trail kept between them. */
async function learn(look: 'light' | 'dark') {
  const [start, express, gift] = ['', '-express', '-gift-wrap'].map((s) => loadImage(`tk-ship-${look}${s}`)) as [Frame, Frame, Frame];
  const sink = new Map<string, Uint8Array>();
  const trail = new PointerTrail();
  const observed = async (before: Frame, after: Frame, point: typeof EXPRESS) => {
    trail.acted(true, point);
    const target = anchorBox(before, point);
    const hovered = trail.restingOn({ box: target, point }, before, after, []);
    const left = trail.left;
    const effects = await makeEffects({
      before,
      after,
      dynamic: [],
      secret: false,
      sink,
      reader: sharedTextReader(),
      target,
      hovered,
      ...(left && { pointerLeft: { box: left, gone: (change: Region) => trail.hoverGone(change, before, after) } }),
    });
    trail.rested(true, hovered, before, content(effects));
    return { effects, hovered, left };
  };
  const first = await observed(start, express, EXPRESS);
  const second = await observed(express, gift, GIFT_WRAP);
  return { first, second, sink };
}

/** Both clicks learned on the light colours, once for every test. */
let learned: Awaited<ReturnType<typeof learn>>;
beforeAll(async () => {
  learned = await learn('light');
}, 60_000);
afterAll(() => closeSharedTextReader());

describe('learning Express then Gift wrap on the light colours (real OCR)', () => {
  test('the pointer rests on the whole Express button, not only its label', () => {
    const { first, second } = learned;
    expect(first.hovered).toEqual(EXPRESS_BUTTON);
    expect(second.left).toEqual(EXPRESS_BUTTON);
  });

  test("Gift wrap's effect is its check mark alone, a look; Express's hover going is not recorded", () => {
    const { second } = learned;
    const [mark, ...rest] = second.effects;
    expect(rest.map((e) => [e.kind, e.text])).toEqual([['text', 'gift wrapped']]);
    expect(mark).toMatchObject({ kind: 'look' });
    // The check box's indicator, right of Express's button, no wider than the indicator padded.
    expect(mark!.region.x).toBeGreaterThan(EXPRESS_BUTTON.x + EXPRESS_BUTTON.width);
    expect(mark!.region.width).toBeLessThan(24);
  });
});

describe('replayed on the dark colours', () => {
  const [start, express, gift, unchecked] = ['', '-express', '-gift-wrap', '-unchecked'].map((s) => loadImage(`tk-ship-dark${s}`)) as [
    Frame,
    Frame,
    Frame,
    Frame,
  ];

  const verifyMark = async (after: Frame) => {
    const { second, sink } = learned;
    const mark = second.effects[0]!;
    const [check] = await verifyEffects({
      reader: sharedTextReader(),
      recorded: {
        action: { kind: 'click', target: { text: 'Gift wrap' } },
        before: 'b.png',
        after: 'a.png',
        effects: [mark],
        dynamic: [],
        settleMs: 40,
      },
      image: (name) => loadPngFrom(sink, name),
      before: express,
      after,
      offset: { x: 0, y: 0 },
      ignore: [],
    });
    return check;
  };

  test('the check mark learned in light colours verifies on the dark ones', async () => {
    expect((await verifyMark(gift))?.verified).toBe(true);
  });

  test('Gift wrap lit under the pointer but left unchecked (a click swallowed) does not verify', async () => {
    expect((await verifyMark(unchecked))?.verified).toBe(false);
  });

  /**
   * Replay's trail after both clicks: what changed beside Gift wrap's lit button, and whether it
   * is Express's look going. The targets' boxes are the anchors learned on the light colours,
   * where segmenting found Express's label alone.
   */
  const leftBehind = (after: Frame) => {
    const [expressBox, giftWrapBox] = [
      anchorBox(loadImage('tk-ship-light'), EXPRESS),
      anchorBox(loadImage('tk-ship-light-express'), GIFT_WRAP),
    ];
    const trail = new PointerTrail();
    trail.acted(true, EXPRESS);
    trail.rested(true, trail.restingOn({ box: expressBox, point: EXPRESS }, start, express, []), start, [EXPRESS_BUTTON]);
    trail.acted(true, GIFT_WRAP);
    const lit = trail.restingOn({ box: giftWrapBox, point: GIFT_WRAP }, express, after, []);
    // The status line ("…, gift wrapped") is Gift wrap's recorded effect.
    const changes = unexplainedChanges(express, after, [lit, STATUS], []);
    return changes.map((c) => trail.hoverGone(c, express, after));
  };

  test("Express's hover look going, its dot kept, is the pointer's doing", () => {
    expect(leftBehind(gift)).toEqual([true]);
  });

  test('Express losing its dot as the pointer leaves it is not', () => {
    // Express's button as it was before it was clicked, pasted into the frame after Gift wrap's click.
    const reverted = cloneFrame(gift);
    paste(reverted, crop(start, EXPRESS_BUTTON), EXPRESS_BUTTON);
    expect(leftBehind(reverted)).toEqual([false]);
  });
});

function loadPngFrom(sink: Map<string, Uint8Array>, name: string): Frame {
  const png = sink.get(name);
  if (!png) throw new Error(`no image ${name}`);
  return decodePng(png);
}

describe('replayed with every text 2 px larger', () => {
  const [start, express, gift] = ['', '-express', '-gift-wrap'].map((s) => loadImage(`tk-ship-font${s}`)) as [Frame, Frame, Frame];
  // Where the larger labels are: Express's button spans 126-227 px, Gift wrap's starts at 229.
  const [express2, giftWrap2] = [
    { x: 190, y: 125 },
    { x: 299, y: 127 },
  ];

  test("Gift wrap's whole lit button is its own look, so Express's look going beside it is the pointer's doing", () => {
    const trail = new PointerTrail();
    trail.acted(true, express2);
    trail.rested(true, trail.restingOn({ box: anchorBox(start, express2), point: express2 }, start, express, []), start, []);
    trail.acted(true, giftWrap2);
    const giftWrapBox = anchorBox(express, giftWrap2);
    const lit = trail.restingOn({ box: giftWrapBox, point: giftWrap2 }, express, gift, []);
    // Wider than Gift wrap's label and the slack around it: the check box left of the label lit too.
    expect(lit.x).toBeLessThan(giftWrapBox.x - UNEXPECTED_LIMITS.slackPx);
    const status = { x: 13, y: 186, width: 280, height: 15 };
    const changes = unexplainedChanges(express, gift, [lit, status], []);
    expect(changes.map((c) => trail.hoverGone(c, express, gift))).toEqual([true]);
  });
});
