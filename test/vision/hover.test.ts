/**
 * A hover look in pixels (src/vision/hover.ts): the control lit around the pointer, and what a
 * recolouring of it does not explain. On a drawn check box like Tk's: a grey button whose
 * background and label turn black and white under the pointer, a white indicator beside its label.
 */
import { describe, expect, test } from 'vitest';
import type { Frame, Region } from '../../src/domain.ts';
import { litControl, marksBeyondRecolouring } from '../../src/vision/hover.ts';
import { BLACK, GRAY, WHITE, drawn } from './helpers.ts';

const BUTTON: Region = { x: 20, y: 10, width: 90, height: 22 };
const INDICATOR: Region = { x: 26, y: 16, width: 10, height: 10 };
const LABEL: Region = { x: 44, y: 16, width: 50, height: 10 };
const CHECK: Region = { x: 28, y: 18, width: 6, height: 6 };

/** The check box, lit (`hovered`) or not, checked or not. */
function box(hovered: boolean, checked: boolean): Frame {
  return drawn(130, 44, GRAY, [
    [BUTTON, hovered ? BLACK : GRAY],
    [INDICATOR, WHITE],
    [LABEL, hovered ? WHITE : BLACK],
    ...(checked ? ([[CHECK, BLACK]] as const) : []),
  ]);
}

describe('marksBeyondRecolouring', () => {
  test('lit and checked: the check mark alone', () => {
    expect(marksBeyondRecolouring(box(false, false), box(true, true), BUTTON, 6)).toEqual([CHECK]);
  });

  test('lit only: the recolouring explains it all, nothing to set apart', () => {
    expect(marksBeyondRecolouring(box(false, false), box(true, false), BUTTON, 6)).toBeUndefined();
  });

  test('checked but not lit: its background kept its colour, no hover look to set apart', () => {
    expect(marksBeyondRecolouring(box(false, false), box(false, true), BUTTON, 6)).toBeUndefined();
  });
});

describe('litControl', () => {
  const max = { width: 120, height: 30 };
  const options = { ignore: [], minPixels: 6 };

  test('the whole button lit around the point on its label', () => {
    expect(litControl(box(false, false), box(true, false), { x: 60, y: 20 }, max, options)).toEqual(BUTTON);
  });

  test('a change larger than a control there is none', () => {
    expect(litControl(box(false, false), box(true, false), { x: 60, y: 20 }, { width: 60, height: 30 }, options)).toBeUndefined();
  });

  test('nothing lit where the point is', () => {
    expect(litControl(box(false, false), box(true, false), { x: 120, y: 40 }, max, options)).toBeUndefined();
  });
});
