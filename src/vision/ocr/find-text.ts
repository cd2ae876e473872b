/**
 * Finding a text on screen, and reading all of it.
 *
 * `findText` runs two passes:
 * 1. The whole frame, read once as a page: words and runs of words of each line are compared
 *    with the target (case-insensitive, look-alike symbols folded, fuzzy within a tolerance).
 * 2. Label by label (see label-reads.ts), for short targets — a whole-page pass misses most
 *    single-character keys — or when pass 1 found nothing. For 1–2 character targets only labels
 *    narrow enough to hold them are read, in `char` layout for a single glyph, with a whitelist of
 *    printable ASCII (so OCR answers "-" rather than "—" or "¢"). Label reads are cached by
 *    content, so this pass is cheap on a screen seen before.
 * For a target of up to 3 characters the label pass runs first, and the page pass only when no
 * label matched with a score of 0.9 or more. Hits of both passes are merged (overlapping hits
 * keep the better) and sorted best first.
 *
 * Matching: both sides get NFKC, whitespace folding, lower case and the symbol folding of
 * text-match.ts (× → *, ÷ → /, − → -); a read "x" or "X" also stands for "*". Words lose
 * punctuation at their ends ("Settings:" reads as "settings"). A target of up to 3 characters
 * must match exactly; a longer one tolerates max(1, floor(length / 5)) edits.
 * Score = similarity (1 − edits / length) × (0.6 + 0.4 × OCR confidence), 0..1.
 */
import type { Frame, Region } from '../../domain.ts';
import { crop, clampRegion, inflateRegion, offsetRegion, regionArea, intersectRegions, unionRegions } from '../frame.ts';
import { segmentDetailed } from '../segment.ts';
import { classifySymbol } from '../symbols.ts';
import { canonicalSymbols, bestWindow } from '../text-match.ts';
import { editDistance, fuzzyTolerance } from '../../edit-distance.ts';
import type { OcrResult, TextBox, TextReader } from '../types.ts';
import { labelCandidates, readLabel, type LabelCandidate, type ReadCache } from './label-reads.ts';
import { groupLines, moveResult } from './region-read.ts';

export interface FindTextOptions {
  /** Look only inside this region (frame coordinates; hits are still in frame coordinates). */
  readonly region?: Region;
  /** Edits tolerated. @default 0 for targets of up to 3 characters, else max(1, floor(length / 5)) */
  readonly maxDistance?: number;
  /**
   * The label-by-label pass: 'auto' runs it for targets of up to 3 characters (first), or when
   * the whole-frame pass found nothing; 'always' runs both passes; 'never' only the page pass.
   * @default 'auto'
   */
  readonly labels?: 'auto' | 'always' | 'never';
  /** Hits scoring lower are dropped, 0..1. @default 0.5 */
  readonly minScore?: number;
  /** Memo of label reads; null for none. @default the reader's own cache */
  readonly cache?: ReadCache | null;
}

export interface TextHit {
  /** Where the text is, frame coordinates. */
  readonly box: Region;
  /** 0..1, see the module comment. */
  readonly score: number;
  /** What OCR read there. */
  readonly read: string;
  /** Which pass found it. */
  readonly source: 'frame' | 'label';
  /** The control holding the label (label pass only). */
  readonly control?: Region;
}

/** Score factor of a hit for a one-letter target read in the other case. */
const CASE_MISMATCH = 0.9;

/** A label-pass hit this good makes the page pass unnecessary for a short target. */
const SURE = 0.9;

/** Printable ASCII without the characters OCR invents from borders and lines. */
const SHORT_WHITELIST = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))
  .filter((c) => !'|`~_'.includes(c))
  .join('');

