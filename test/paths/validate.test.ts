/** Path files of both format versions load, with or without a line before; a malformed effect or line is invalid input. */
import { describe, expect, test } from 'vitest';
import { PATH_FORMAT_VERSION, parsePathFile, pathImages } from '../../src/paths/validate.ts';

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
