/**
 * Doing an action at its resolved points. Most actions are plain input (perform.ts); `check` and
 * `select` also ask the app's elements while they act: `check` clicks only when the box is not
 * in the wanted state yet, `select` clicks the option by its name, opening a closed combo box
 * first. A refusal (no such option, no elements to ask) is returned as a message.
 */
import type { Action, Point, Region } from '../domain.ts';
import type { Element } from '../desktop/types.ts';
import { accessibleName } from '../desktop/index.ts';
import { containsPoint } from '../vision/frame.ts';
import type { Stage } from './stage.ts';
import { perform } from './perform.ts';
import { typeInto } from './paced-typing.ts';
import { containsSecret } from '../spec-file/interpolate.ts';
import { centre } from './locate.ts';
import { CONTAINERS, describeElement, elementAt, indexByRef, onScreen, snapshot } from './elements.ts';
import { ELEMENT_LIMITS } from './thresholds.ts';

/** Roles that hold options to select. */
const LISTS: ReadonlySet<string> = new Set(['list', 'combobox', 'table', 'tree', 'menu']);

/**
 * Performs `action` with its targets at `points` (window-relative).
 * @returns undefined when done, else why it could not be done (nothing was done then).
 */
export async function act(
  stage: Stage,
  action: Action,
  points: readonly Point[],
  window: Region,
  resolveText: (template: string) => string,
): Promise<string | undefined> {
  if (action.kind === 'type' && action.into !== undefined && points[0] !== undefined) {
    stage.countRetries(await typeInto(stage, points[0], window, resolveText(action.text), containsSecret(action.text)));
    return undefined;
  }
  if (action.kind !== 'check' && action.kind !== 'select') {
    await stage.guard(perform(stage.input, action, points, window, resolveText));
    return undefined;
  }
  const point = points[0];
  if (point === undefined) throw new Error(`internal: ${action.kind} needs a resolved point`);
  const read = await snapshot(stage, window);
  if (!read.ok) return `${action.kind} reads the app's elements, and ${read.why}`;
  const click = (at: Point): Promise<void> => stage.guard(stage.input.click({ x: window.x + at.x, y: window.y + at.y }));

  if (action.kind === 'check') {
    const box = elementAt(read.elements, point);
    if (box === undefined) return 'there is no element at the target to read its checked state from';
    if (box.states.checked !== action.checked) await click(point);
    return undefined;
  }

  const list = listAt(read.elements, point);
  if (list === undefined) return 'there is no list or combo box at the target';
  const option = resolveText(action.option);
  const shown = optionIn(read.elements, list, option);
  if (shown !== undefined) {
    await click(centre(shown.box));
    return undefined;
  }
  // A closed combo box shows its options once opened, in a popup of its own.
  await click(point);
  const deadline = Date.now() + ELEMENT_LIMITS.listOpenMs;
  for (;;) {
    const now = await snapshot(stage, window);
    const found = now.ok ? (optionIn(now.elements, list, option) ?? optionAnywhere(now.elements, list, option)) : undefined;
    if (found !== undefined) {
      await click(centre(found.box));
      return undefined;
    }
    if (Date.now() >= deadline) {
      await stage.guard(stage.input.key('Escape'));
      const names = now.ok ? optionsOf(now.elements, list) : [];
      return (
        `the ${describeElement(list, accessibleName(list))} has no option "${option}"` +
        (names.length > 0 ? ` (its options: ${names.map((n) => `"${n}"`).join(', ')})` : '')
      );
    }
    await stage.wait(ELEMENT_LIMITS.listPollMs);
  }
}

/** The innermost list or combo box under a point. */
function listAt(elements: readonly Element[], point: Point): Element | undefined {
  return elements
    .filter((e) => LISTS.has(e.role) && containsPoint(e.box, point))
    .reduce<Element | undefined>((best, e) => (best === undefined || e.depth >= best.depth ? e : best), undefined);
}

const isInside = (element: Element, ancestor: Element, byRef: ReadonlyMap<string, Element>): boolean => {
  for (
    let e = element.parent === undefined ? undefined : byRef.get(element.parent);
    e !== undefined;
    e = e.parent === undefined ? undefined : byRef.get(e.parent)
  ) {
    if (e.ref === ancestor.ref) return true;
  }
  return false;
};

/** An option on screen: a closed combo box's hidden options (Qt publishes them over the fields below) are not clicked. */
const isOption = (e: Element, byRef: ReadonlyMap<string, Element>): boolean =>
  !CONTAINERS.has(e.role) && !LISTS.has(e.role) && onScreen(e, byRef);

function optionsOf(elements: readonly Element[], list: Element): string[] {
  const byRef = indexByRef(elements);
  return elements
    .filter((e) => isOption(e, byRef) && isInside(e, list, byRef))
    .map(accessibleName)
    .filter((n) => n !== '');
}

function optionIn(elements: readonly Element[], list: Element, option: string): Element | undefined {
  const byRef = indexByRef(elements);
  return elements.find((e) => isOption(e, byRef) && accessibleName(e) === option.trim() && isInside(e, list, byRef));
}

/** An option of a popup the toolkit keeps apart from its combo box: an item or menu item by that name. */
function optionAnywhere(elements: readonly Element[], list: Element, option: string): Element | undefined {
  const byRef = indexByRef(elements);
  return elements.find(
    (e) => e.ref !== list.ref && ['item', 'menuitem', 'cell'].includes(e.role) && accessibleName(e) === option.trim() && onScreen(e, byRef),
  );
}
