/**
 * Turns one computer-use call of the model into retrace Actions, or into an answer that needs
 * no action (a screenshot, a pointer move), or into a refusal the model reads as a tool error.
 * Pure: the planner owns the conversation, this module only reads one call.
 */
import type { Action, Point, ScrollDirection } from '../../domain.ts';
import { toShotPoint, toWindowPoint, type ShotGeometry } from './claude-screenshot.ts';
import type { OfferedElement } from './types.ts';
import { centre } from '../locate.ts';

/** What the planner does with one call. Coordinates in `cursor` are window-relative. */
export type CallPlan =
  | {
      readonly kind: 'act';
      /** Performed in order, one step each. */
      readonly actions: readonly Action[];
      /** Acknowledgement the model reads once the actions were performed. */
      readonly ack: string;
      readonly cursor?: Point;
    }
  | { readonly kind: 'observe'; readonly text: string; readonly cursor?: Point }
  | { readonly kind: 'reject'; readonly error: string };

export interface CallContext {
  readonly geometry: ShotGeometry;
  /** Where the last move or click left the pointer, window-relative. */
  readonly cursor?: Point;
  /** Names usable as `${secret.NAME}`. */
  readonly secretNames: readonly string[];
  /** Longest `wait`, in ms. @default 10000 */
  readonly maxWaitMs?: number;
  /** Most presses of one `key` call with `repeat`. @default 20 */
  readonly maxKeyRepeat?: number;
}

const SCROLL_DIRECTIONS: readonly ScrollDirection[] = ['up', 'down', 'left', 'right'];
const MAX_SCROLL_AMOUNT = 50;

const UNSUPPORTED: Readonly<Record<string, string>> = {
  triple_click: 'triple_click is not available here; use double_click, or key ctrl+a to select all',
  middle_click: 'middle_click is not available here; use left_click or right_click',
  left_mouse_down: 'left_mouse_down is not available here; use left_click_drag',
  left_mouse_up: 'left_mouse_up is not available here; use left_click_drag',
  hold_key: 'hold_key is not available here; use key',
  zoom: 'zoom is not available here; the screenshot shows the whole window',
};

const reject = (error: string): CallPlan => ({ kind: 'reject', error });

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const fmt = (p: Point): string => `[${p.x}, ${p.y}]`;

/**
 * Plans one call. `action` is the action name: `input.action` for the single `computer` tool,
 * the tool_use name for a toolset member.
 */
export function planComputerCall(action: string, input: Record<string, unknown>, ctx: CallContext): CallPlan {
  const g = ctx.geometry;

  /** The point a pointer action targets: its coordinate, else the pointer's position. */
  const pointer = (key = 'coordinate'): { point: Point } | { error: string } => {
    if (input[key] === undefined || input[key] === null) {
      return ctx.cursor ? { point: ctx.cursor } : { error: `${action} needs ${key}: [x, y] (the pointer position is not known yet)` };
    }
    const p = toWindowPoint(input[key], g);
    return p.ok ? { point: p.point } : { error: `${action}: ${p.reason}` };
  };
  const modifierError = (): string | undefined => {
    const held = str(input.text);
    return held ? `${action} with held keys (${held}) is not available here; press keys with key instead` : undefined;
  };
  const shown = (p: Point): string => fmt(toShotPoint(p, g));

  if (action in UNSUPPORTED) return reject(UNSUPPORTED[action]!);

  switch (action) {
    case 'screenshot':
      return { kind: 'observe', text: 'Here is the current screen.' };

    case 'cursor_position':
      return {
        kind: 'observe',
        text: ctx.cursor ? `X=${toShotPoint(ctx.cursor, g).x},Y=${toShotPoint(ctx.cursor, g).y}` : 'The pointer position is not known.',
      };

    case 'mouse_move': {
      const p = toWindowPoint(input.coordinate, g);
      if (!p.ok) return reject(`mouse_move: ${p.reason}`);
      return {
        kind: 'observe',
        cursor: p.point,
        text: `The pointer is at ${shown(p.point)}. Hovering alone is not recorded; click to act.`,
      };
    }

    case 'left_click':
    case 'double_click':
    case 'right_click': {
      const held = modifierError();
      if (held) return reject(held);
      const at = pointer();
      if ('error' in at) return reject(at.error);
      const kind = action === 'left_click' ? 'click' : action === 'double_click' ? 'double-click' : 'right-click';
      const verb = action === 'left_click' ? 'Clicked' : action === 'double_click' ? 'Double-clicked' : 'Right-clicked';
      return { kind: 'act', actions: [{ kind, target: at.point }], ack: `${verb} at ${shown(at.point)}.`, cursor: at.point };
    }

    case 'left_click_drag': {
      const held = modifierError();
      if (held) return reject(held);
      const from = pointer('start_coordinate');
      if ('error' in from) return reject(from.error);
      const to = toWindowPoint(input.coordinate, g);
      if (!to.ok) return reject(`left_click_drag: ${to.reason}`);
      return {
        kind: 'act',
        actions: [{ kind: 'drag', from: from.point, to: to.point }],
        ack: `Dragged from ${shown(from.point)} to ${shown(to.point)}.`,
        cursor: to.point,
      };
    }

    case 'type': {
      const text = str(input.text);
      if (!text) return reject('type needs text: a non-empty string');
      const unknown = unknownSecrets(text, ctx.secretNames);
      if (unknown.length > 0) {
        const known = ctx.secretNames.map((n) => `\${secret.${n}}`).join(', ') || 'none';
        return reject(`type: ${unknown.map((n) => `\${secret.${n}}`).join(', ')} is not a known secret (known: ${known})`);
      }
      return { kind: 'act', actions: [{ kind: 'type', text }], ack: 'Typed.' };
    }

    case 'key': {
      const combo = str(input.text)?.trim();
      if (!combo) return reject('key needs text: a key or combination such as "Return" or "ctrl+s"');
      const repeat = input.repeat === undefined || input.repeat === null ? 1 : input.repeat;
      const maxRepeat = ctx.maxKeyRepeat ?? 20;
      if (typeof repeat !== 'number' || !Number.isInteger(repeat) || repeat < 1 || repeat > maxRepeat) {
        return reject(`key: repeat must be a whole number from 1 to ${maxRepeat}; got ${JSON.stringify(repeat)}`);
      }
      const actions: Action[] = Array.from({ length: repeat }, () => ({ kind: 'key', combo }));
      return { kind: 'act', actions, ack: repeat === 1 ? `Pressed ${combo}.` : `Pressed ${combo} ${repeat} times.` };
    }

    case 'scroll': {
      const held = modifierError();
      if (held) return reject(held);
      const direction = str(input.scroll_direction) as ScrollDirection | undefined;
      if (!direction || !SCROLL_DIRECTIONS.includes(direction)) {
        return reject(`scroll needs scroll_direction: one of ${SCROLL_DIRECTIONS.join(', ')}`);
      }
      const amount = input.scroll_amount ?? 3;
      if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) {
        return reject(`scroll needs scroll_amount: a positive number of wheel clicks`);
      }
      let target: Point | undefined;
      if (input.coordinate !== undefined && input.coordinate !== null) {
        const p = toWindowPoint(input.coordinate, g);
        if (!p.ok) return reject(`scroll: ${p.reason}`);
        target = p.point;
      }
      const clicks = Math.min(MAX_SCROLL_AMOUNT, Math.max(1, Math.round(amount)));
      return {
        kind: 'act',
        actions: [{ kind: 'scroll', direction, amount: clicks, ...(target ? { target } : {}) }],
        ack: `Scrolled ${direction} ${clicks}.`,
        ...(target ? { cursor: target } : {}),
      };
    }

    case 'wait': {
      const seconds = input.duration ?? 1;
      if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
        return reject('wait needs duration: a number of seconds');
      }
      const ms = Math.min(ctx.maxWaitMs ?? 10_000, Math.round(seconds * 1000));
      return { kind: 'act', actions: [{ kind: 'wait', ms }], ack: `Waited ${ms / 1000}s.` };
    }

    default:
      return reject(`unknown action ${JSON.stringify(action)}`);
  }
}

