/**
 * Element targets, anchors, the element rung and element effects, on the counter app in memory
 * with an element source (no display): learned with `click button "Add"`, replayed against
 * variants of the app and of what it publishes.
 */
import { describe, expect, test } from 'vitest';
import type { Action, Path } from '../../src/domain.ts';
import { ActionCycle, type CycleOptions } from '../../src/brain/cycle.ts';
import { replay } from '../../src/brain/replayer.ts';
import type { AssetSink } from '../../src/brain/observe.ts';
import { NO_BUS, PUBLISHES_NOTHING } from '../../src/brain/elements.ts';
import { checkElementEffect, elementChanges } from '../../src/brain/element-effects.ts';
import { elementNews } from '../../src/brain/element-news.ts';
import { describeElementEffect } from '../../src/spec-file/describe.ts';
import { CounterApp, FakeDesktop, type CounterOptions } from '../support/fake-desktop.ts';
import { ElementDesktop, type FakeElementOptions } from '../support/fake-elements.ts';
import { learnOn as learnCounterPath } from '../support/fake-replay.ts';

const OPTIONS: CycleOptions = { settleTimeoutMs: 2000, actionTimeoutMs: 300, resolveText: (t) => t };
const clickAdd: Action = { kind: 'click', target: { role: 'button', name: 'Add' } };

async function learnPath(actions: readonly Action[]): Promise<{ path: Path; assets: AssetSink }> {
  const desktop = new ElementDesktop(new CounterApp());
  const learned = await learnCounterPath(desktop, actions, OPTIONS);
  expect(desktop.app.count).toBe(actions.length);
  return learned;
}

async function replayOn(learned: { path: Path; assets: AssetSink }, app: CounterOptions = {}, elements: FakeElementOptions | 'none' = {}) {
  const counter = new CounterApp(app);
  const desktop = elements === 'none' ? new FakeDesktop(counter) : new ElementDesktop(counter, elements);
  const cycle = new ActionCycle(desktop.stage(), OPTIONS);
  const result = await replay({ cycle, path: learned.path, asset: (name) => learned.assets.get(name)! });
  return { desktop, result };
}

describe('a role target, learned', () => {
  const learned = learnPath([clickAdd, clickAdd]);

  test('is found by the element source, and its element and the count it changed are recorded', async () => {
    const { path } = await learned;
    const first = path.actions[0]!;
    expect(first.anchor?.element).toEqual({
      role: 'button',
      name: 'Add',
      box: { x: 20, y: 20, width: 60, height: 28 },
      path: [
        { role: 'window', index: 0 },
        { role: 'button', index: 0 },
      ],
    });
    expect(first.anchor?.point).toEqual({ x: 50, y: 34 });
    expect(first.elements).toEqual([
      {
        role: 'label',
        name: '0',
        path: [
          { role: 'window', index: 0 },
          { role: 'label', index: 2 },
        ],
        after: { name: '1' },
        box: expect.any(Object),
      },
    ]);
    expect(path.actions[1]!.elements).toEqual([expect.objectContaining({ name: '1', after: { name: '2' } })]);
  });

  test('is recorded once the tree settled: a label published first with no box is renamed, not gone', async () => {
    const desktop = new ElementDesktop(new CounterApp(), { lagging: true });
    const { path } = await learnCounterPath(desktop, [clickAdd], OPTIONS);
    expect(path.actions[0]!.elements).toEqual([expect.objectContaining({ role: 'label', name: '0', after: { name: '1' } })]);
  });

  test('replays on the same app by the element rung, in place: a clean replay', async () => {
    const { result, desktop } = await replayOn(await learned);
    expect(result.failure).toBeUndefined();
    expect(result.healed).toBe(false);
    expect(result.reports.map((r) => [r.verified, r.resolvedBy])).toEqual([
      [true, 'element'],
      [true, 'element'],
    ]);
    expect(desktop.app.count).toBe(2);
  });

  test('follows a moved layout by the element rung, and heals', async () => {
    const { result, desktop } = await replayOn(await learned, { offset: { x: 30, y: 12 } });
    expect(result.failure).toBeUndefined();
    expect(result.healed).toBe(true);
    expect(result.reports[0]?.resolvedBy).toBe('element');
    expect(desktop.app.count).toBe(2);
  });

  test('does not click an element a window of the app covers, whatever its pixels, and no lower rung moves it elsewhere', async () => {
    const { result, desktop } = await replayOn(await learned, { covered: true });
    expect(result.failure).toMatchObject({ category: 'target-not-found', index: 0 });
    expect(desktop.events.filter((e) => e.kind === 'click')).toEqual([]);
  });

  test('fails an action whose element effect is not what was recorded, though the pixels are', async () => {
    const { result } = await replayOn(await learned, {}, { countName: (n) => String(n * 2) });
    expect(result.failure).toMatchObject({ category: 'effect-not-verified', index: 0 });
    expect(result.failure?.message).toContain('its effect did not verify — the label "0" has name "2", recorded "1"');
  });

  test('falls back to pixels where the app publishes nothing, or there is no bus', async () => {
    for (const elements of [{ silent: true }, 'none'] as const) {
      const { result, desktop } = await replayOn(await learned, {}, elements);
      expect(result.failure).toBeUndefined();
      expect(result.reports.map((r) => r.resolvedBy)).toEqual(['recorded', 'recorded']);
      expect(desktop.app.count).toBe(2);
    }
  });
});