/** Finds `text` on `frame`; best hits first, an empty list when it is not there. */
export async function findText(reader: TextReader, frame: Frame, text: string, options: FindTextOptions = {}): Promise<TextHit[]> {
  const target = matchKey(text);
  if (target === '') return [];
  if (options.region) {
    const region = clampRegion(options.region, frame);
    const hits = await findText(reader, crop(frame, region), text, { ...options, region: undefined });
    return hits.map((h) => ({
      ...h,
      box: offsetRegion(h.box, region.x, region.y),
      ...(h.control ? { control: offsetRegion(h.control, region.x, region.y) } : {}),
    }));
  }
  const length = target.replace(/ /g, '').length;
  const maxDistance = options.maxDistance ?? (length <= 3 ? 0 : fuzzyTolerance(length));
  const minScore = options.minScore ?? 0.5;
  const mode = options.labels ?? 'auto';

  const hits: TextHit[] = [];
  const labelPass = async (): Promise<void> => {
    const controls = segmentDetailed(frame);
    for (const candidate of labelCandidates(frame, 30, controls).filter((c) => fits(c, length))) {
      const single = length === 1 && isSingleGlyph(candidate);
      const read = await readLabel(
        reader,
        frame,
        candidate,
        { layout: single ? 'char' : 'line', ...(length <= 2 ? { whitelist: SHORT_WHITELIST } : {}) },
        options.cache,
      );
      hits.push(...matchLabel(read.words, read.text, candidate, target, maxDistance));
    }
  };
  const pagePass = async (): Promise<void> => {
    const page = await reader.read(frame);
    for (const line of linesOf(page)) hits.push(...matchWords(line, target, maxDistance, 'frame'));
  };
  const found = (): boolean => hits.some((h) => h.score >= Math.max(minScore, SURE));
  const short = length <= 3;
  if (mode === 'never') await pagePass();
  else if (mode === 'always') {
    await labelPass();
    await pagePass();
  } else if (short) {
    // Short targets: labels first (cached, cheap); the page only when no label is a sure match.
    await labelPass();
    if (!found()) await pagePass();
  } else {
    await pagePass();
    if (!hits.some((h) => h.score >= minScore)) await labelPass();
  }
  // A one-letter target is a key's label: "e" and "E" are different keys (xcalc has both).
  const cased = /^\p{L}$/u.test(text.trim())
    ? hits.map((h) => (singleLetter(h.read.trim()) === text.trim() ? h : { ...h, score: h.score * CASE_MISMATCH }))
    : hits;
  return dedupe(cased.filter((h) => h.score >= minScore));
}

export interface ReadAllOptions {
  /** Read only this region (frame coordinates; boxes are still in frame coordinates). @default the whole frame */
  readonly region?: Region;
  /**
   * Add label-by-label reads of segmented labels the page read did not cover (at least 40 % of
   * their box), kept when OCR is at least 50 % confident, and name the symbols the shape
   * classifier knows (symbols.ts) in place of what the page read made of them. @default true
   */
  readonly complete?: boolean;
  /** Memo of label reads; null for none. @default the reader's own cache */
  readonly cache?: ReadCache | null;
}

/**
 * Everything readable on the frame (or in `region`): the page read, plus — unless `complete` is
 * false — reads of the labels the page read missed (keys and other isolated short labels).
 * Labels are segmented on the whole frame, so a region's labels keep their context (the
 * frame's text height, the control they sit in: a "." key read alone is still a full stop);
 * those lying inside the region are read. Words are regrouped into lines, top to bottom, left
 * to right.
 */
export async function readAll(reader: TextReader, frame: Frame, options: ReadAllOptions = {}): Promise<OcrResult> {
  const region = options.region ? clampRegion(options.region, frame) : null;
  const page = region ? moveResult(await reader.read(crop(frame, region)), region) : await reader.read(frame);
  if (options.complete === false) return page;
  const words: TextBox[] = [...page.words];
  const candidates = labelCandidates(frame).filter((c) => !region || contains(region, c.label));
  for (const candidate of candidates) {
    let common = 0;
    const inside: TextBox[] = [];
    for (const w of page.words) {
      const part = intersectRegions(w.box, candidate.label);
      if (!part) continue;
      common += regionArea(part);
      inside.push(w);
    }
    const symbol = classifySymbol(frame, candidate.label, candidate.textHeight);
    if (symbol !== null) {
      // The shape classifier beats what the page read made of "=", "÷" or "." ("—", "+", "").
      if (inside.some((w) => matchKey(w.text) === matchKey(symbol))) continue;
      const around = inflateRegion(candidate.label, 2);
      for (const w of inside) {
        const part = intersectRegions(w.box, around);
        const at = words.indexOf(w);
        if (part && at >= 0 && regionArea(part) >= 0.5 * regionArea(w.box)) words.splice(at, 1);
      }
    }
    const single = isSingleGlyph(candidate);
    const covered = common >= 0.4 * regionArea(candidate.label);
    if (symbol === null && covered && !single && inside.every((w) => w.confidence >= DOUBTFUL)) continue;
    const read = await readLabel(reader, frame, candidate, { layout: 'line' }, options.cache);
    const text = single ? singleLetter(read.text) : read.text;
    // A label boxed with its frame (a badge) is larger than its words: the page may have read it.
    const same = inside.length > 0 && matchKey(inside.map((w) => w.text).join(' ')) === matchKey(text);
    if (!text || (same && !read.symbol) || read.confidence < minConfidence(text, single)) continue;
    if (symbol === null) {
      // The page read this label with doubt (a key in a grid, small text beside a border), or
      // it is a single glyph, which a page read often makes another letter of: the surer of
      // the two reads stays.
      // A page word of several characters on a single glyph, read with doubt, never wins
      // ("Cc" on the "C" key).
      const rivals = inside.filter((w) => overlapsMostly(w.box, candidate.label));
      const wins = (w: TextBox): boolean => w.confidence >= read.confidence && !(single && w.text.length > 1 && w.confidence < DOUBTFUL);
      if (covered && rivals.some(wins)) continue;
      for (const w of rivals) {
        const at = words.indexOf(w);
        if (at >= 0 && !wins(w)) words.splice(at, 1);
      }
    }
    words.push({ text, box: candidate.label, confidence: read.confidence });
  }
  const lines = groupLines(words);
  return { text: lines.map((l) => l.text).join('\n'), words, lines };
}

