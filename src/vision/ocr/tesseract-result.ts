/**
 * Turning a tesseract page into an OcrResult (pure; tesseract.js types only): boxes mapped back
 * to the input frame, and what the LSTM engine gets wrong on UI text put right with what the
 * cleaning (ink-clean.ts) measured on the ink:
 * - words split at the ink's word spaces ("7+" → "7 +");
 * - c, o, s, v, w, x, z given their case by their ink height ("on" → "On");
 * - an asterisk named by its shape (asterisks.ts: "12 *% 7" → "12 * 7");
 * - border remnants dropped (brackets and bars at the ends of a line, dots at the frame's edge).
 */
import type Tesseract from 'tesseract.js';
import type { Frame, Region } from '../../domain.ts';
import { containsPoint, inflateRegion, unionRegions } from '../frame.ts';
import type { OcrResult, TextBox } from '../types.ts';
import { SAME_SHAPE_LETTERS } from '../text-match.ts';
import { boxToFrame, frameToBox, type Prepared } from './preprocess.ts';

/** Words and lines of a tesseract page, boxes mapped back to the frame, border noise dropped. */
export function toResult(page: Tesseract.Page, prepared: Prepared, frame: Frame): OcrResult {
  const words: TextBox[] = [];
  const lines: TextBox[] = [];
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const kept: TextBox[] = [];
        for (const word of fixCase(
          line.words.map((w) => withAsterisks(partOf(w), prepared, frame)),
          prepared,
          frame,
        )) {
          for (const part of splitAtSpaces(word, prepared, frame)) {
            const text = part.text.trim();
            if (!text || /^[|¦]+$/.test(text)) continue;
            kept.push({ text, box: part.box, confidence: word.confidence });
          }
        }
        trimBorderNoise(kept, prepared, frame);
        if (kept.length === 0) continue;
        cutOverlaps(kept);
        words.push(...kept);
        const box = kept.map((w) => w.box).reduce(unionRegions);
        const confidence = kept.reduce((s, w) => s + w.confidence, 0) / kept.length;
        lines.push({ text: kept.map((w) => w.text).join(' '), box, confidence });
      }
    }
  }
  return { text: lines.map((l) => l.text).join('\n'), words, lines };
}

/**
 * A word of a line that reaches over the next word's start ends there, in place: the LSTM's
 * boxes are rough at their right ends ("12" of "12 *" reached over the "*"), their left edges the
 * reliable part. Two words mostly over each other are two reads of the same ink, left as they are.
 */
function cutOverlaps(words: TextBox[]): void {
  for (let i = 0; i + 1 < words.length; i++) {
    const { box } = words[i]!;
    const next = words[i + 1]!.box.x;
    if (next >= box.x + box.width / 2 && next < box.x + box.width) words[i] = { ...words[i]!, box: { ...box, width: next - box.x } };
  }
}

