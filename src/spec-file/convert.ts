/**
 * From validated plain values (the YAML as written, defaults filled in) to the domain types:
 * `[x, y, w, h]` becomes a `Region`, a step mapping an `Action`, an expectation item an
 * `Expectation`. The `Raw…` types state what `validate.ts` guarantees for `specShape`;
 * they are cast to once, in `load.ts`, after validation succeeded.
 */
import type { Action, ElementStateQuery, Region, ScrollDirection, Target } from '../domain.ts';
import type { AppSpec, Expectation, SpecOptions, TextMatch } from './types.ts';

export type RawRegion = readonly [number, number, number, number];
export interface RawElement {
  readonly role: string;
  readonly name?: string;
  readonly nth?: number;
}
export type RawTarget = string | { readonly text: string } | { readonly x: number; readonly y: number } | RawElement;

export type RawStep =
  | { readonly click: RawTarget; readonly changes?: 'nothing' }
  | { readonly 'double-click': RawTarget; readonly changes?: 'nothing' }
  | { readonly 'right-click': RawTarget; readonly changes?: 'nothing' }
  | { readonly type: string | { readonly text: string; readonly into?: RawTarget }; readonly changes?: 'nothing' }
  | { readonly key: string }
  | { readonly wait: number }
  | { readonly 'wait-for': string | { readonly text: string; readonly timeoutMs?: number } }
  | {
      readonly scroll: { readonly direction: ScrollDirection; readonly amount: number; readonly in?: RawTarget };
    }
  | { readonly drag: { readonly from: RawTarget; readonly to: RawTarget } }
  | { readonly check: RawTarget }
  | { readonly uncheck: RawTarget }
  | { readonly select: { readonly option: string; readonly in: RawTarget } };

export type RawExpectation =
  | { readonly text: string; readonly match: TextMatch; readonly region?: RawRegion; readonly timeoutMs?: number }
  | { readonly absent: string; readonly region?: RawRegion; readonly timeoutMs?: number }
  | {
      readonly screenshot: string;
      readonly region?: RawRegion;
      readonly mask: readonly RawRegion[];
      readonly threshold?: number;
      readonly maxDiffPixels?: number;
      readonly maxDiffPixelRatio?: number;
    }
  | { readonly window: string }
  | { readonly exited: number | 'any'; readonly timeoutMs?: number }
  | {
      readonly element: RawElement & ElementStateQuery;
      readonly timeoutMs?: number;
    };

export interface RawGoal {
  readonly id: string;
  readonly goal?: string;
  readonly steps?: readonly RawStep[];
  readonly expect: readonly RawExpectation[];
}

/** The `app:` mapping is already in its final shape once validated. */
export type RawApp = AppSpec;

export interface RawSpec {
  readonly name?: string;
  readonly app: RawApp;
  readonly goals: readonly RawGoal[];
  readonly options?: SpecOptions;
}

export const toRegion = ([x, y, width, height]: RawRegion): Region => ({ x, y, width, height });

export const toTarget = (raw: RawTarget): Target => {
  if (typeof raw === 'string') return { text: raw };
  if ('text' in raw) return { text: raw.text };
  if ('role' in raw) return defined({ role: raw.role, name: raw.name, nth: raw.nth });
  return { x: raw.x, y: raw.y };
};

/** A checkbox given by its name alone is found as an element; other targets as written. */
const checkTarget = (raw: RawTarget): Target => (typeof raw === 'string' ? { role: 'checkbox', name: raw } : toTarget(raw));

/** Only keys with a value, so a canonical JSON of the action (the path's source hash) is stable. */
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export function toAction(step: RawStep): Action {
  const changes = 'changes' in step ? step.changes : undefined;
  if ('click' in step) return defined({ kind: 'click', target: toTarget(step.click), changes });
  if ('double-click' in step) return defined({ kind: 'double-click', target: toTarget(step['double-click']), changes });
  if ('right-click' in step) return defined({ kind: 'right-click', target: toTarget(step['right-click']), changes });
  if ('type' in step) {
    const t = step.type;
    return typeof t === 'string'
      ? defined({ kind: 'type', text: t, changes })
      : defined({ kind: 'type', text: t.text, into: t.into === undefined ? undefined : toTarget(t.into), changes });
  }
  if ('key' in step) return { kind: 'key', combo: step.key };
  if ('wait' in step) return { kind: 'wait', ms: step.wait };
  if ('wait-for' in step) {
    const w = step['wait-for'];
    return typeof w === 'string' ? { kind: 'wait-for', text: w } : defined({ kind: 'wait-for', text: w.text, timeoutMs: w.timeoutMs });
  }
  if ('scroll' in step) {
    const s = step.scroll;
    return defined({
      kind: 'scroll',
      direction: s.direction,
      amount: s.amount,
      target: s.in === undefined ? undefined : toTarget(s.in),
    });
  }
  if ('check' in step) return { kind: 'check', target: checkTarget(step.check), checked: true };
  if ('uncheck' in step) return { kind: 'check', target: checkTarget(step.uncheck), checked: false };
  if ('select' in step) return { kind: 'select', option: step.select.option, target: toTarget(step.select.in) };
  return { kind: 'drag', from: toTarget(step.drag.from), to: toTarget(step.drag.to) };
}

const region = (r: RawRegion | undefined): Region | undefined => (r === undefined ? undefined : toRegion(r));

export function toExpectation(raw: RawExpectation, line: number): Expectation {
  if ('text' in raw) {
    return defined({
      kind: 'text',
      text: raw.text,
      match: raw.match,
      region: region(raw.region),
      timeoutMs: raw.timeoutMs,
      line,
    });
  }
  if ('absent' in raw) {
    return defined({ kind: 'absent', text: raw.absent, region: region(raw.region), timeoutMs: raw.timeoutMs, line });
  }
  if ('screenshot' in raw) {
    return defined({
      kind: 'screenshot',
      name: raw.screenshot,
      region: region(raw.region),
      mask: raw.mask.map(toRegion),
      threshold: raw.threshold,
      maxDiffPixels: raw.maxDiffPixels,
      maxDiffPixelRatio: raw.maxDiffPixelRatio,
      line,
    });
  }
  if ('element' in raw) {
    const e = raw.element;
    return defined({
      kind: 'element',
      role: e.role,
      name: e.name,
      nth: e.nth,
      text: e.text,
      value: e.value,
      checked: e.checked,
      sensitive: e.sensitive,
      focused: e.focused,
      selected: e.selected,
      timeoutMs: raw.timeoutMs,
      line,
    });
  }
  if ('exited' in raw) return defined({ kind: 'exited', code: raw.exited, timeoutMs: raw.timeoutMs, line });
  return { kind: 'window', title: raw.window, line };
}
