/**
 * `text:` and `absent:` assertions, by OCR, polled until they hold. A `text:` is read first where
 * the app's element tree holds it (`textPlaces` of elements.ts: inside the boxes of the elements whose
 * name or text says it), then, when no such place reads as it, in the whole window (or its region): the
 * tree tells where to look, never what is shown, and text no element holds is drawn anywhere. An
 * `absent:` reads the whole window (or region): the tree cannot tell where a text is not.
 * A window is read first only where text can be (region-read.ts), which settles a `text:` found
 * and an `absent:` shown; anything else is settled by reading all of it.
 */
import type { Frame, Region } from '../../domain.ts';
import { readAll } from '../../vision/ocr/find-text.ts';
import { readTextRegions } from '../../vision/ocr/region-read.ts';
import { matchText, type TextMatchMode } from '../../vision/text-match.ts';
import { clampRegion, crop } from '../../vision/frame.ts';
import { snapshot, textPlaces } from '../elements.ts';
import type { TextMatch } from '../../spec-file/types.ts';
import type { Stage } from '../stage.ts';
import type { AssertionResult } from './types.ts';
import { pollAssertion } from './poll.ts';

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

type Read = { read: string; judged: NonNullable<AssertionResult['judged']> };

/**
 * What the window (or region) of `frame` shows: 'regions' reads only where text can be
 * (region-read.ts: fast, and what it reads is there, but it may miss some text); 'all' reads
 * everything (the page read plus label-by-label reads).
 */
async function readWindow(stage: Stage, frame: Frame, region: Region | undefined, how: 'regions' | 'all'): Promise<Read> {
  const page = await stage.guard(
    how === 'regions' ? readTextRegions(stage.reader, frame, region) : readAll(stage.reader, frame, region ? { region } : {}),
  );
  return { read: page.text, judged: { frame, ...(region ? { region } : {}), words: page.words.map((w) => w.box) } };
}

/**
 * The window read where text can be, then, unless `decides` holds of that read, all of it: the
 * quick read is evidence one way only (a text it finds is on screen; one it misses may be too).
 * Without `decides` (a check the quick read can never settle) the window is read whole at once.
 */
async function readDeciding(stage: Stage, region: Region | undefined, decides: ((read: string) => boolean) | undefined): Promise<Read> {
  const { frame } = await stage.shoot();
  if (!decides) return readWindow(stage, frame, region, 'all');
  const quick = await readWindow(stage, frame, region, 'regions');
  return decides(quick.read) ? quick : readWindow(stage, frame, region, 'all');
}

/**
 * Match modes the tree can answer: those satisfied by one text among others. `exact` and `regex`
 * judge all the text of the window or region, and the tree does not hold text drawn outside it.
 */
const BY_PART: ReadonlySet<TextMatchMode> = new Set(['contains', 'substring', 'fuzzy']);

/** How many places the tree points to are read, at most: a bound on the OCR a `text:` costs before the window is read. */
const MAX_PLACES = 6;

type Attempt = {
  readonly ok: boolean;
  readonly read: string;
  readonly judged: NonNullable<AssertionResult['judged']>;
  readonly by?: string;
};

/**
 * The expectation read where the element tree says the text is (`textPlaces`): held when one
 * of those places reads as it; undefined when none does, or the app publishes no elements.
 */
async function fromTree(stage: Stage, check: TextCheck): Promise<Attempt | undefined> {
  // A frozen stage's shot is from before the actions: the tree read now does not say where its text was.
  if (!BY_PART.has(check.match) || stage.frozen) return undefined;
  const window = (await stage.window()).region;
  const tree = await snapshot(stage, window);
  if (!tree.ok) return undefined;
  const places = textPlaces(tree.elements, window, (text) => matchText(text, check.text, check.match).ok, check.region);
  if (places.length === 0) return undefined;
  const { frame } = await stage.shoot();
  for (const place of places.slice(0, MAX_PLACES)) {
    const box = clampRegion(place.box, frame);
    const read = (await stage.guard(readAll(stage.reader, crop(frame, box)))).text;
    // OCR tells the case of c, o, s, v, w, x and z by their height, which it cannot measure on a
    // letter whose ink touches its neighbour's ("fOr" in a larger font): in the box of an element
    // whose own text says the expected one, theirs is the tree's. Every other letter is the pixels'.
    if (matchText(read, check.text, check.match, { sameShapeCase: true }).ok) {
      return {
        ok: true,
        read,
        judged: { frame, ...(check.region ? { region: check.region } : {}), words: [box] },
        by: `read on ${place.what}`,
      };
    }
  }
  return undefined;
}