/** What OCR makes of a border: brackets and bars at the ends of a line, dots near the edge. */
const OPEN_NOISE = /^[[({|]+/;
const CLOSE_NOISE = /[\])}|]+$/;
const DOT_NOISE = /^[.,:;'"`|]+$/;

/**
 * Drops, in place, what is left of a border the cleaning missed: brackets and bars opening the
 * line's first word or closing its last, and words of dots alone, when they lie at the frame's
 * edge or beside erased ink.
 */
function trimBorderNoise(words: TextBox[], prepared: Prepared, frame: Frame): void {
  const erased = prepared.clean?.erased ?? [];
  const m = 2;
  const besideErased = (box: Region): boolean =>
    erased.some(
      (e) => box.x - m < e.x + e.width && e.x < box.x + box.width + m && box.y - m < e.y + e.height && e.y < box.y + box.height + m,
    );
  const atLeft = (box: Region): boolean => box.x <= m || besideErased(box);
  const atRight = (box: Region): boolean => box.x + box.width >= frame.width - m || besideErased(box);
  const atEdge = (box: Region): boolean => atLeft(box) || atRight(box) || box.y <= m || box.y + box.height >= frame.height - m;
  for (let i = words.length - 1; i >= 0; i--) if (DOT_NOISE.test(words[i]!.text) && atEdge(words[i]!.box)) words.splice(i, 1);
  const first = words[0];
  if (first && OPEN_NOISE.test(first.text) && atLeft(first.box)) words[0] = { ...first, text: first.text.replace(OPEN_NOISE, '') };
  const last = words[words.length - 1];
  if (last && CLOSE_NOISE.test(last.text) && atRight(last.box)) {
    words[words.length - 1] = { ...last, text: last.text.replace(CLOSE_NOISE, '') };
  }
  for (let i = words.length - 1; i >= 0; i--) if (words[i]!.text === '') words.splice(i, 1);
}

type Bbox = Tesseract.Bbox;

/** A word with its symbols; `symbols` is empty when they do not spell the word. */
interface WordPart {
  readonly text: string;
  readonly bbox: Bbox;
  readonly confidence: number;
  readonly symbols: readonly { readonly text: string; readonly bbox: Bbox }[];
}

function partOf(word: Tesseract.Word): WordPart {
  const symbols = (word.symbols ?? []).map((s) => ({ text: s.text, bbox: s.bbox }));
  const spelled = symbols.map((s) => s.text).join('') === word.text;
  return { text: word.text, bbox: word.bbox, confidence: word.confidence, symbols: spelled ? symbols : [] };
}

/**
 * The symbols of a word that lie on an asterisk cleaning found, whatever OCR made of it ("*%",
 * "+", "#"), as one "*" boxed as its ink. A symbol lies on it when its box's centre does (boxes
 * are rough: a symbol beside it may reach over it, never its centre).
 */
function withAsterisks(word: WordPart, prepared: Prepared, frame: Frame): WordPart {
  const stars = prepared.clean?.asterisks ?? [];
  if (stars.length === 0 || word.symbols.length === 0) return word;
  const starOf = (bbox: Bbox): Region | undefined => {
    const box = boxToFrame(bbox, prepared, frame);
    const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    return stars.find((s) => containsPoint(inflateRegion(s, 1), centre));
  };
  const symbols: WordPart['symbols'][number][] = [];
  let previous: Region | undefined;
  for (const symbol of word.symbols) {
    const star = starOf(symbol.bbox);
    if (star === undefined) symbols.push(symbol);
    else if (star !== previous) symbols.push({ text: '*', bbox: frameToBox(star, prepared) });
    previous = star;
  }
  const text = symbols.map((s) => s.text).join('');
  return text === word.text ? word : { ...word, text, symbols };
}

/**
 * A word split at the word spaces cleaning found in the ink (tesseract sometimes joins "7 +" into
 * "7+" in a single-line read): between two symbols when the space starts after the left one's
 * left edge and ends by the right one's left edge (symbol boxes are rough, their left edges the
 * most reliable part). Boxes in frame coordinates.
 */
function splitAtSpaces(word: WordPart, prepared: Prepared, frame: Frame): { text: string; box: Region }[] {
  const whole = [{ text: word.text, box: boxToFrame(word.bbox, prepared, frame) }];
  const spaces = prepared.clean?.spaces ?? [];
  if (word.symbols.length < 2 || spaces.length === 0) return whole;
  const box = whole[0]!.box;
  const inWord = spaces.filter((s) => s.x > box.x && s.x < box.x + box.width && s.y < box.y + box.height && box.y < s.y + s.height);
  if (inWord.length === 0) return whole;
  const boxes = word.symbols.map((s) => boxToFrame(s.bbox, prepared, frame));
  const parts: { text: string; box: Region }[] = [];
  let first = 0;
  for (let i = 1; i <= boxes.length; i++) {
    const split =
      i === boxes.length || inWord.some((s) => boxes[i - 1]!.x < s.x && boxes[i]!.x >= s.x + s.width - Math.max(2, s.width / 2));
    if (!split) continue;
    const run = boxes.slice(first, i);
    parts.push({
      text: word.symbols
        .slice(first, i)
        .map((s) => s.text)
        .join(''),
      box: run.reduce(unionRegions),
    });
    first = i;
  }
  return parts;
}

/** Letters whose capital is the small letter enlarged: OCR cannot tell their case by shape. */
const SAME_SHAPE = new Set(SAME_SHAPE_LETTERS);
/** Small letters of x-height with a capital of another shape: the line's x-height reference. */
const X_HEIGHT = new Set('aemnru');
/** Capitals, digits and ascending small letters: the line's capital-height reference. */
const TALL = /^[A-BD-NP-RT-UY0-9bdfhklt]$/;

/**
 * The case of c, o, s, v, w, x and z set by their height within the line, measured on the ink
 * (tesseract's symbol boxes are too rough for it): taller than the line's x-height letters
 * (1.2 ×) or nearly as tall as its capitals (0.85 ×) is upper case, else lower case ("On" is not
 * "on"). References come from the word's own letters, else from its line. A symbol is measured
 * only when exactly one ink component lies under it; letters are left alone without a reference.
 */
function fixCase(words: WordPart[], prepared: Prepared, frame: Frame): WordPart[] {
  const glyphs = prepared.clean?.glyphs ?? [];
  if (glyphs.length === 0) return words;
  // Centres of all symbols of the line: a component under two of them is letters touching
  // ("po" at 9 px), measured together: not one letter's height.
  const { scale, pad, origin } = prepared;
  const centres = words.flatMap((w) => w.symbols.map((s) => ((s.bbox.x0 + s.bbox.x1) / 2 - pad) / scale + origin.x));
  const inkHeight = (bbox: Bbox): number => {
    const box = boxToFrame(bbox, prepared, frame);
    const mid = box.x + box.width / 2;
    const under = glyphs.filter((g) => {
      const gx = g.x + g.width / 2;
      const overlapsY = g.y < box.y + box.height && box.y < g.y + g.height;
      return overlapsY && gx >= box.x && gx <= box.x + box.width && mid >= g.x && mid <= g.x + g.width;
    });
    if (under.length !== 1) return 0;
    const g = under[0]!;
    return centres.filter((x) => x >= g.x && x <= g.x + g.width).length <= 1 ? g.height : 0;
  };
  // The lower median: a letter touching its neighbour ("ry") measures taller, never shorter.
  const median = (v: number[]): number => {
    const known = v.filter((h) => h > 0).sort((a, b) => a - b);
    return known.length === 0 ? 0 : known[(known.length - 1) >> 1]!;
  };
  type Symbol = WordPart['symbols'][number];
  const references = (symbols: readonly Symbol[]): { x: number; cap: number } => ({
    x: median(symbols.filter((s) => X_HEIGHT.has(s.text)).map((s) => inkHeight(s.bbox))),
    cap: median(symbols.filter((s) => TALL.test(s.text)).map((s) => inkHeight(s.bbox))),
  });
  const symbols = words.flatMap((w) => w.symbols);
  if (!symbols.some((s) => SAME_SHAPE.has(s.text.toLowerCase()) || s.text === 'I')) return words;
  const line = references(symbols);
  const upper = (h: number, ref: { x: number; cap: number }): boolean | null => {
    if (h === 0) return null;
    if (ref.x > 0) return h >= 1.2 * ref.x ? true : h <= 1.1 * ref.x ? false : null;
    if (ref.cap > 0) return h >= 0.85 * ref.cap ? true : h <= 0.75 * ref.cap ? false : null;
    return null;
  };
  return words.map((word) => {
    // The word's own letters first: a line may mix sizes (a heading beside small text).
    const own = references(word.symbols);
    const ref = own.x > 0 || own.cap > 0 ? own : line;
    const w = ascenderEll(word, ref.x, inkHeight);
    if (!w.symbols.some((s) => SAME_SHAPE.has(s.text.toLowerCase()))) return w;
    if (ref.x === 0 && ref.cap === 0) return sameCase(w, inkHeight);
    let changed = false;
    const fixed = w.symbols.map((s) => {
      if (!SAME_SHAPE.has(s.text.toLowerCase())) return s;
      const up = upper(inkHeight(s.bbox), ref);
      const text = up === null ? s.text : up ? s.text.toUpperCase() : s.text.toLowerCase();
      if (text === s.text) return s;
      changed = true;
      return { ...s, text };
    });
    return changed ? { ...w, symbols: fixed, text: fixed.map((s) => s.text).join('') } : w;
  });
}

/**
 * A word of c, o, s, v, w, x, z only and no reference ("Cos" on a key): letters of one height
 * share one case, the one most of them were read in ("cos").
 */
function sameCase(word: WordPart, inkHeight: (bbox: Tesseract.Bbox) => number): WordPart {
  const letters = word.symbols.filter((s) => SAME_SHAPE.has(s.text.toLowerCase()));
  if (letters.length < 2 || letters.length !== word.symbols.length) return word;
  const heights = letters.map((s) => inkHeight(s.bbox));
  if (heights.some((h) => h === 0) || Math.max(...heights) - Math.min(...heights) > 1) return word;
  const upper = letters.filter((s) => s.text !== s.text.toLowerCase()).length;
  const text = upper * 2 > letters.length ? word.text.toUpperCase() : word.text.toLowerCase();
  return text === word.text
    ? word
    : {
        ...word,
        text,
        symbols: word.symbols.map((s) => ({ ...s, text: upper * 2 > letters.length ? s.text.toUpperCase() : s.text.toLowerCase() })),
      };
}

/**
 * "I" before a small letter that stands as tall as an ascender — 1.5 x-heights and 3 px over
 * one, where a capital I of a sans font stands 1.3 — is an "l" ("In" on galculator's "ln" key).
 */
function ascenderEll(word: WordPart, xHeight: number, inkHeight: (bbox: Tesseract.Bbox) => number): WordPart {
  if (xHeight === 0 || !word.symbols.some((s) => s.text === 'I')) return word;
  const symbols = word.symbols.map((s, i) => {
    const next = word.symbols[i + 1]?.text ?? '';
    if (s.text !== 'I' || !/^\p{Ll}$/u.test(next)) return s;
    const h = inkHeight(s.bbox);
    return h >= Math.max(1.5 * xHeight, xHeight + 3) ? { ...s, text: 'l' } : s;
  });
  return symbols.every((s, i) => s === word.symbols[i]) ? word : { ...word, symbols, text: symbols.map((s) => s.text).join('') };
}
