/**
 * Where text can be (text-regions.ts), on in-memory frames: glyph-like runs found, bars,
 * switches and flat panels left out; the packing of runs, their polarity, and the way back.
 */
import { describe, expect, it } from 'vitest';
import type { Frame, Region } from '../../src/domain.ts';
import { fillRegion, regionsIntersect } from '../../src/vision/frame.ts';
import { composePacked, packRegions, textRegions, wordsToFrame } from '../../src/vision/ocr/text-regions.ts';
import { BLACK, drawn, GRAY, pixel, WHITE } from './helpers.ts';

/** A "word" of `n` glyph-sized blocks 6×10, 2 px apart, at (x, y). */
function word(frame: Frame, x: number, y: number, n: number, colour = BLACK): Region {
  for (let i = 0; i < n; i++) fillRegion(frame, { x: x + i * 8, y, width: 6, height: 10 }, colour);
  return { x, y, width: n * 8 - 2, height: 10 };
}

const inside = (outer: Region, inner: Region): boolean =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;

describe('textRegions', () => {
  it('finds runs of glyphs, one a line, and leaves out bars, switches and flat panels', () => {
    const frame = drawn(400, 200, WHITE, [[{ x: 0, y: 120, width: 400, height: 80 }, GRAY]]);
    const first = word(frame, 20, 20, 5);
    const second = word(frame, 70, 20, 3); // 12 px on: the same line, within 1.5 text heights
    const far = word(frame, 300, 20, 4); // far off on the same line: a run of its own
    const below = word(frame, 20, 50, 6);
    fillRegion(frame, { x: 20, y: 90, width: 250, height: 4 }, BLACK); // a slider's track
    fillRegion(frame, { x: 300, y: 80, width: 50, height: 28 }, BLACK); // a switch
    const onPanel = word(frame, 40, 150, 4);
    const runs = textRegions(frame);
    const boxes = runs.map((r) => r.box);
    expect(boxes).toHaveLength(4);
    const holding = (r: Region): Region | undefined => boxes.find((b) => inside(b, r));
    expect(holding(first)).toBeDefined();
    expect(holding(first)).toBe(holding(second));
    expect(holding(far)).not.toBe(holding(first));
    expect(holding(below)).toBeDefined();
    expect(holding(onPanel)).toBeDefined();
    for (const b of boxes) {
      expect(regionsIntersect(b, { x: 20, y: 90, width: 250, height: 4 })).toBe(false);
      expect(regionsIntersect(b, { x: 300, y: 80, width: 50, height: 28 })).toBe(false);
    }
  });

  it('finds nothing on a blank frame', () => {
    expect(textRegions(drawn(300, 200, WHITE))).toEqual([]);
  });
});

describe('packRegions', () => {
  const frame = drawn(400, 200, WHITE);
  const a = word(frame, 20, 20, 5);
  word(frame, 20, 60, 5); // the same pixels as `a`
  word(frame, 200, 20, 3);
  word(frame, 200, 100, 7);
  const runs = textRegions(frame);

  it('places every run once, without overlap, inside the image; equal pixels share one place', () => {
    expect(runs).toHaveLength(4);
    const [packing, ...rest] = packRegions(frame, runs);
    expect(rest).toEqual([]);
    const placements = packing!.placements;
    expect(placements).toHaveLength(3);
    const twin = placements.find((p) => p.copies.length > 0)!;
    expect([twin.from, ...twin.copies].map((r) => r.y).sort((p, q) => p - q)).toEqual([19, 59]);
    expect(inside(twin.from, a) || twin.copies.some((c) => inside(c, a))).toBe(true);
    const placed = placements.map((p) => ({ ...p.at, width: p.from.width, height: p.from.height }));
    placed.forEach((p, i) => {
      expect(inside({ x: 0, y: 0, width: packing!.width, height: packing!.height }, p)).toBe(true);
      placed.slice(i + 1).forEach((q) => expect(regionsIntersect(p, q)).toBe(false));
    });
  });

  it('splits the runs into parts of about equal area, each run in one part', () => {
    const parts = packRegions(frame, runs, 2);
    expect(parts).toHaveLength(2);
    expect(parts.flatMap((p) => p.placements)).toHaveLength(3);
  });
});

describe('composePacked', () => {
  /** The middle of the first glyph of each run and of the gap after it, in the packed image. */
  function probe(frame: Frame): { ink: number; gap: number }[] {
    const [packing] = packRegions(frame, textRegions(frame));
    const image = composePacked(frame, packing!);
    return packing!.placements.map(({ at, from }) => {
      const x = at.x + (from.width - 30) / 2 + 3;
      const y = at.y + from.height / 2;
      return { ink: pixel(image, x, y)[0]!, gap: pixel(image, x + 4, y)[0]! };
    });
  }

  it('draws dark text on a light window dark on white', () => {
    const frame = drawn(200, 100, WHITE);
    word(frame, 20, 30, 4);
    const [run] = probe(frame);
    expect(run!.ink).toBeLessThan(60);
    expect(run!.gap).toBeGreaterThan(200);
  });

  it('draws light text on a dark window dark on white too', () => {
    const frame = drawn(200, 100, BLACK);
    word(frame, 20, 30, 4, WHITE);
    const [run] = probe(frame);
    expect(run!.ink).toBeLessThan(60);
    expect(run!.gap).toBeGreaterThan(200);
  });

  it('copies nothing above or below a label’s line (a rule under the text, beside a taller glyph)', () => {
    const frame = drawn(200, 100, WHITE);
    fillRegion(frame, { x: 5, y: 26, width: 8, height: 22 }, BLACK);
    word(frame, 34, 30, 4);
    fillRegion(frame, { x: 36, y: 44, width: 40, height: 1 }, BLACK);
    const runs = textRegions(frame);
    const [packing] = packRegions(frame, runs);
    const image = composePacked(frame, packing!);
    const dark = [];
    for (let y = 0; y < image.height; y++) for (let x = 0; x < image.width; x++) if (pixel(image, x, y)[0]! < 128) dark.push(y);
    expect(runs).toHaveLength(1);
    const { at, from } = packing!.placements[0]!;
    const rule = at.y + 44 - from.y;
    const ruleRow = [];
    for (let x = at.x + 40 - from.x; x < at.x + 70 - from.x; x++) ruleRow.push(pixel(image, x, rule)[0]);
    expect(ruleRow.every((v) => v === 255)).toBe(true);
    expect(dark.length).toBeGreaterThan(0);
  });
});

describe('wordsToFrame', () => {
  it('maps a word back onto its run and the run’s copies, and drops one read in a gap', () => {
    const frame = drawn(400, 200, WHITE);
    word(frame, 20, 20, 5);
    word(frame, 20, 60, 5);
    const [packing] = packRegions(frame, textRegions(frame));
    const place = packing!.placements[0]!;
    const inWord = { text: 'hello', confidence: 90, box: { x: place.at.x + 3, y: place.at.y + 1, width: 38, height: 10 } };
    const inGap = { text: '|', confidence: 30, box: { x: packing!.width + 50, y: 0, width: 2, height: 10 } };
    const words = wordsToFrame([inWord, inGap], packing!);
    expect(words.map((w) => w.text)).toEqual(['hello', 'hello']);
    expect(words.map((w) => w.box).sort((p, q) => p.y - q.y)).toEqual([
      { x: place.from.x + 3, y: 20, width: 38, height: 10 },
      { x: place.from.x + 3, y: 60, width: 38, height: 10 },
    ]);
  });
});
