/**
 * Typing into a field at the pace the app takes it. Some apps lose keys that come too soon: a
 * Swing field takes the keyboard focus a moment after the click that asks for it, and keys that
 * arrive before go nowhere ("lice" for "Alice"). When the field is an element retrace can read,
 * the keys wait for its focus, then go one at a time, each waiting (bounded) for the field's text
 * to grow; a key the field proves missing (its text did not grow within a bound long enough that
 * a late key is not taken for a lost one) is sent once more and counted as a retry. Without
 * elements, or for a secret (typed whole, so the screen can hide it), the text is typed at once
 * as before. A target that is a label types into the field it names.
 */
import type { Element } from '../desktop/types.ts';
import type { Point, Region } from '../domain.ts';
import { InfrastructureError } from '../errors.ts';
import { accessibleName } from '../desktop/index.ts';
import { elementAt, snapshot } from './elements.ts';
import { centre } from './locate.ts';
import type { Stage } from './stage.ts';
import { PACE_LIMITS } from './thresholds.ts';

/** An element whose text the keys change. */
const isField = (e: Element): boolean => e.states.editable && e.text !== undefined;

/**
 * The field a label names, as Playwright's `getByLabel().fill()` finds it: the field the label is
 * tied to (`tied`: its `label-for` relation, an HTML `for=`), else a field named by the label or
 * labelled by it (the labelled-by relation, else the layout: `Element.label`), else the nearest
 * field to its right on its row or below it in its column. The tie comes first because a name can
 * be a toolkit's default: Chromium names every unlabelled password field "Password". Typing into
 * a label types nowhere, or into whichever field happens to have the focus.
 */
export function fieldLabelledBy(elements: readonly Element[], label: Element, tied: readonly string[] = []): Element | undefined {
  const name = accessibleName(label);
  if (isField(label) || name === '') return undefined;
  const fields = elements.filter((e) => e !== label && isField(e) && e.box.width > 0 && e.box.height > 0);
  const named = fields.find((e) => tied.includes(e.ref)) ?? fields.find((e) => e.name.trim() === name || e.label?.trim() === name);
  if (named !== undefined) return named;
  const l = label.box;
  const right = (e: Element): boolean => e.box.x >= l.x + l.width / 2 && e.box.y < l.y + l.height && e.box.y + e.box.height > l.y;
  const below = (e: Element): boolean => e.box.y >= l.y + l.height / 2 && e.box.x < l.x + l.width && e.box.x + e.box.width > l.x;
  const distance = (e: Element): number => Math.hypot(e.box.x - l.x, e.box.y - l.y);
  return fields.filter((e) => right(e) || below(e)).sort((a, b) => distance(a) - distance(b))[0];
}

/**
 * The refs the label at `target` is tied to: its own `label-for` relation, else that of the label
 * holding it (a page's `<label>` publishes its text as a child label). None when the source
 * cannot tell.
 */
const tiedTo = async (stage: Stage, elements: readonly Element[], target: Element): Promise<readonly string[]> => {
  const source = stage.desktop.elements;
  if (source?.labelTargets === undefined) return [];
  const byRef = new Map(elements.map((e) => [e.ref, e]));
  for (
    let label: Element | undefined = target;
    label?.role === 'label';
    label = label.parent === undefined ? undefined : byRef.get(label.parent)
  ) {
    try {
      const refs = await stage.guard(source.labelTargets(stage.app, label));
      if (refs.length > 0) return refs;
    } catch (error) {
      if (error instanceof InfrastructureError || stage.signal.aborted) throw error;
      return [];
    }
  }
  return [];
};

/** The field read again; undefined when it cannot be read (gone, or the bus failed). */
const reread = async (stage: Stage, field: Element, window: Region): Promise<Element | undefined> => {
  try {
    return await stage.guard(stage.desktop.elements?.refresh(stage.app, field, { window }) ?? Promise.resolve(undefined));
  } catch (error) {
    if (error instanceof InfrastructureError || stage.signal.aborted) throw error;
    return undefined;
  }
};

/** Polls `field` until `ready` holds of it, up to `ms`; the last reading (undefined if none). */
const waitFor = async (
  stage: Stage,
  field: Element,
  window: Region,
  ms: number,
  ready: (e: Element) => boolean,
): Promise<Element | undefined> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const now = await reread(stage, field, window);
    if (now === undefined || ready(now) || Date.now() >= deadline) return now;
    await stage.wait(PACE_LIMITS.pollMs);
  }
};

/**
 * Clicks the field at `point` (window-relative) and types `text` into it, paced when it can be.
 * @returns how many keys were sent again.
 */
export async function typeInto(stage: Stage, point: Point, window: Region, text: string, secret: boolean): Promise<number> {
  const read = await snapshot(stage, window);
  const target = read.ok ? elementAt(read.elements, point) : undefined;
  const field =
    target === undefined || !read.ok
      ? undefined
      : isField(target)
        ? target
        : fieldLabelledBy(read.elements, target, await tiedTo(stage, read.elements, target));
  const at = field === undefined || field === target ? point : centre(field.box);
  await stage.guard(stage.input.click({ x: window.x + at.x, y: window.y + at.y }));
  if (field === undefined) {
    await stage.guard(stage.input.type(text));
    return 0;
  }
  let now = await waitFor(stage, field, window, PACE_LIMITS.focusMs, (e) => e.states.focused);
  if (secret || now === undefined || [...text].length > PACE_LIMITS.maxPacedChars) {
    await stage.guard(stage.input.type(text));
    return 0;
  }
  let resent = 0;
  const keys = [...text];
  for (const [i, key] of keys.entries()) {
    // Changed, not grown: a key typed over a selection replaces it.
    const before = now?.text;
    const grew = (e: Element): boolean => e.text !== before;
    await stage.guard(stage.input.type(key));
    now = await waitFor(stage, field, window, PACE_LIMITS.keyMs, grew);
    if (now === undefined || grew(now)) continue;
    resent++;
    await stage.guard(stage.input.type(key));
    now = await waitFor(stage, field, window, PACE_LIMITS.keyMs, grew);
    if (now === undefined || grew(now)) continue;
    // Sent twice and still not shown: the field turns this key away (a number field, a full
    // one), and its text no longer tells a lost key from a refused one. The rest goes at once.
    const rest = keys.slice(i + 1).join('');
    if (rest !== '') await stage.guard(stage.input.type(rest));
    return resent;
  }
  return resent;
}