/** Names used as `${secret.NAME}` in `text` that are not in `known`. */
export function unknownSecrets(text: string, known: readonly string[]): string[] {
  const names = [...text.matchAll(/\$\{secret\.([^}]*)\}/g)].map((m) => m[1]!);
  return [...new Set(names.filter((n) => !known.includes(n)))];
}

/** The custom tool that clicks an element of the element list by its ref. */
export const CLICK_ELEMENT = 'click_element';

const CLICKS = { left: 'click', double: 'double-click', right: 'right-click' } as const;
const CLICKED = { left: 'Clicked', double: 'Double-clicked', right: 'Right-clicked' } as const;

/** The `tools[]` entry of {@link CLICK_ELEMENT}. */
export const clickElementDeclaration = (): Record<string, unknown> => ({
  name: CLICK_ELEMENT,
  description:
    'Clicks an element of the newest element list by its ref (e1, e2, …): the centre of its box. ' +
    "Prefer it to a coordinate click when the control is listed; the click is recorded by the element's role and name.",
  input_schema: {
    type: 'object',
    properties: {
      ref: { type: 'string', description: 'The ref of an element of the newest list, e.g. "e3".' },
      click: { type: 'string', enum: Object.keys(CLICKS), description: 'Which click. Default: left.' },
    },
    required: ['ref'],
  },
});

/**
 * Plans a {@link CLICK_ELEMENT} call: a click on the element the ref names in `offered` (the list
 * sent with the newest screenshot), by its element target when it has one, else at its box's centre.
 */
export function planElementClick(
  input: Record<string, unknown>,
  offered: readonly OfferedElement[] | undefined,
  g: ShotGeometry,
): CallPlan {
  if (offered === undefined)
    return reject(`${CLICK_ELEMENT}: the newest screenshot came without an element list; click at a coordinate instead`);
  const ref = str(input.ref)?.trim() ?? '';
  const index = /^e([1-9]\d*)$/.exec(ref)?.[1];
  const element = index === undefined ? undefined : offered[Number(index) - 1];
  if (element === undefined) {
    return reject(
      `${CLICK_ELEMENT}: ${JSON.stringify(input.ref ?? null)} is not a ref of the newest element list (e1 to e${offered.length})`,
    );
  }
  const which = input.click === undefined || input.click === null ? 'left' : str(input.click);
  if (which !== 'left' && which !== 'double' && which !== 'right') {
    return reject(`${CLICK_ELEMENT}: click must be one of ${Object.keys(CLICKS).join(', ')}; got ${JSON.stringify(input.click)}`);
  }
  const at = centre(element.box);
  const what = `${element.role} ${JSON.stringify(element.name)}`;
  return {
    kind: 'act',
    actions: [{ kind: CLICKS[which], target: element.target ?? at }],
    ack: `${CLICKED[which]} ${what} (${ref}) at ${fmt(toShotPoint(at, g))}.`,
    cursor: at,
  };
}
