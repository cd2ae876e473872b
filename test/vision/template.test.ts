import { describe, expect, it } from 'vitest';
import { cloneFrame, createFrame, crop, fillRegion, paste, scale } from '../../src/vision/frame.ts';
import { findTemplate, findTemplateScaled, matchAt } from '../../src/vision/template.ts';
import { loadImage, noiseFrame } from './helpers.ts';
import { RUNGS } from '../../src/brain/thresholds.ts';

/** The template rung's threshold: what a replay accepts. */
const SURE = { minScore: RUNGS.find((r) => r.name === 'template')!.minScore };

describe('findTemplate', () => {
  it('finds a 40 × 30 crop of a noise image at its exact offset', () => {
    const hay = noiseFrame(640, 400, 11);
    const needle = crop(hay, { x: 437, y: 213, width: 40, height: 30 });
    const m = findTemplate(hay, needle, SURE);
    expect(m.found).toBe(true);
    expect(m.point).toEqual({ x: 437, y: 213 });
    expect(m.box).toEqual({ x: 437, y: 213, width: 40, height: 30 });
    expect(m.score).toBeGreaterThan(0.999);
    expect(m.secondScore).toBeLessThan(0.5);
  });

  it('reports a needle that is not there as not found, with a low score', () => {
    const m = findTemplate(noiseFrame(320, 200, 1), noiseFrame(40, 30, 2), SURE);
    expect(m.found).toBe(false);
    expect(m.score).toBeLessThan(0.5);
  });

  it('searches only the search region', () => {
    const hay = noiseFrame(300, 200, 4);
    const needle = crop(hay, { x: 200, y: 120, width: 30, height: 30 });
    expect(findTemplate(hay, needle, { ...SURE, searchRegion: { x: 150, y: 100, width: 100, height: 80 } }).point).toEqual({
      x: 200,
      y: 120,
    });
    expect(findTemplate(hay, needle, { ...SURE, searchRegion: { x: 0, y: 0, width: 150, height: 200 } }).found).toBe(false);
    expect(findTemplate(hay, needle, { ...SURE, searchRegion: { x: 0, y: 0, width: 20, height: 20 } })).toMatchObject({
      found: false,
      score: 0,
    });
  });

  it('finds a real button after the window moved within a 1280 × 800 screen', () => {
    const calc = loadImage('galculator');
    const sqrt = crop(calc, { x: 263, y: 180, width: 65, height: 40 });
    const screen = createFrame(1280, 800, [60, 80, 100, 255]);
    paste(screen, loadImage('galculator-84'), { x: 700, y: 300 });
    const m = findTemplate(screen, sqrt, SURE);
    expect(m.found).toBe(true);
    expect(m.point).toEqual({ x: 963, y: 480 });
    expect(m.score).toBeGreaterThan(0.99);
  });

  it('tells the right key among similar ones and flags duplicates', () => {
    const calc = loadImage('galculator');
    const seven = crop(calc, { x: 5, y: 182, width: 61, height: 36 });
    const m = findTemplate(calc, seven, SURE);
    expect(m.point).toEqual({ x: 5, y: 182 });
    expect(m.secondScore).toBeLessThan(m.score);
    const twice = createFrame(200, 100, [255, 255, 255, 255]);
    paste(twice, seven, { x: 10, y: 10 });
    paste(twice, seven, { x: 120, y: 50 });
    expect(findTemplate(twice, seven, SURE).secondScore).toBeGreaterThan(0.99);
  });

  it('finds a needle whose texture is only at its edge', () => {
    const hay = createFrame(400, 300, [240, 240, 240, 255]);
    fillRegion(hay, { x: 200, y: 150, width: 40, height: 20 }, [180, 180, 180, 255]);
    const needle = crop(hay, { x: 190, y: 122, width: 40, height: 30 }); // the box's top two rows at the bottom
    expect(findTemplate(hay, needle, SURE).point).toEqual({ x: 190, y: 122 });
  });

  it('is indifferent to a uniform brightness shift', () => {
    const hay = noiseFrame(200, 150, 9);
    const needle = crop(hay, { x: 50, y: 60, width: 32, height: 24 });
    const brighter = cloneFrame(needle);
    for (let i = 0; i < brighter.data.length; i++)
      if (i % 4 !== 3) brighter.data[i] = Math.min(255, Math.round(brighter.data[i]! * 0.8 + 30));
    expect(findTemplate(hay, brighter, SURE).point).toEqual({ x: 50, y: 60 });
  });
});

describe('matchAt', () => {
  it('scores the recorded position cheaply', () => {
    const calc = loadImage('galculator');
    const key = crop(calc, { x: 70, y: 222, width: 61, height: 36 });
    expect(matchAt(calc, key, { x: 70, y: 222 })).toBeGreaterThan(0.999);
    expect(matchAt(calc, key, { x: 73, y: 222 })).toBeLessThan(0.9);
    expect(matchAt(calc, key, { x: 135, y: 222 })).toBeLessThan(0.95); // "6" where "5" was
    expect(matchAt(calc, key, { x: 300, y: 222 })).toBe(0); // does not fit
  });
});

describe('findTemplateScaled', () => {
  const calc = loadImage('galculator');
  const seven = { x: 5, y: 182, width: 61, height: 36 };
  const needle = crop(calc, seven);

  it.each([1.25, 1.5, 2])('finds a key recorded at scale 1 on the window drawn at %s, and no look-alike key', (zoom) => {
    const zoomed = scale(calc, calc.width * zoom, calc.height * zoom);
    // At the recorded size the key is not there: the ladder would fall through to OCR.
    expect(findTemplate(zoomed, needle, SURE).found).toBe(false);
    const m = findTemplateScaled(zoomed, needle, [1, zoom], SURE);
    expect(m).toMatchObject({ found: true, scale: zoom });
    expect(Math.abs(m.point.x - seven.x * zoom)).toBeLessThanOrEqual(2);
    expect(Math.abs(m.point.y - seven.y * zoom)).toBeLessThanOrEqual(2);
    expect(m.box.width).toBe(Math.round(seven.width * zoom));
    // The other keys (same frame, another digit) stay well below it: the rung's margin holds.
    expect(m.score - m.secondScore).toBeGreaterThanOrEqual(RUNGS.find((r) => r.name === 'template')!.margin);
  });

  it('keeps the recorded size when it matches best', () => {
    const m = findTemplateScaled(calc, needle, [1.5, 1], SURE);
    expect(m).toMatchObject({ found: true, scale: 1, point: { x: seven.x, y: seven.y } });
  });

  it('skips a factor that leaves no needle', () => {
    expect(findTemplateScaled(calc, needle, [0.01, 1], SURE).scale).toBe(1);
  });
});
