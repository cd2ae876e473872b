/**
 * Points and regions of a goal checked against a window size, when one is known before the run:
 * the spec's `app.size`, or the window a goal's path was recorded in. A click outside the window
 * lands on nothing of the application (and would record an empty anchor); a region wholly outside
 * it holds nothing to read or compare, so an `absent:` there would pass without looking.
 */
import type { Point, Region, Target } from '../domain.ts';
import { isPointTarget } from '../domain.ts';
import type { GoalSpec } from './types.ts';

export interface WindowSize {
  readonly width: number;
  readonly height: number;
}

/** One point or region outside the window: in which step or expectation (by index), and what. */
export interface OutOfWindow {
  readonly step?: number;
  readonly expect?: number;
  readonly detail: string;
}

const inside = (p: Point, size: WindowSize): boolean => p.x < size.width && p.y < size.height;
const overlaps = (r: Region, size: WindowSize): boolean => r.x < size.width && r.y < size.height;
const sizeText = (size: WindowSize): string => `${size.width}×${size.height}`;
const regionText = (r: Region): string => `[${r.x}, ${r.y}, ${r.width}, ${r.height}]`;

/** The targets a step points at, with what it does there ("drag from"). */
export function stepTargets(
  action: NonNullable<GoalSpec['steps']>[number],
): { readonly what: string; readonly target: Target | undefined }[] {
  switch (action.kind) {
    case 'click':
    case 'double-click':
    case 'right-click':
      return [{ what: action.kind, target: action.target }];
    case 'type':
      return [{ what: 'type into', target: action.into }];
    case 'scroll':
      return [{ what: 'scroll in', target: action.target }];
    case 'check':
      return [{ what: action.checked ? 'check' : 'uncheck', target: action.target }];
    case 'select':
      return [{ what: 'select in', target: action.target }];
    case 'drag':
      return [
        { what: 'drag from', target: action.from },
        { what: 'drag to', target: action.to },
      ];
    default:
      return [];
  }
}

/** Every point of `goal`'s steps and every region of its expectations that lies outside `size`. */
export function outsideWindow(goal: GoalSpec, size: WindowSize): OutOfWindow[] {
  const found: OutOfWindow[] = [];
  goal.steps?.forEach((action, step) => {
    for (const { what, target } of stepTargets(action)) {
      if (!target || !isPointTarget(target) || inside(target, size)) continue;
      found.push({ step, detail: `${what} at (${target.x}, ${target.y}) is outside the ${sizeText(size)} window` });
    }
  });
  goal.expect.forEach((e, expect) => {
    if (e.kind === 'window' || e.kind === 'element' || e.kind === 'exited') return;
    const regions = [
      ...(e.region ? [{ what: 'region', region: e.region }] : []),
      ...(e.kind === 'screenshot' ? e.mask.map((region, i) => ({ what: `mask[${i}]`, region })) : []),
    ];
    for (const { what, region } of regions) {
      if (overlaps(region, size)) continue;
      found.push({
        expect,
        detail: `${what} ${regionText(region)} lies entirely outside the ${sizeText(size)} window: there is nothing of the application there`,
      });
    }
  });
  return found;
}
