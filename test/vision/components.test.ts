/** labelComponents on small drawn masks, and against a plain union-find on random ones. */
import { describe, expect, it } from 'vitest';
import { labelComponents, type ComponentBox } from '../../src/vision/components.ts';
import { random } from './helpers.ts';

/** A mask from rows of '#' (set) and '.' (clear). */
function mask(...rows: string[]): { mask: Uint8Array; w: number; h: number } {
  const w = rows[0]?.length ?? 0;
  const m = new Uint8Array(w * rows.length);
  rows.forEach((row, y) => [...row].forEach((ch, x) => (m[y * w + x] = ch === '#' ? 1 : 0)));
  return { mask: m, w, h: rows.length };
}

/** Components by union-find over every pair of set 8-neighbours: slow and plain, for reference. */
function reference(m: Uint8Array, w: number, h: number): { labels: number[]; boxes: ComponentBox[] } {
  const parent = Array.from(m, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!m[y * w + x]) continue;
      for (const [dx, dy] of [
        [1, 0],
        [-1, 1],
        [0, 1],
        [1, 1],
      ] as const) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx < 0 || xx >= w || yy >= h || !m[yy * w + xx]) continue;
        parent[find(yy * w + xx)] = find(y * w + x);
      }
    }
  }
  const idOfRoot = new Map<number, number>();
  const boxes: ComponentBox[] = [];
  const labels = Array.from(m, (v, i) => {
    if (!v) return 0;
    const x = i % w;
    const y = Math.floor(i / w);
    const id = idOfRoot.get(find(i));
    if (id === undefined) {
      boxes.push({ x0: x, y0: y, x1: x, y1: y, n: 1 });
      idOfRoot.set(find(i), boxes.length);
      return boxes.length;
    }
    const b = boxes[id - 1]!;
    Object.assign(b, { x0: Math.min(b.x0, x), x1: Math.max(b.x1, x), y1: y, n: b.n + 1 });
    return id;
  });
  return { labels, boxes };
}

describe('labelComponents', () => {
  it('joins pixels touching at a corner and boxes each component with its pixel count', () => {
    const {
      mask: m,
      w,
      h,
    } = mask(
      '#.....', //
      '.#..##',
      '..#.#.',
      '......',
    );
    const { boxes, labels } = labelComponents(m, w, h);
    expect(boxes).toEqual([
      { x0: 0, y0: 0, x1: 2, y1: 2, n: 3 },
      { x0: 4, y0: 1, x1: 5, y1: 2, n: 3 },
    ]);
    expect(Array.from(labels)).toEqual([
      1,
      0,
      0,
      0,
      0,
      0, //
      0,
      1,
      0,
      0,
      2,
      2,
      0,
      0,
      1,
      0,
      2,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
    ]);
  });

  it('numbers components in the row-major order of their first pixel', () => {
    const {
      mask: m,
      w,
      h,
    } = mask(
      '...#', //
      '#..#',
      '#...',
    );
    expect(labelComponents(m, w, h).boxes.map((b) => [b.x0, b.y0])).toEqual([
      [3, 0],
      [0, 1],
    ]);
  });

  it('does not join the end of a row to the start of the next', () => {
    const {
      mask: m,
      w,
      h,
    } = mask(
      '...#', //
      '#...',
      '...#',
      '#...',
    );
    expect(labelComponents(m, w, h).boxes).toHaveLength(4);
  });

  it('counts any non-zero value as set and leaves the mask as it was', () => {
    const m = Uint8Array.from([0, 7, 255, 0, 0, 1]);
    const before = m.slice();
    expect(labelComponents(m, 3, 2).boxes).toEqual([{ x0: 1, y0: 0, x1: 2, y1: 1, n: 3 }]);
    expect(m).toEqual(before);
  });

  it('handles empty and one-pixel-wide grids, and refuses a mask of the wrong size', () => {
    expect(labelComponents(new Uint8Array(0), 0, 0)).toEqual({ labels: new Int32Array(0), boxes: [] });
    expect(labelComponents(Uint8Array.from([1, 1, 0, 1]), 1, 4).boxes).toEqual([
      { x0: 0, y0: 0, x1: 0, y1: 1, n: 2 },
      { x0: 0, y0: 3, x1: 0, y1: 3, n: 1 },
    ]);
    expect(labelComponents(Uint8Array.from([1, 0, 1]), 3, 1).boxes).toHaveLength(2);
    expect(() => labelComponents(new Uint8Array(5), 2, 3)).toThrow(RangeError);
  });

  it('fills shapes that turn back on themselves: combs, a spiral', () => {
    for (const [count, rows] of [
      [2, ['#######', '#.#.#.#', '#.#.#.#', '#...#..', '.......', '.#.#.#.', '.#####.']],
      [1, ['#######', '......#', '####..#', '#..#..#', '#.##..#', '#.....#', '#######']],
    ] as const) {
      const { mask: m, w, h } = mask(...rows);
      const { boxes, labels } = labelComponents(m, w, h);
      expect(boxes).toHaveLength(count);
      expect({ labels: Array.from(labels), boxes }).toEqual(reference(m, w, h));
    }
  });

  it('agrees with a plain union-find on random masks', () => {
    const next = random(11);
    for (let t = 0; t < 300; t++) {
      const w = 1 + Math.floor(next() * 40);
      const h = 1 + Math.floor(next() * 40);
      const density = next();
      const m = Uint8Array.from({ length: w * h }, () => (next() < density ? 1 : 0));
      const { boxes, labels } = labelComponents(m, w, h);
      expect({ labels: Array.from(labels), boxes }).toEqual(reference(m, w, h));
    }
  });
});
