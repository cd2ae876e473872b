/**
 * Reading X's "fixed" font (6×13) by its cells, without OCR (pure). It is the core font of every
 * X server — xterm's default, and what Athena apps such as xcalc draw with on a bare Xvfb — and
 * the LSTM model reads it badly: its 9-pixel capitals, the period that is a plus reaching below
 * the baseline, the tilde at cap height and the 1-pixel strokes are far from the fonts it was
 * trained on ("user@retrace:~$" comes out as "userfretrace:™$").
 *
 * The font is not anti-aliased and every glyph fits its 6×13 cell, so a word of it can be read
 * exactly: for each band of ink rows (lines of this font never touch: no glyph uses a cell's
 * top row) and each word in it (runs of columns split at 6 or more empty columns, which only a
 * space makes), try each of the 13 × 6 placements of the cell grid, look each cell up in the
 * glyph table, and keep the placement that explains every cell. A band is taken only when every
 * word in it reads so (a cursor block aside); anything else — anti-aliased text, another font,
 * an icon — is left to OCR.
 */
import type { Region } from '../../domain.ts';
import type { GrayImage } from '../types.ts';
import { FIXED_CELL, FIXED_GLYPHS } from './fixed-font-glyphs.ts';

/** A word read from the cells, box in the image's coordinates. */
export interface FixedWord {
  readonly text: string;
  readonly box: Region;
}

/** A line read from the cells: its band of rows and its words, left to right. */
export interface FixedLine {
  readonly band: Region;
  readonly words: readonly FixedWord[];
}

const W = FIXED_CELL.width;
const H = FIXED_CELL.height;
/** Pixels darker than this are ink (the image is dark ink on a white ground). */
const INK = 128;
/** A row of 6 set pixels: an inverted cell (xterm's block cursor) is the glyph XOR this. */
const FULL_ROW = (1 << W) - 1;

/** Cell content (13 rows of 6 bits, as a string key) → character. */
const BY_CELL = new Map<string, string>(FIXED_GLYPHS.map((hex, i) => [cellKey(hexRows(hex)), String.fromCharCode(32 + i)]));
const ROWS = FIXED_GLYPHS.map(hexRows);

function hexRows(hex: string): number[] {
  const rows: number[] = [];
  for (let i = 0; i < hex.length; i += 2) rows.push(parseInt(hex.slice(i, i + 2), 16));
  return rows;
}

function cellKey(rows: readonly number[]): string {
  return String.fromCharCode(...rows.map((r) => 48 + r));
}

/**
 * The lines of `gray` (dark ink on a white ground, as preprocess.ts makes it) written in the
 * fixed font, top to bottom. Other ink is not touched.
 */
export function readFixedFont(gray: GrayImage): FixedLine[] {
  const { width, height, data } = gray;
  const rowHasInk = new Uint8Array(height);
  for (let y = 0; y < height; y++) {
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (data[i]! < INK) {
        rowHasInk[y] = 1;
        break;
      }
    }
  }
  const lines: FixedLine[] = [];
  for (let y = 0; y < height; ) {
    if (rowHasInk[y] === 0) {
      y++;
      continue;
    }
    const top = y;
    while (y < height && rowHasInk[y] === 1) y++;
    lines.push(...readBands(gray, top, y - top));
  }
  return lines;
}

/**
 * The lines of a band of ink rows: one line when it is at most a cell tall; two when it is at
 * most two cells tall and splits into two that read (xterm's cursor block fills its cell and
 * touches the line below); none otherwise.
 */
function readBands(gray: GrayImage, top: number, rows: number): FixedLine[] {
  if (rows <= H) {
    const line = readBand(gray, top, rows);
    return line ? [line] : [];
  }
  if (rows > 2 * H) return [];
  for (let cut = rows - H; cut <= H; cut++) {
    const upper = readBand(gray, top, cut);
    const lower = upper && readBand(gray, top + cut, rows - cut);
    if (upper && lower) return [upper, lower];
  }
  return [];
}

