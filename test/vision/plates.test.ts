/** invertPlates on drawn gray images: light text on a dark bar becomes dark text on white. */
import { describe, expect, it } from 'vitest';
import { labelComponents } from '../../src/vision/components.ts';
import { invertPlates as invertLabelled } from '../../src/vision/ocr/plates.ts';
import type { GrayImage } from '../../src/vision/types.ts';

function image(width: number, height: number, draw: (x: number, y: number) => number): GrayImage {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = draw(x, y);
  return { width, height, data };
}

/** invertPlates on the ink components as ink cleaning labels them (darker than 200). */
function invertPlates(img: GrayImage): ReturnType<typeof invertLabelled> {
  const { labels, boxes } = labelComponents(
    img.data.map((v) => (v < 200 ? 1 : 0)),
    img.width,
    img.height,
  );
  return invertLabelled(img, labels, boxes);
}

const inBox = (x: number, y: number, x0: number, y0: number, w: number, h: number): boolean =>
  x >= x0 && x < x0 + w && y >= y0 && y < y0 + h;

describe('invertPlates', () => {
  it('turns a dark bar with light letters into dark letters on the ground', () => {
    // A bar (level 80) at 10,10 of 100×16; two white "letters" inside it; dark text beside it.
    const img = image(140, 40, (x, y) => {
      if (inBox(x, y, 20, 13, 4, 9) || inBox(x, y, 30, 13, 4, 9)) return 255;
      if (inBox(x, y, 10, 10, 100, 16)) return 80;
      if (inBox(x, y, 120, 13, 4, 9)) return 0;
      return 255;
    });
    expect(invertPlates(img)).toEqual([{ x: 10, y: 10, width: 100, height: 16 }]);
    const at = (x: number, y: number): number => img.data[y * img.width + x]!;
    expect(at(21, 15)).toBe(0); // a letter: now ink
    expect(at(50, 15)).toBe(255); // the bar: now ground
    expect(at(121, 15)).toBe(0); // text outside the bar: untouched
  });

  it('leaves dark shapes that are no plates: a key-sized block, a thin bar, a big glyph', () => {
    const img = image(120, 60, (x, y) => (inBox(x, y, 5, 5, 20, 20) || inBox(x, y, 30, 5, 80, 4) || inBox(x, y, 5, 30, 12, 24) ? 0 : 255));
    const before = img.data.slice();
    expect(invertPlates(img)).toEqual([]);
    expect(img.data).toEqual(before);
  });
});