describe('a role target the app cannot show', () => {
  const learnOn = async (desktop: FakeDesktop, action: Action) =>
    new ActionCycle(desktop.stage(), OPTIONS).run({ kind: 'learn', action, index: 0, dynamic: [], assets: new Map() });

  test('says the app publishes no elements, or that there is no accessibility bus', async () => {
    const silent = await learnOn(new ElementDesktop(new CounterApp(), { silent: true }), clickAdd);
    expect(silent.failure).toMatchObject({
      category: 'target-not-found',
      message: `click button "Add": button "Add": ${PUBLISHES_NOTHING}`,
    });
    const noBus = await learnOn(new FakeDesktop(new CounterApp()), clickAdd);
    expect(noBus.failure?.message).toBe(`click button "Add": button "Add": ${NO_BUS}`);
  });

  test('names the elements of that role it does publish', async () => {
    const outcome = await learnOn(new ElementDesktop(new CounterApp()), { kind: 'click', target: { role: 'button', name: 'Apply' } });
    expect(outcome.failure?.message).toContain('no button named "Apply" on screen; the app\'s button elements are named "Add", "Reset"');
  });

  test('check clicks only when the state differs', async () => {
    const desktop = new ElementDesktop(new CounterApp());
    expect((await learnOn(desktop, { kind: 'check', target: { role: 'button', name: 'Add' }, checked: false })).failure).toBeUndefined();
    expect(desktop.app.count).toBe(0);
    expect((await learnOn(desktop, { kind: 'check', target: { role: 'button', name: 'Add' }, checked: true })).failure).toBeUndefined();
    expect(desktop.app.count).toBe(1);
  });
});

describe('element changes', () => {
  const element = (name: string, extra: object = {}) => ({
    ref: ':1.1/e',
    role: 'entry',
    toolkitRole: 'text',
    name: '',
    label: name,
    description: '',
    index: 0,
    depth: 0,
    states: { focused: false, checked: false, sensitive: true, showing: true, editable: true, selected: false, expanded: false },
    box: { x: 10, y: 10, width: 100, height: 20 },
    text: '',
    ...extra,
  });

  test("keeps what changed, leaves out dynamic regions and the target's own focus, and never a secret's text", () => {
    const before = [element('Name')];
    const after = [element('Name', { text: 'Alice', states: { ...before[0]!.states, focused: true } })];
    expect(elementChanges(before, after, { dynamic: [], secret: false })).toEqual([
      {
        role: 'entry',
        name: 'Name',
        path: [{ role: 'entry', index: 0 }],
        after: { text: 'Alice', focused: true },
        box: { x: 10, y: 10, width: 100, height: 20 },
      },
    ]);
    const target = { role: 'entry', name: 'Name', box: before[0]!.box, path: [{ role: 'entry', index: 0 }] };
    expect(elementChanges(before, after, { dynamic: [], secret: true, target })).toEqual([]);
    expect(elementChanges(before, after, { dynamic: [{ x: 0, y: 0, width: 50, height: 50 }], secret: false })).toEqual([]);
  });

  test('finds the element of an effect by its name wherever it moved, exactly', () => {
    const effect = { role: 'entry', name: 'Name', path: [{ role: 'entry', index: 0 }], after: { text: 'Alice' } };
    const moved = [element('City', { ref: 'a', text: 'Alice' }), element('Name', { ref: 'b', index: 1, text: 'Alic' })];
    expect(checkElementEffect(effect, moved).problem).toBe('the entry "Name" has text "Alic", recorded "Alice"');
    expect(checkElementEffect(effect, [element('Name', { index: 1, text: 'Alice' })]).problem).toBeUndefined();
    expect(checkElementEffect(effect, [element('City')]).problem).toBe('the entry "Name" is not on screen any more');
  });

  test('an element emptied out may leave the tree: it shows nothing either way, and anything else it shows fails', () => {
    const label = (name: string, extra: object = {}) =>
      element('', { role: 'label', toolkitRole: 'label', name, text: undefined, ...extra });
    const emptied = { role: 'label', name: '12 * 7 =', path: [{ role: 'label', index: 0 }], after: { name: '' } };
    expect(checkElementEffect(emptied, [label('')]).problem).toBeUndefined();
    expect(checkElementEffect(emptied, []).problem).toBeUndefined();
    expect(checkElementEffect(emptied, [label('', { box: { x: 10, y: 10, width: 0, height: 0 } })]).problem).toBeUndefined();
    expect(checkElementEffect(emptied, [label('12 * 7 =')]).problem).toBe('the label "12 * 7 =" has name "12 * 7 =", recorded ""');
    expect(checkElementEffect(emptied, [label('84')]).problem).toBe('the label "12 * 7 =" has name "84", recorded ""');
    const renamed = { ...emptied, after: { name: '0' } };
    expect(checkElementEffect(renamed, []).problem).toBe('the label "12 * 7 =" is not on screen any more');
  });
});

