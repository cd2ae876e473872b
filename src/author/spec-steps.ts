/**
 * Writing recorded actions into a spec as the goal's `steps:`, through the `yaml` Document API so
 * the file keeps its comments, order and quoting everywhere else. The steps are the exact
 * inverse of how the spec format reads them (spec-file/convert.ts `toAction`): the spec, read
 * back, yields the very actions recorded, so the path's source hash matches the steps and the
 * next run replays instead of recording again. `stepsText` checks that before anything is written.
 */
import { isDeepStrictEqual } from 'node:util';
import { Document, isMap, isScalar, isSeq, parseDocument, type YAMLMap } from 'yaml';
import type { Action, Target } from '../domain.ts';
import { isElementTarget, isTextTarget } from '../domain.ts';
import { parseSpec } from '../spec-file/load.ts';
import type { GoalSpec } from '../spec-file/types.ts';
import type { Env } from '../spec-file/interpolate.ts';
import { InvalidInputError } from '../errors.ts';

type Plain = string | number | { readonly [key: string]: Plain };

const target = (t: Target): Plain => {
  if (isTextTarget(t)) return t.text;
  if (!isElementTarget(t)) return { x: t.x, y: t.y };
  return { role: t.role, ...(t.name !== undefined && { name: t.name }), ...(t.nth !== undefined && { nth: t.nth }) };
};

/** One action as a step of `steps:` (the inverse of `toAction`). */
export function stepOf(action: Action): Record<string, Plain> {
  switch (action.kind) {
    case 'click':
    case 'double-click':
    case 'right-click':
      return { [action.kind]: target(action.target) };
    case 'type':
      return { type: action.into ? { text: action.text, into: target(action.into) } : action.text };
    case 'key':
      return { key: action.combo };
    case 'scroll':
      return { scroll: { direction: action.direction, amount: action.amount, ...(action.target ? { in: target(action.target) } : {}) } };
    case 'drag':
      return { drag: { from: target(action.from), to: target(action.to) } };
    case 'wait':
      return { wait: action.ms };
    case 'wait-for':
      return { 'wait-for': action.timeoutMs === undefined ? action.text : { text: action.text, timeoutMs: action.timeoutMs } };
    case 'check':
      // A bare text reads back as a checkbox's name: an OCR target keeps its { text } form.
      return { [action.checked ? 'check' : 'uncheck']: isTextTarget(action.target) ? { text: action.target.text } : target(action.target) };
    case 'select':
      return { select: { option: action.option, in: target(action.target) } };
  }
}

export interface StepsEdit {
  /** The spec's new text. */
  readonly text: string;
  /** The goal as the new text reads, with its steps. */
  readonly goal: GoalSpec;
}

/**
 * The spec text with `steps:` added to goal `goalId` (before its `expect:`), and the goal as
 * that text reads. Throws when the text would not read back as exactly these actions.
 */
export function stepsText(source: string, file: string, root: string, goalId: string, actions: readonly Action[], env: Env): StepsEdit {
  const doc = parseDocument(source);
  const goals = doc.get('goals');
  const item = isSeq(goals) ? goals.items.find((g): g is YAMLMap => isMap(g) && g.get('id') === goalId) : undefined;
  if (!item) throw new InvalidInputError({ file }, `has no goal "${goalId}" to write steps into`);
  const text = insertBeforeExpect(source, item, actions) ?? rewritten(doc, item, actions);
  const goal = parseSpec(text, file, { root, env, masker: null }).goals.find((g) => g.id === goalId);
  if (!goal?.steps || !isDeepStrictEqual(goal.steps, actions)) {
    throw new Error(`internal: the steps written for "${goalId}" do not read back as the actions recorded`);
  }
  return { text, goal };
}

/** `steps:` as a YAML node: one step a line, targets and options as flow maps ({ x: 12, y: 40 }). */
function stepsNode(doc: Document, actions: readonly Action[]): ReturnType<Document['createNode']> {
  const steps = doc.createNode(actions.map(stepOf));
  if (isSeq(steps)) {
    for (const step of steps.items) {
      if (!isMap(step)) continue;
      for (const pair of step.items) if (isMap(pair.value)) pair.value.flow = true;
    }
  }
  return steps;
}

/**
 * The source with a `steps:` block inserted as text above the goal's `expect:` key (and the
 * comment lines right above it), so every other byte of the file stays as it was. Undefined
 * when the goal is not laid out as a block mapping with `expect:` on a line of its own.
 */
function insertBeforeExpect(source: string, item: YAMLMap, actions: readonly Action[]): string | undefined {
  const index = item.items.findIndex((p) => isScalar(p.key) && p.key.value === 'expect');
  const key = item.items[index]?.key;
  if (item.flow || index < 1 || !isScalar(key) || !key.range) return undefined;
  const offset = key.range[0];
  let lineStart = source.lastIndexOf('\n', offset - 1) + 1;
  const indent = source.slice(lineStart, offset);
  if (!/^ *$/.test(indent)) return undefined;
  // Comment lines just above `expect:` belong to it.
  for (;;) {
    const previousStart = source.lastIndexOf('\n', lineStart - 2) + 1;
    if (lineStart === 0 || !source.slice(previousStart, lineStart).trim().startsWith('#')) break;
    lineStart = previousStart;
  }
  const block = new Document({ steps: null });
  block.set('steps', stepsNode(block, actions));
  const lines = block
    .toString()
    .trimEnd()
    .split('\n')
    .map((line) => indent + line);
  return `${source.slice(0, lineStart)}${lines.join('\n')}\n${source.slice(lineStart)}`;
}

/** The whole document written anew by the YAML library: comments kept, spacing its own. */
function rewritten(doc: Document, item: YAMLMap, actions: readonly Action[]): string {
  const pair = doc.createPair('steps', stepsNode(doc, actions));
  const at = item.items.findIndex((p) => isScalar(p.key) && p.key.value === 'expect');
  item.items.splice(at === -1 ? item.items.length : at, 0, pair);
  return doc.toString();
}
