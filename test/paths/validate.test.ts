/** Path files of both format versions load, with or without a line before; a malformed effect or line is invalid input. */
import { describe, expect, test } from 'vitest';
import { PATH_FORMAT_VERSION } from '../../src/paths/path-shape.ts';
import { parsePathFile, pathImages } from '../../src/paths/validate.ts';

const file = (version: number, effect: Record<string, unknown>, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    version,
    spec: 'specs/a.yaml',
    goal: 'g',
    planner: 'rules',
    source: { kind: 'goal', hash: 'x', text: 'click "1"' },
    window: { width: 100, height: 100 },
    actions: [
      {
        action: { kind: 'click', target: { text: '1' } },
        before: 'fp',
        after: 'fp',
        effects: [effect],
        dynamic: [],
        settleMs: 0,
        ...extra,
      },
    ],
  });

const region = { x: 1, y: 2, width: 3, height: 4 };

describe('parsePathFile', () => {
  test('a version 1 file, whose effects say nothing of their kind, still loads', () => {
    const path = parsePathFile('g.path.json', file(1, { region, image: 'a.png', text: '7' }));
    expect(path.actions[0]?.effects[0]).toEqual({ region, image: 'a.png', text: '7' });
  });

  test('effects of the current version carry their kind and role', () => {
    expect(PATH_FORMAT_VERSION).toBe(3);
    const path = parsePathFile('g.path.json', file(2, { region, kind: 'text', image: 'a.png', text: 'Error', role: 'alert' }));
    expect(path.actions[0]?.effects[0]).toMatchObject({ kind: 'text', role: 'alert' });
  });

  test('element effects say what appeared or went, and where; a pixel effect they decide is element evidence; version 2 still loads', () => {
    const elements = [
      {
        role: 'item',
        name: '3 × Tea',
        path: [
          { role: 'window', index: 0 },
          { role: 'item', index: 2 },
        ],
        after: { name: '3 × Tea' },
        change: 'appeared',
        box: region,
      },
      { role: 'label', name: 'Total: 0', path: [{ role: 'label', index: 1 }], after: { name: 'Total: 1' } },
    ];
    const path = parsePathFile('g.path.json', file(3, { region, kind: 'element', image: 'a.png', text: '3 × Tea' }, { elements }));
    expect(path.actions[0]?.elements).toEqual(elements);
    expect(path.actions[0]?.effects[0]?.kind).toBe('element');
    expect(
      parsePathFile('g.path.json', file(2, { region, kind: 'look', image: 'a.png' }, { elements: elements.slice(1) })).actions[0]?.elements,
    ).toHaveLength(1);
    expect(() =>
      parsePathFile('g.path.json', file(3, { region, kind: 'look' }, { elements: [{ ...elements[0], change: 'moved' }] })),
    ).toThrow(/g\.path\.json.*actions\[0\]\.elements\[0\]\.change/);
  });

  test('an effect of an unknown kind names the file and the place', () => {
    expect(() => parsePathFile('g.path.json', file(2, { region, kind: 'sparkle' }))).toThrow(
      /g\.path\.json.*actions\[0\]\.effects\[0\]\.kind/,
    );
  });

  test("a first action's line before it loads, and its image is one of the path's images", () => {
    const path = parsePathFile(
      'g.path.json',
      file(2, { region, kind: 'text', image: 'a.png', text: '7' }, { beforeLine: { region, image: 'b.png' } }),
    );
    expect(path.actions[0]?.beforeLine).toEqual({ region, image: 'b.png' });
    expect(pathImages(path).map((i) => i.name)).toEqual(['a.png', 'b.png']);
  });

  test('a line before whose image leaves the assets folder names the file and the place', () => {
    expect(() => parsePathFile('g.path.json', file(2, { region, kind: 'look' }, { beforeLine: { region, image: '../x.png' } }))).toThrow(
      /g\.path\.json.*actions\[0\]\.beforeLine\.image/,
    );
  });
});

/** A valid file of the current version with `edit` applied to its JSON. */
const edited = (edit: (path: Record<string, any>) => void): string => {
  const path = JSON.parse(file(3, { region, kind: 'text', image: 'a.png', text: '7' })) as Record<string, any>;
  edit(path);
  return JSON.stringify(path, null, 2);
};

