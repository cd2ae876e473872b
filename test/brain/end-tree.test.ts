/**
 * The goal's end judged as a diff of diffs (src/brain/end-tree.ts): the path's recorded element
 * effects folded into one net change per element, and the tree at the end against the tree at
 * the start given those. Pure: elements as a toolkit publishes them.
 */
import { describe, expect, test } from 'vitest';
import type { ElementEffect } from '../../src/domain.ts';
import type { Element } from '../../src/desktop/types.ts';
import { judgeEndTree, netEffects } from '../../src/brain/end-tree.ts';
import { SHOWING, treeChild, treeWindow } from '../support/element-tree.ts';

const window = treeWindow(400, 300);
const el = (ref: string, role: string, name: string, index: number, y: number, extra: Partial<Element> = {}): Element =>
  treeChild(ref, role, name, index, { x: 10, y, width: 200, height: 20 }, extra);
const at = (role: string, index: number) => [
  { role: 'window', index: 0 },
  { role, index },
];
const changed = (role: string, index: number, name: string, after: ElementEffect['after']): ElementEffect => ({
  role,
  name,
  path: at(role, index),
  after,
});
const OPTIONS = { dynamic: [], secret: false };

describe('the net of what a path recorded', () => {
  test('an element changed twice ends on its last value, its first name kept for the diff', () => {
    const net = netEffects([
      [changed('label', 0, 'Total: 0', { name: 'Total: 3' })],
      [changed('label', 0, 'Total: 3', { name: 'Total: 6' }), changed('checkbox', 1, 'Gift', { checked: true })],
    ]);
    expect(net).toEqual([changed('label', 0, 'Total: 0', { name: 'Total: 6' }), changed('checkbox', 1, 'Gift', { checked: true })]);
  });

  test('a dialog that appeared and went is no change; where the focus ends is none either', () => {
    const dialog: ElementEffect = { role: 'dialog', name: 'Sent', path: at('dialog', 0), after: { name: 'Sent' }, change: 'appeared' };
    const net = netEffects([[dialog], [changed('entry', 0, 'Name', { focused: true })], [{ ...dialog, after: {}, change: 'gone' }]]);
    expect(net).toEqual([]);
  });

  test('an element that appeared and then changed is expected to be there, as it ends', () => {
    const row: ElementEffect = { role: 'cell', name: 'Tea: 1', path: at('cell', 2), after: { name: 'Tea: 1' }, change: 'appeared' };
    const net = netEffects([[row], [changed('cell', 2, 'Tea: 1', { name: 'Tea: 2' })]]);
    expect(net).toEqual([{ ...row, name: 'Tea: 2', after: { name: 'Tea: 2' } }]);
  });
});

describe('the tree at the end', () => {
  const start = [window, el('t', 'label', 'Total: 0', 0, 10), el('s', 'label', 'Idle', 1, 40)];
  const net = netEffects([[changed('label', 0, 'Total: 0', { name: 'Total: 3' })]]);

  test('as recorded: nothing to tell', () => {
    const end = [window, el('t', 'label', 'Total: 3', 0, 10), el('s', 'label', 'Idle', 1, 40)];
    expect(judgeEndTree(start, end, net, OPTIONS)).toEqual({ news: [] });
  });

  test('a label nobody recorded changing is news, named by role and name', () => {
    const end = [window, el('t', 'label', 'Total: 3', 0, 10), el('s', 'label', 'Sync failed', 1, 40)];
    const judged = judgeEndTree(start, end, net, OPTIONS);
    expect(judged.problem).toBeUndefined();
    expect(judged.news.map((n) => n.element)).toEqual(['label "Idle" changed: name "Sync failed"']);
  });

  test('an alert nobody recorded appearing is news; in a region that changes on its own it is not', () => {
    const alert = el('a', 'alert', 'Error: not synced', 2, 70);
    const end = [window, el('t', 'label', 'Total: 3', 0, 10), el('s', 'label', 'Idle', 1, 40), alert];
    expect(judgeEndTree(start, end, net, OPTIONS).news.map((n) => n.element)).toEqual(['alert "Error: not synced" appeared']);
    expect(judgeEndTree(start, end, net, { ...OPTIONS, dynamic: [alert.box] }).news).toEqual([]);
  });

  test('a recorded change that does not hold at the end is a problem, not news', () => {
    const end = [window, el('t', 'label', 'Total: 6', 0, 10), el('s', 'label', 'Idle', 1, 40)];
    expect(judgeEndTree(start, end, net, OPTIONS)).toEqual({
      problem: 'the label "Total: 0" has name "Total: 6", recorded "Total: 3"',
      news: [],
    });
  });

  test('the focus ending elsewhere, and a tooltip, are no news', () => {
    const end = [
      window,
      el('t', 'label', 'Total: 3', 0, 10, { states: { ...SHOWING, focused: true } }),
      el('s', 'label', 'Idle', 1, 40),
      el('h', 'tooltip', 'Add this order', 2, 90),
    ];
    expect(judgeEndTree(start, end, net, OPTIONS)).toEqual({ news: [] });
  });
});