/**
 * The confidence a label read needs to be kept: 50 %, or 40 % for a lone c, o, s, v, w, x or z,
 * whose case OCR cannot tell by shape and so scores half as sure ("C" alone: 46 %).
 */
const minConfidence = (text: string, single: boolean): number => (single && /^[cosvwxz]$/i.test(text) ? 40 : 50);

/** Page words less confident than this are read again label by label (see readAll). */
const DOUBTFUL = 80;

/** Half or more of the smaller of the two boxes lies in the other (a margin of 2 px around `b`). */
const overlapsMostly = (a: Region, b: Region): boolean => {
  const part = intersectRegions(a, inflateRegion(b, 2));
  return part !== null && regionArea(part) >= 0.5 * Math.min(regionArea(a), regionArea(b));
};

/** `inner` lies inside `outer`, give or take a pixel. */
const contains = (outer: Region, inner: Region): boolean =>
  inner.x >= outer.x - 1 &&
  inner.y >= outer.y - 1 &&
  inner.x + inner.width <= outer.x + outer.width + 1 &&
  inner.y + inner.height <= outer.y + outer.height + 1;

/** The text of the frame (or of `region`), lines separated by "\n"; see readAll. */
export async function readText(
  reader: TextReader,
  frame: Frame,
  region?: Region,
  options: Omit<ReadAllOptions, 'region'> = {},
): Promise<string> {
  return (await readAll(reader, frame, { ...options, ...(region ? { region } : {}) })).text;
}

// ---- matching --------------------------------------------------------------------------

/** NFKC, symbols folded, lower case, whitespace folded. */
export function matchKey(text: string): string {
  return canonicalSymbols(text.normalize('NFKC')).toLowerCase().replace(/\s+/g, ' ').trim();
}

/** A word's key without punctuation at its ends (kept when the word is only punctuation). */
function wordKey(text: string, target: string): string {
  let key = matchKey(text);
  const stripped = key.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  if (stripped !== '' && /[\p{L}\p{N}]/u.test(target)) key = stripped;
  // "x" is how OCR reads a multiplication sign.
  if (target.includes('*')) key = key.replace(/^[x×]$/, '*');
  return key;
}

const similarity = (distance: number, target: string): number => Math.max(0, 1 - distance / Math.max(1, target.length));
const scoreOf = (distance: number, target: string, confidence: number): number =>
  similarity(distance, target) * (0.6 + (0.4 * Math.max(0, Math.min(100, confidence))) / 100);