function readBand(gray: GrayImage, top: number, rows: number): FixedLine | null {
  const { width, data } = gray;
  // The font is drawn without anti-aliasing: grey pixels mean another font.
  let ink = 0;
  let grey = 0;
  const used = new Uint8Array(width);
  for (let y = top; y < top + rows; y++) {
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const v = data[i]!;
      if (v < INK) {
        ink++;
        used[x] = 1;
      }
      if (v >= 48 && v <= 207) grey++;
    }
  }
  if (ink === 0 || grey > 0.05 * ink) return null;
  const runs: Placement[][] = [];
  let x = 0;
  while (x < width) {
    if (used[x] === 0) {
      x++;
      continue;
    }
    const start = x;
    let end = x;
    for (let gap = 0; x < width && gap < W; x++) {
      if (used[x] === 1) {
        end = x;
        gap = 0;
      } else gap++;
    }
    const placements = readRun(gray, start, end, top, rows);
    if (placements.length === 0) return null;
    runs.push(placements);
  }
  // One cell grid row for the line: the placement the unambiguous runs agree on. A run that
  // reads under several ("-" and "_" are the same bar at other heights) takes that row, else
  // the placement that centres its ink in the cell.
  const agreed = runs.find((r) => r.length === 1)?.[0]?.cellTop;
  const centre = top + rows / 2;
  const offCentre = (p: Placement): number => Math.abs(p.cellTop + H / 2 - centre);
  const words = runs.flatMap(
    (r) => (r.find((p) => p.cellTop === agreed) ?? r.reduce((a, b) => (offCentre(b) < offCentre(a) ? b : a))).words,
  );
  if (words.length === 0) return { band: { x: 0, y: top, width, height: rows }, words }; // a cursor alone
  const x0 = words[0]!.box.x;
  const last = words[words.length - 1]!.box;
  return { band: { x: x0, y: top, width: last.x + last.width - x0, height: rows }, words };
}

/** A placement of the cell grid under which a run of ink reads, and the words it spells. */
interface Placement {
  readonly cellTop: number;
  readonly words: readonly FixedWord[];
}

/**
 * The placements of the cell grid under which every cell of the run of ink spanning columns
 * start..end of the band is a glyph of the font, each with the words it spells; none when the
 * ink is not this font. A cell drawn inverted is xterm's block cursor over that glyph (a solid
 * block: over a space), so a run may spell no word at all, or words split where the cursor
 * stands on a space.
 */
function readRun(gray: GrayImage, start: number, end: number, bandTop: number, rows: number): Placement[] {
  const out: Placement[] = [];
  for (let cellTop = bandTop + rows - H; cellTop <= bandTop; cellTop++) {
    for (let phase = 0; phase < W; phase++) {
      const first = start - ((((start - phase) % W) + W) % W);
      let text = '';
      for (let cx = first; cx <= end; cx += W) {
        const cell = cellRows(gray, cx, cellTop);
        const ch = BY_CELL.get(cellKey(cell)) ?? BY_CELL.get(cellKey(cell.map((r) => r ^ FULL_ROW)));
        if (ch === undefined) {
          text = '';
          break;
        }
        text += ch;
      }
      if (text === '' || out.some((p) => p.cellTop === cellTop)) continue;
      const words = [...text.matchAll(/\S+/g)].map((m) => ({
        text: m[0],
        box: { x: first + m.index * W, y: cellTop, width: m[0].length * W, height: H },
      }));
      out.push({ cellTop, words });
    }
  }
  return out;
}

/** The 13 rows of 6 bits of the cell at (x, y); pixels outside the image are ground. */
function cellRows(gray: GrayImage, x: number, y: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < H; r++) {
    let bits = 0;
    const yy = y + r;
    for (let c = 0; c < W; c++) {
      const xx = x + c;
      const inside = yy >= 0 && yy < gray.height && xx >= 0 && xx < gray.width;
      bits = (bits << 1) | (inside && gray.data[yy * gray.width + xx]! < INK ? 1 : 0);
    }
    out.push(bits);
  }
  return out;
}

/** Rows of a glyph, for tests: the cell of `char` as drawn. */
export function fixedGlyphRows(char: string): readonly number[] {
  const rows = ROWS[char.charCodeAt(0) - 32];
  if (!rows || char.length !== 1) throw new RangeError(`not a printable ASCII character: ${JSON.stringify(char)}`);
  return rows;
}
