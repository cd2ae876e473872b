/**
 * A hover look, seen in pixels alone: a control recoloured around the pointer. Where an app
 * publishes no elements (Tk), the pointer coming to a control lights it whole — its background
 * and label take other colours — and that is the pointer's doing. What the action did to the
 * control (a check mark, a radio's dot) is what no recolouring explains.
 */
import type { Frame, Point, Region } from '../domain.ts';
import { changedRegions } from './changes.ts';
import { clampRegion, containsPoint, crop, offsetRegion } from './frame.ts';

/**
 * The change from `before` to `after` around `point` no larger than `max`: the control the
 * pointer lit there, or undefined where none is (nothing changed there, or more than a control).
 */
export function litControl(
  before: Frame,
  after: Frame,
  point: Point,
  max: { readonly width: number; readonly height: number },
  options: { readonly ignore: readonly Region[]; readonly minPixels: number },
): Region | undefined {
  const lit = changedRegions(before, after, options).find((c) => containsPoint(c, point) && c.width <= max.width && c.height <= max.height);
  return lit && { x: lit.x, y: lit.y, width: lit.width, height: lit.height };
}

const rgb = (data: Uint8Array, i: number): number => (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;

/**
 * What a recolouring of `region` does not explain: each colour it had before takes, after, the
 * colour most of its pixels took (anti-aliased text keeps its blend, so each level maps on its
 * own); the boxes around the pixels that took another (a check mark drawn on the box's white,
 * whose other pixels stayed white). Undefined when the region was not recoloured — its most
 * common colour, its background, kept its colour — or when the recolouring explains it all:
 * then there is no look to set apart, or nothing beside it.
 */
export function marksBeyondRecolouring(before: Frame, after: Frame, region: Region, minPixels: number): Region[] | undefined {
  const r = clampRegion(region, after.width, after.height);
  if (r.width <= 0 || r.height <= 0) return undefined;
  const [was, now] = [crop(before, r), crop(after, r)];
  const taken = new Map<number, Map<number, number>>();
  for (let i = 0; i < was.data.length; i += 4) {
    const from = rgb(was.data, i);
    const to = rgb(now.data, i);
    const counts = taken.get(from) ?? new Map<number, number>();
    counts.set(to, (counts.get(to) ?? 0) + 1);
    taken.set(from, counts);
  }
  const most = (counts: Map<number, number>): [number, number] => [...counts].reduce((a, b) => (b[1] > a[1] ? b : a));
  const mapped = new Map([...taken].map(([from, counts]) => [from, most(counts)[0]]));
  const [background] = [...taken]
    .map(([from, counts]) => [from, [...counts.values()].reduce((a, b) => a + b, 0)] as const)
    .reduce((a, b) => (b[1] > a[1] ? b : a));
  if (mapped.get(background) === background) return undefined;
  const expected = new Uint8Array(was.data);
  for (let i = 0; i < expected.length; i += 4) {
    const to = mapped.get(rgb(was.data, i))!;
    expected[i] = (to >> 16) & 255;
    expected[i + 1] = (to >> 8) & 255;
    expected[i + 2] = to & 255;
  }
  const marks = changedRegions({ ...was, data: expected }, now, { minPixels });
  return marks.length > 0 ? marks.map((m) => offsetRegion({ x: m.x, y: m.y, width: m.width, height: m.height }, r.x, r.y)) : undefined;
}
