import { describe, expect, it } from 'vitest';
import type { Region } from '../../src/domain.ts';
import { createFrame, fillRegion } from '../../src/vision/frame.ts';
import { segmentDetailed } from '../../src/vision/segment.ts';
import { classifySymbol } from '../../src/vision/symbols.ts';
import { BLACK, WHITE, inside, loadImage } from './helpers.ts';

/** The symbol of the label at point (x, y) of a test image. */
function symbolAt(name: string, x: number, y: number): string | null {
  const frame = loadImage(name);
  const labels = segmentDetailed(frame).flatMap((c) => c.labels);
  const label = labels.find((l) => inside({ x, y }, { x: l.x - 3, y: l.y - 3, width: l.width + 6, height: l.height + 6 }));
  expect(label, `a label at ${x},${y}`).toBeDefined();
  return classifySymbol(frame, label!, 14);
}

describe('classifySymbol', () => {
  it('names the operator keys OCR misreads, on real images', () => {
    expect(symbolAt('keypad', 92, 81)).toBe('÷');
    expect(symbolAt('keypad', 208, 81)).toBe('-');
    expect(symbolAt('keypad', 208, 169)).toBe('=');
    expect(symbolAt('keypad', 208, 257)).toBe('±');
    expect(symbolAt('keypad', 208, 217)).toBe('.');
    expect(symbolAt('galculator', 295, 300)).toBe('=');
    expect(symbolAt('galculator', 230, 280)).toBe('-');
    expect(symbolAt('galculator', 100, 323)).toBe('.');
  });

  it('leaves digits, letters, "+" and "×" to OCR', () => {
    expect(symbolAt('keypad', 34, 124)).toBeNull(); // 7
    expect(symbolAt('keypad', 208, 125)).toBeNull(); // +
    expect(symbolAt('keypad', 150, 81)).toBeNull(); // ×
    expect(symbolAt('galculator', 185, 114)).toBeNull(); // C
    expect(symbolAt('galculator', 36, 200)).toBeNull(); // 7
  });

  it('works on drawn shapes', () => {
    const f = createFrame(40, 40, WHITE);
    const at = (r: Region): string | null => classifySymbol(f, r, 14);
    fillRegion(f, { x: 10, y: 10, width: 10, height: 2 }, BLACK);
    expect(at({ x: 10, y: 10, width: 10, height: 2 })).toBe('-');
    fillRegion(f, { x: 10, y: 15, width: 10, height: 2 }, BLACK);
    expect(at({ x: 10, y: 10, width: 10, height: 7 })).toBe('=');
    fillRegion(f, { x: 14, y: 5, width: 2, height: 2 }, BLACK);
    fillRegion(f, { x: 14, y: 20, width: 2, height: 2 }, BLACK);
    expect(at({ x: 10, y: 5, width: 10, height: 17 })).toBeNull(); // dot, bar, bar, dot: nothing known
  });
});