/**
 * Why a region cannot be read at all: it lies wholly outside the window. Then neither `text:`
 * nor `absent:` can hold (an `absent:` there would pass without looking at anything).
 */
async function offWindow(stage: Stage, region: Region | undefined): Promise<string | undefined> {
  if (!region) return undefined;
  const { width, height } = (await stage.window()).region;
  if (region.x < width && region.y < height) return undefined;
  return `region [${region.x}, ${region.y}, ${region.width}, ${region.height}] lies entirely outside the ${width}×${height} window: there is nothing to read there`;
}

export interface TextCheck {
  readonly text: string;
  readonly match: TextMatch;
  readonly region?: Region;
  /** How long to poll; the expectation's `timeoutMs`, else the run's `timeouts.expectMs`. */
  readonly timeoutMs: number;
  /** Shown in reports instead of `text` (secret-free). */
  readonly display: string;
  /** Masks secrets in what OCR read before it reaches a message. */
  readonly mask: (text: string) => string;
}

export async function assertText(stage: Stage, check: TextCheck): Promise<AssertionResult> {
  const started = performance.now();
  const description = `text ${check.match === 'contains' ? '' : `(${check.match}) `}"${check.display}"`;
  const off = await offWindow(stage, check.region);
  if (off) return { kind: 'text', description, ok: false, message: off, read: '', ms: Math.round(performance.now() - started) };
  const last = await pollAssertion<Attempt>(async () => {
    const tree = await fromTree(stage, check);
    if (tree) return tree;
    // A quick read holding the text decides (only for modes one text among others satisfies:
    // `exact` and `regex` judge all the text, which the quick read may not have).
    const holds = (read: string): boolean => matchText(read, check.text, check.match).ok;
    const { read, judged } = await readDeciding(stage, check.region, BY_PART.has(check.match) ? holds : undefined);
    return { ok: holds(read), read, judged };
  }, check.timeoutMs);
  const read = check.mask(oneLine(last.read));
  return {
    kind: 'text',
    description,
    ok: last.ok,
    message: last.ok
      ? `found "${check.display}"${last.by ? ` (${check.mask(last.by)})` : ''}`
      : `expected ${check.match} "${check.display}", but the screen shows: "${read}"`,
    read,
    judged: last.judged,
    ms: Math.round(performance.now() - started),
  };
}

export async function assertAbsent(stage: Stage, check: Omit<TextCheck, 'match'>): Promise<AssertionResult> {
  const started = performance.now();
  const description = `absent "${check.display}"`;
  const off = await offWindow(stage, check.region);
  if (off) return { kind: 'absent', description, ok: false, message: off, read: '', ms: Math.round(performance.now() - started) };
  const last = await pollAssertion(async () => {
    // Anywhere, inside a word too: a text that must not be shown is not excused by what surrounds it.
    const shown = (read: string): boolean => matchText(read, check.text, 'substring').ok;
    const { read, judged } = await readDeciding(stage, check.region, shown);
    return { ok: !shown(read), read, judged };
  }, check.timeoutMs);
  const read = check.mask(oneLine(last.read));
  return {
    kind: 'absent',
    description,
    ok: last.ok,
    message: last.ok ? `"${check.display}" is not shown` : `"${check.display}" should not be shown, but the screen shows: "${read}"`,
    read,
    judged: last.judged,
    ms: Math.round(performance.now() - started),
  };
}