describe('parsePathFile checks every part of the file, naming the key, what it must be, and the line', () => {
  const CASES: readonly [string, (path: Record<string, any>) => void, RegExp][] = [
    ['a version from the future', (p) => void (p.version = 4), /version 4 is newer than this retrace reads \(up to 3\)/],
    ['no version', (p) => void delete p.version, /version must be a positive integer/],
    ['a window of no width', (p) => void (p.window.width = 0), /window must be \{ width, height \} in pixels, from 1 to 32767, got/],
    ['no spec', (p) => void delete p.spec, /: spec must be a string, got nothing/],
    ['a source without its hash', (p) => void delete p.source.hash, /source\.hash must be a string, got nothing/],
    [
      'a pointer far off',
      (p) => void (p.pointer = { x: 40_000, y: 0 }),
      /pointer must be \{ x, y \} in whole pixels relative to the window, within ±32767/,
    ],
    [
      'an action without a kind',
      (p) => void delete p.actions[0].action.kind,
      /actions\[0\]\.action\.kind must be one of click, double-click, .*wait-for, got nothing/,
    ],
    [
      'a target of no known form',
      (p) => void (p.actions[0].action.target = { label: 'x' }),
      /actions\[0\]\.action\.target must be \{ text \} or \{ role, name, nth \} or a point inside the recorded 100×100 window/,
    ],
    [
      'an element target with a fractional nth',
      (p) => void (p.actions[0].action.target = { role: 'button', nth: 1.5 }),
      /action\.target\.nth must be an integer from 0 to 10000, got 1\.5/,
    ],
    [
      'a scroll of no notches',
      (p) => void (p.actions[0].action = { kind: 'scroll', direction: 'up', amount: 0 }),
      /action\.amount must be a whole number of notches from 1 to 1000, got 0/,
    ],
    [
      'a scroll sideways',
      (p) => void (p.actions[0].action = { kind: 'scroll', direction: 'sideways', amount: 1 }),
      /action\.direction must be one of up, down, left, right/,
    ],
    [
      'a wait of over an hour',
      (p) => void (p.actions[0].action = { kind: 'wait', ms: 3_600_001 }),
      /action\.ms must be an integer from 0 to 3600000/,
    ],
    [
      'a check without its state',
      (p) => void (p.actions[0].action = { kind: 'check', target: { text: 'a' } }),
      /action\.checked must be true or false, got nothing/,
    ],
    [
      'a key combo no keyboard has',
      (p) => void (p.actions[0].action = { kind: 'key', combo: 'ctrl+shfit+s' }),
      /action\.combo "ctrl\+shfit\+s" is not a key combo: .*shfit/,
    ],
    ['no fingerprint after', (p) => void delete p.actions[0].after, /actions\[0\]\.after must be a fingerprint \(a string\), got nothing/],
    [
      'an exit effect without its status',
      (p) => void (p.actions[0].effects[0] = { region, kind: 'exit' }),
      /effects\[0\]\.exit must be \{ code, signal \}: an exit code \(or null\) and a signal name \(or null\), got nothing/,
    ],
    [
      'an exit status with a code of text',
      (p) => void (p.actions[0].effects[0] = { region, kind: 'exit', exit: { code: '1', signal: null } }),
      /effects\[0\]\.exit must be \{ code, signal \}/,
    ],
    [
      'a text role of no meaning',
      (p) => void (p.actions[0].effects[0].role = 'warning'),
      /effects\[0\]\.role must be one of alert, success/,
    ],
    [
      'a dynamic region off the window',
      (p) => void (p.actions[0].dynamic = [{ x: 100, y: 0, width: 1, height: 1 }]),
      /dynamic\[0\] must be a region \{ x, y, width, height \} starting inside the recorded 100×100 window/,
    ],
    [
      'an element path step without an index',
      (p) => void (p.actions[0].elements = [{ role: 'label', name: 'a', path: [{ role: 'label' }], after: {} }]),
      /elements\[0\]\.path\[0\]\.index must be an integer from 0 to 100000, got nothing/,
    ],
    [
      'an element anchor whose box is fractional',
      (p) =>
        void (p.actions[0].anchor = {
          point: { x: 1, y: 1 },
          box: region,
          image: 'a.png',
          element: { role: 'button', name: 'b', box: { ...region, x: 0.5 }, path: [] },
        }),
      /anchor\.element\.box must be a box \{ x, y, width, height \} in whole pixels/,
    ],
  ];

  test.each(CASES)('%s', (_name, edit, message) => {
    const text = edited(edit);
    expect(() => parsePathFile('g.path.json', text)).toThrow(message);
  });

  test('the line named is that of the offending value', () => {
    const text = edited((p) => void (p.actions[0].effects[0].role = 'warning'));
    expect(() => parsePathFile('g.path.json', text)).toThrow(
      `g.path.json:${text.split('\n').findIndex((l) => l.includes('"warning"')) + 1}`,
    );
  });

  test('an exit effect with its status, null code and all, loads; unknown keys are let through for a newer retrace', () => {
    const text = edited((p) => {
      p.actions[0].effects[0] = { region, kind: 'exit', exit: { code: null, signal: 'SIGTERM' } };
      p.actions[0].laterKey = 1;
    });
    expect(parsePathFile('g.path.json', text).actions[0]?.effects[0]?.exit).toEqual({ code: null, signal: 'SIGTERM' });
  });
});
