/**
 * `element:` assertions: an element the app publishes over the accessibility bus, found by role
 * and name, with the text, value and states asked for — read from the toolkit, exact, no OCR.
 * Polled like the other expectations until it holds or its timeout runs out.
 */
import type { ElementStateQuery } from '../../domain.ts';
import type { Element } from '../../desktop/types.ts';
import { accessibleName, matchElements } from '../../desktop/index.ts';
import type { Stage } from '../stage.ts';
import { describeElement, namePattern, resolveMasked, snapshot, PUBLISHES_NOTHING, targetQuery } from '../elements.ts';
import type { AssertionResult } from './types.ts';
import { pollAssertion } from './poll.ts';

export interface ElementCheck extends ElementStateQuery {
  readonly role: string;
  readonly name?: string;
  readonly nth?: number;
  readonly timeoutMs: number;
  /** Turns placeholders into values. */
  readonly resolveText: (template: string) => string;
  /** Shows a template with secrets as ••••. */
  readonly display: (template: string) => string;
  /** Masks secrets in what was read before it reaches a message. */
  readonly mask: (text: string) => string;
}

const STATES = ['checked', 'sensitive', 'focused', 'selected'] as const;

/** What the expectation calls an element's text: an entry's content, else its name. */
const textOf = (e: Element): string => e.text ?? accessibleName(e);

const matches = (actual: string, expected: string | RegExp): boolean => {
  if (typeof expected === 'string') return actual === expected;
  expected.lastIndex = 0;
  return expected.test(actual);
};

/** Why `element` is not as expected, or undefined when it is. */
function mismatch(element: Element, check: ElementCheck): string | undefined {
  if (check.text !== undefined && !matches(textOf(element), namePattern(resolveMasked(check.resolveText)(check.text)))) {
    // The value it was compared with, placeholders resolved, any secret in it masked.
    return `its text is "${check.mask(textOf(element))}", expected "${check.mask(check.resolveText(check.text))}"`;
  }
  if (check.value !== undefined && element.value !== check.value) return `its value is ${element.value ?? 'none'}, expected ${check.value}`;
  for (const state of STATES) {
    const wanted = check[state];
    if (wanted !== undefined && element.states[state] !== wanted)
      return `it is ${wanted ? 'not ' : ''}${state}, expected ${wanted ? '' : 'not '}${state}`;
  }
  return undefined;
}

export async function assertElement(stage: Stage, check: ElementCheck): Promise<AssertionResult> {
  const started = performance.now();
  const query = targetQuery(
    { role: check.role, ...(check.name !== undefined && { name: check.name }), ...(check.nth !== undefined && { nth: check.nth }) },
    check.resolveText,
  );
  const what =
    describeElement(check, check.name === undefined ? '' : check.display(check.name)) + (check.nth === undefined ? '' : ` #${check.nth}`);
  const last = await pollAssertion(async () => {
    const read = await snapshot(stage, (await stage.window()).region);
    if (!read.ok) return { ok: false, read: '', message: read.why };
    if (read.elements.length === 0) return { ok: false, read: '', message: PUBLISHES_NOTHING };
    const found = matchElements(read.elements, query);
    if (found.length === 0) {
      const names = matchElements(read.elements, { role: check.role }).map((e) => `"${check.mask(accessibleName(e))}"`);
      return {
        ok: false,
        read: '',
        message: `not shown${names.length > 0 ? `; the ${check.role} elements shown are ${names.slice(0, 12).join(', ')}` : ''}`,
      };
    }
    // Any of several equal matches will do, unless nth picked one.
    const problems = found.map((e) => mismatch(e, check));
    const ok = problems.some((p) => p === undefined);
    const first = found[0] as Element;
    return { ok, read: check.mask(textOf(first)), message: ok ? 'shown as expected' : (problems[0] ?? '') };
  }, check.timeoutMs);
  return {
    kind: 'element',
    description: `element ${what}`,
    ok: last.ok,
    message: last.message,
    read: last.read,
    ms: Math.round(performance.now() - started),
  };
}