/** Runs of consecutive words (as many as the target has) that match, plus a match inside one long word. */
function matchWords(words: readonly TextBox[], target: string, maxDistance: number, source: 'frame' | 'label'): TextHit[] {
  const hits: TextHit[] = [];
  const count = target.split(' ').length;
  const keys = words.map((w) => wordKey(w.text, target));
  for (let i = 0; i + count <= words.length; i++) {
    const run = words.slice(i, i + count);
    const key = keys.slice(i, i + count).join(' ');
    const distance = Math.min(editDistance(key, target), editDistance(key.replace(/ /g, ''), target.replace(/ /g, '')));
    if (distance > maxDistance) continue;
    const box = run.slice(1).reduce((acc, w) => unionRegions(acc, w.box), run[0]!.box);
    const confidence = run.reduce((s, w) => s + w.confidence, 0) / run.length;
    hits.push({ box, score: scoreOf(distance, target, confidence), read: run.map((w) => w.text).join(' '), source });
  }
  if (count === 1 && target.length >= 3) {
    // The target inside a longer word ("mode" in "Darkmode"): a proportional slice of its box.
    words.forEach((w, i) => {
      const key = keys[i]!;
      if (key.length <= target.length) return;
      const win = bestWindow(target, key);
      if (win.distance > maxDistance) return;
      const perChar = w.box.width / key.length;
      const box = {
        x: Math.round(w.box.x + win.start * perChar),
        y: w.box.y,
        width: Math.max(1, Math.round((win.end - win.start) * perChar)),
        height: w.box.height,
      };
      hits.push({ box, score: 0.9 * scoreOf(win.distance, target, w.confidence), read: w.text, source });
    });
  }
  return hits;
}

function matchLabel(words: readonly TextBox[], text: string, candidate: LabelCandidate, target: string, maxDistance: number): TextHit[] {
  const key = wordKey(isSingleGlyph(candidate) ? singleLetter(text) : text, target);
  const confidence = words.length === 0 ? 0 : words.reduce((s, w) => s + w.confidence, 0) / words.length;
  const whole = Math.min(editDistance(key, target), editDistance(key.replace(/ /g, ''), target.replace(/ /g, '')));
  if (key !== '' && whole <= maxDistance) {
    return [{ box: candidate.label, score: scoreOf(whole, target, confidence), read: text, source: 'label', control: candidate.control }];
  }
  // Part of a longer label ("Dark" of "Dark mode").
  return matchWords(words, target, maxDistance, 'label').map((h) => ({ ...h, control: candidate.control }));
}

/** One glyph read as its upper and lower case ("Cc" for a lone "C") is the first of them. */
const singleLetter = (text: string): string => (/^(\p{L})\1$/iu.test(text) && text[0] !== text[1] ? text.slice(0, 1) : text);

/** A label shaped like one character. */
const isSingleGlyph = (c: LabelCandidate): boolean => c.glyphs <= 2 && c.label.width <= 1.3 * c.label.height;

/** Only labels that can hold a target this short are read for 1–2 character targets. */
function fits(candidate: LabelCandidate, length: number): boolean {
  if (length > 2) return true;
  // Flat symbols (= and -) are wider than tall, but made of few glyphs.
  if (candidate.glyphs <= 2 * length) return true;
  const size = Math.max(candidate.label.height, 8);
  return candidate.label.width <= (length + 0.8) * size;
}

/** The words of each line of a page read, left to right. */
function linesOf(page: OcrResult): TextBox[][] {
  const used = new Set<TextBox>();
  const lines: TextBox[][] = [];
  for (const line of page.lines) {
    const inside = page.words.filter((w) => {
      if (used.has(w)) return false;
      const cx = w.box.x + w.box.width / 2;
      const cy = w.box.y + w.box.height / 2;
      return cx >= line.box.x && cx <= line.box.x + line.box.width && cy >= line.box.y && cy <= line.box.y + line.box.height;
    });
    inside.forEach((w) => used.add(w));
    lines.push(inside.sort((a, b) => a.box.x - b.box.x));
  }
  const rest = page.words.filter((w) => !used.has(w));
  if (rest.length > 0) lines.push(...rest.map((w) => [w]));
  return lines;
}

/** Best first; a hit whose centre lies in a better hit's box is dropped. */
function dedupe(hits: TextHit[]): TextHit[] {
  const sorted = [...hits].sort((a, b) => b.score - a.score || a.box.y - b.box.y || a.box.x - b.box.x);
  const kept: TextHit[] = [];
  for (const h of sorted) {
    const cx = h.box.x + h.box.width / 2;
    const cy = h.box.y + h.box.height / 2;
    const clash = kept.some((k) => {
      const kx = k.box.x + k.box.width / 2;
      const ky = k.box.y + k.box.height / 2;
      const inK = cx >= k.box.x && cx <= k.box.x + k.box.width && cy >= k.box.y && cy <= k.box.y + k.box.height;
      const kInH = kx >= h.box.x && kx <= h.box.x + h.box.width && ky >= h.box.y && ky <= h.box.y + h.box.height;
      return inK || kInH;
    });
    if (!clash) kept.push(h);
  }
  return kept;
}
