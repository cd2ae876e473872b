/**
 * A target drawn at another scale (issue 24, item 6): what replay knows of it at its recorded size
 * — the anchor's crop around it, its focus ring — is mapped into its element's box now, and the
 * margins around it grow with it.
 */
import { describe, expect, test } from 'vitest';
import { drawnLarger, sameShareOf } from '../../src/brain/elements.ts';
import { elementEvidence } from '../../src/brain/element-effects.ts';
import type { Element } from '../../src/desktop/types.ts';
import type { ElementEffect } from '../../src/domain.ts';

const recorded = { x: 18, y: 16, width: 100, height: 44 };

describe('a target drawn larger', () => {
  test("the anchor's crop around the button, recorded at scale 1, lies around the button drawn at scale 2", () => {
    const now = { x: 36, y: 32, width: 200, height: 88 };
    expect(sameShareOf({ x: 16, y: 14, width: 104, height: 48 }, recorded, now)).toEqual({ x: 32, y: 28, width: 208, height: 96 });
    expect(sameShareOf(recorded, recorded, now)).toEqual(now);
  });

  test('moved without a change of size, a region only moves', () => {
    const now = { x: 58, y: 36, width: 100, height: 44 };
    expect(sameShareOf({ x: 10, y: 8, width: 116, height: 60 }, recorded, now)).toEqual({ x: 50, y: 28, width: 116, height: 60 });
  });

  test('how much larger: by its height; never below 1, so a smaller drawing keeps the recorded margins', () => {
    expect(drawnLarger({ x: 0, y: 0, width: 200, height: 88 }, recorded)).toBe(2);
    expect(drawnLarger({ x: 0, y: 0, width: 160, height: 66 }, recorded)).toBe(1.5);
    expect(drawnLarger({ x: 0, y: 0, width: 80, height: 35 }, recorded)).toBe(1);
    expect(drawnLarger({ x: 0, y: 0, width: 80, height: 35 }, { ...recorded, height: 0 })).toBe(1);
  });
});

describe('a change on an element, replayed', () => {
  const dialog: ElementEffect = {
    role: 'dialog',
    name: 'Order',
    path: [],
    after: { name: 'Order' },
    change: 'appeared',
    box: { x: 114, y: 137, width: 172, height: 106 },
  };
  const now: Element = {
    ref: ':1.1/dialog',
    role: 'dialog',
    toolkitRole: 'dialog',
    name: 'Order',
    description: '',
    states: { focused: false, checked: false, sensitive: true, showing: true, editable: false, selected: false, expanded: false },
    box: { x: 114, y: 237, width: 172, height: 106 },
    index: 0,
    depth: 1,
  };
  const change = { region: { x: 111, y: 134, width: 177, height: 112 }, kind: 'element' as const };

  test('is where its element is now, not moved with the target that brought it', () => {
    expect(elementEvidence([change], [{ effect: dialog, element: now }])).toEqual([{ x: 111, y: 234, width: 177, height: 112 }]);
  });

  test('accounts for nothing when its element effect did not hold, or for a change no element decides', () => {
    expect(elementEvidence([change], [{ effect: dialog, element: undefined }])).toEqual([]);
    expect(elementEvidence([{ ...change, kind: 'look' }], [{ effect: dialog, element: now }])).toEqual([]);
  });
});
