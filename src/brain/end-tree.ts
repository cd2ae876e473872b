/**
 * The goal ends on a checked tree (issue 24, item 5): after the expectations, the app's elements
 * are compared with those before the replay's first action, and the changes between them with
 * the changes learning recorded along the path — a diff of diffs, not the final tree against the
 * recorded one, which a banner, a clock, another theme or reordered rows would fail.
 *
 * What learning recorded is folded into one net change per element (`netEffects`): a label that
 * went "Total: 0" → "Total: 3" → "Total: 6" ends on "Total: 6"; a dialog that appeared and went is
 * no change. At the end every net change must still hold, exactly (a result that fell back is an
 * effect that did not hold), and whatever else changed since the start is a change nobody
 * recorded, named by role and name (`elementNews`). Dynamic elements, the focus and tooltips are
 * left out there as after each action.
 */
import type { ElementEffect, ElementProperties, UnexpectedChange } from '../domain.ts';
import type { Element } from '../desktop/types.ts';
import { checkElementEffect, pathKey, type ChangeOptions } from './element-effects.ts';
import { elementNews } from './element-news.ts';

/** Two recorded changes of one element, one after the other, as one; undefined when they undo each other. */
function compose(first: ElementEffect, then: ElementEffect): ElementEffect | undefined {
  const after: ElementProperties = { ...first.after, ...then.after };
  if (then.change === 'gone') return first.change === 'appeared' ? undefined : { ...then, name: first.name };
  if (first.change === 'appeared' && then.change === undefined)
    return { ...first, name: then.after.name ?? first.name, after, ...box(then) };
  // Taken away and another put in its place: the place changed, to all the new one shows.
  if (first.change === 'gone' && then.change === 'appeared') {
    const { change: _change, ...changed } = then;
    return { ...changed, name: first.name };
  }
  if (first.change === undefined && then.change === undefined) return { ...first, after, ...box(then) };
  return then;
}

const box = (e: ElementEffect): Pick<ElementEffect, 'box'> => (e.box ? { box: e.box } : {});

/** An effect without its focus: where the focus ends is no news (element-news.ts), nor a condition. */
function unfocused(effect: ElementEffect): ElementEffect | undefined {
  const { focused: _focused, ...after } = effect.after;
  if (effect.change === undefined && Object.keys(after).length === 0) return undefined;
  return { ...effect, after };
}

/**
 * The element effects of `recorded` (the actions' in order) as one net change per element, told
 * apart by role and place: where the path, as learned, left each element it changed.
 */
export function netEffects(recorded: readonly (readonly ElementEffect[])[]): ElementEffect[] {
  const net = new Map<string, ElementEffect>();
  for (const effects of recorded) {
    for (const effect of effects) {
      const key = `${effect.role}\u0000${pathKey(effect.path)}`;
      const was = net.get(key);
      const now = was === undefined ? effect : compose(was, effect);
      if (now === undefined) net.delete(key);
      else net.set(key, now);
    }
  }
  return [...net.values()].flatMap((e) => unfocused(e) ?? []);
}

/** The tree at the goal's end, judged against the path's net changes. */
export interface EndTree {
  /** Why one of the net changes does not hold at the end. */
  readonly problem?: string;
  /** What changed since the start that the path did not record. */
  readonly news: readonly UnexpectedChange[];
}

/**
 * The app's elements at the goal's end (`end`) against those before the replay's first action
 * (`start`), given the path's net changes (`netEffects`).
 */
export function judgeEndTree(
  start: readonly Element[],
  end: readonly Element[],
  net: readonly ElementEffect[],
  options: ChangeOptions,
): EndTree {
  const problem = net.map((e) => checkElementEffect(e, end)).find((c) => c.problem !== undefined)?.problem;
  if (problem !== undefined) return { problem, news: [] };
  return { news: elementNews(start, end, net, options) };
}
