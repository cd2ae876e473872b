/** `text:` and `absent:` assertions: OCR of the window (or a region of it), polled until they hold. */
import type { Region } from '../../domain.ts';
import { readAll } from '../../vision/ocr/find-text.ts';
import { matchText } from '../../vision/text-match.ts';
import type { TextMatch } from '../../spec-file/types.ts';
import type { Stage } from '../stage.ts';
import type { AssertionResult } from './types.ts';
import { pollAssertion } from './poll.ts';

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Everything readable in the window (or region): the page read plus label-by-label reads, and the frame read. */
async function readWindow(
  stage: Stage,
  region: Region | undefined,
): Promise<{ read: string; judged: NonNullable<AssertionResult['judged']> }> {
  const { frame } = await stage.shoot();
  const page = await stage.guard(readAll(stage.reader, frame, region ? { region } : {}));
  return { read: page.text, judged: { frame, ...(region ? { region } : {}), words: page.words.map((w) => w.box) } };
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
  const last = await pollAssertion(async () => {
    const { read, judged } = await readWindow(stage, check.region);
    return { ok: matchText(read, check.text, check.match).ok, read, judged };
  }, check.timeoutMs);
  const read = check.mask(oneLine(last.read));
  return {
    kind: 'text',
    description,
    ok: last.ok,
    message: last.ok ? `found "${check.display}"` : `expected ${check.match} "${check.display}", but the screen shows: "${read}"`,
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
    const { read, judged } = await readWindow(stage, check.region);
    // Anywhere, inside a word too: a text that must not be shown is not excused by what surrounds it.
    return { ok: !matchText(read, check.text, 'substring').ok, read, judged };
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