describe('element news and descriptions', () => {
  const STATES = { focused: false, checked: false, sensitive: true, showing: true, editable: false, selected: false, expanded: false };
  const window = {
    ref: 'w',
    role: 'window',
    toolkitRole: 'frame',
    name: 'Order',
    description: '',
    states: STATES,
    box: { x: 0, y: 0, width: 400, height: 300 },
    index: 0,
    depth: 0,
  };
  const el = (ref: string, role: string, name: string, index: number, y: number, extra: object = {}) => ({
    ref,
    role,
    toolkitRole: role,
    name,
    description: '',
    states: STATES,
    box: { x: 10, y, width: 200, height: 20 },
    parent: 'w',
    index,
    depth: 1,
    ...extra,
  });
  const before = [window, el('t', 'label', 'Total: 0', 0, 10), el('x', 'checkbox', 'Express', 1, 40)];
  const row = (ref: string, index: number) => el(ref, 'cell', '3 × Tea', index, 70 + index * 20);
  const recorded = [
    {
      role: 'label',
      name: 'Total: 0',
      path: [
        { role: 'window', index: 0 },
        { role: 'label', index: 0 },
      ],
      after: { name: 'Total: 1' },
    },
    {
      role: 'cell',
      name: '3 × Tea',
      path: [
        { role: 'window', index: 0 },
        { role: 'cell', index: 2 },
      ],
      after: { name: '3 × Tea' },
      change: 'appeared' as const,
    },
  ];
  const options = { dynamic: [], secret: false };

  test('what was recorded is no news; one row more than recorded, and a state nobody recorded, are', () => {
    const right = [window, el('t', 'label', 'Total: 1', 0, 10), el('x', 'checkbox', 'Express', 1, 40), row('r1', 2)];
    expect(elementNews(before, right, recorded, options)).toEqual([]);
    const twice = [...right, row('r2', 3)];
    expect(elementNews(before, twice, recorded, options).map((n) => n.element)).toEqual(['2 × cell "3 × Tea" appeared, recorded 1']);
    const unchecked = [
      window,
      el('t', 'label', 'Total: 1', 0, 10),
      el('x', 'checkbox', 'Express', 1, 40, { states: { ...STATES, checked: true } }),
      row('r1', 2),
    ];
    expect(elementNews(before, unchecked, recorded, options).map((n) => n.element)).toEqual(['checkbox "Express" changed: checked true']);
    const focused = [
      window,
      el('t', 'label', 'Total: 1', 0, 10),
      el('x', 'checkbox', 'Express', 1, 40, { states: { ...STATES, focused: true } }),
      row('r1', 2),
    ];
    expect(elementNews(before, focused, recorded, options)).toEqual([]);
  });

  test('a row recorded as appeared must appear on its own element: the same text in a label is not it', () => {
    const elsewhere = [
      window,
      el('t', 'label', 'Total: 1', 0, 10),
      el('x', 'checkbox', 'Express', 1, 40),
      el('s', 'label', '3 × Tea', 2, 70),
    ];
    expect(checkElementEffect(recorded[1]!, elsewhere).problem).toBe('no cell "3 × Tea" appeared');
  });

  test('are said in words for the reports', () => {
    expect(recorded.map(describeElementEffect)).toEqual(['label "Total: 0" → "Total: 1"', 'cell "3 × Tea" appeared']);
    expect(describeElementEffect({ role: 'radio', name: 'Express', path: [], after: { checked: true, focused: false } })).toBe(
      'radio "Express" → checked, not focused',
    );
  });
});
