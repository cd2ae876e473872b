/**
 * A window read where text can be (issue 28.3): the runs of text-like labels (text-regions.ts)
 * packed into two small images, read in parallel by the reader's workers, the words mapped back
 * to the frame and regrouped into lines. Flat panels, images and borders are never read, and a
 * label shown several times is read once.
 *
 * What it reads is real OCR of the frame's own pixels, so a text it finds is on screen; it may
 * miss text segmentation does not take for labels (light text on a coloured bar, a line cut by
 * the window's edge). So it is evidence only one way: a `text:` it finds holds, an `absent:` it
 * finds fails; "not found" is decided by the full read (readAll of find-text.ts).
 *
 * The whole frame is read as a page instead when nothing on it looks like text (a blank window
 * costs nothing to read, and the page read is the judge of "nothing"), or when its text runs
 * cover so much of it that packing saves nothing.
 */
import type { Frame, Region } from '../../domain.ts';
import { clampRegion, crop, offsetRegion, regionArea, unionRegions } from '../frame.ts';
import { segmentDetailed } from '../segment.ts';
import type { OcrResult, TextBox, TextReader } from '../types.ts';
import { composePacked, packRegions, textRegions, wordsToFrame } from './text-regions.ts';

/** Packed images read at once: one a worker of the default reader. */
const PARTS = 2;

/** Runs covering more than this share of the frame are read as a page. */
const DENSE = 0.6;

/** The text of `frame` (or of `region` of it: boxes stay in frame coordinates) read in the places text can be. */
export async function readTextRegions(reader: TextReader, frame: Frame, region?: Region): Promise<OcrResult> {
  if (region) {
    const box = clampRegion(region, frame);
    return moveResult(await readTextRegions(reader, crop(frame, box)), box);
  }
  const regions = textRegions(frame, segmentDetailed(frame));
  const covered = regions.reduce((s, r) => s + regionArea(r.box), 0);
  if (regions.length === 0 || covered > DENSE * regionArea({ x: 0, y: 0, width: frame.width, height: frame.height })) {
    return reader.read(frame);
  }
  const packings = packRegions(frame, regions, PARTS);
  const reads = await Promise.all(packings.map((p) => reader.read(composePacked(frame, p), { sparse: true })));
  const words = reads.flatMap((read, i) => wordsToFrame(read.words, packings[i]!));
  const lines = groupLines(words);
  return { text: lines.map((l) => l.text).join('\n'), words, lines };
}

/** Words regrouped into lines: vertical overlap of half the smaller height, sorted by x. */
export function groupLines(words: readonly TextBox[]): TextBox[] {
  const sorted = [...words].sort((a, b) => a.box.y + a.box.height / 2 - (b.box.y + b.box.height / 2));
  const rows: TextBox[][] = [];
  for (const w of sorted) {
    const row = rows.find((r) =>
      r.some((o) => {
        const overlap = Math.min(o.box.y + o.box.height, w.box.y + w.box.height) - Math.max(o.box.y, w.box.y);
        return overlap >= 0.5 * Math.min(o.box.height, w.box.height);
      }),
    );
    if (row) row.push(w);
    else rows.push([w]);
  }
  return rows
    .map((r) => r.sort((a, b) => a.box.x - b.box.x))
    .sort((a, b) => a[0]!.box.y - b[0]!.box.y)
    .map((r) => ({
      text: r.map((w) => w.text).join(' '),
      box: r.slice(1).reduce((acc: Region, w) => unionRegions(acc, w.box), r[0]!.box),
      confidence: r.reduce((s, w) => s + w.confidence, 0) / r.length,
    }));
}

/** An OCR result of a crop at `at`, in frame coordinates. */
export function moveResult(result: OcrResult, at: Region): OcrResult {
  const move = (t: TextBox): TextBox => ({ ...t, box: offsetRegion(t.box, at.x, at.y) });
  return { text: result.text, words: result.words.map(move), lines: result.lines.map(move) };
}
