/**
 * A person's input, folded into the actions a path records: a press and release in place is a
 * click (a second one in place a double-click), a press moved away before its release a drag, a
 * run of typed characters one `type`, a key with a modifier (or a named key) one `key` combo,
 * consecutive wheel notches one `scroll`. Pure: events in (each carrying whatever the caller
 * noted when it arrived, such as the screen at that moment), steps out.
 */
import type { Action, Point } from '../domain.ts';
import type { InputEvent } from '../desktop/index.ts';

/** How far a press may move before its release and still be a click, in pixels. */
const CLICK_SLOP = 4;

/** An action with screen-absolute points, and the note of the event that began it. */
export interface DemoStep<Note> {
  readonly action: Action;
  readonly note: Note;
  /** When the first event of the action arrived (performance.now()). */
  readonly at: number;
}

export type NotedEvent<Note> = InputEvent & { readonly note: Note };

const near = (a: Point, b: Point): boolean => Math.abs(a.x - b.x) <= CLICK_SLOP && Math.abs(a.y - b.y) <= CLICK_SLOP;

/** `ctrl+shift+s`, `shift+Tab`, `Enter`: the combo a key event spells. */
export const comboOf = (event: Extract<InputEvent, { kind: 'key' }>): string => [...event.modifiers, event.key].join('+');

/** Whether a key event types its character (no modifier but shift changes what it means). */
const types = (event: Extract<InputEvent, { kind: 'key' }>): boolean =>
  event.char !== undefined && event.modifiers.every((m) => m === 'shift');

export function foldDemonstration<Note>(events: readonly NotedEvent<Note>[]): DemoStep<Note>[] {
  const steps: DemoStep<Note>[] = [];
  let pressed: Extract<NotedEvent<Note>, { kind: 'press' }> | undefined;
  let previous: NotedEvent<Note> | undefined;
  const push = (action: Action, from: NotedEvent<Note>): void => void steps.push({ action, note: from.note, at: from.at });

  for (const event of events) {
    const last = steps.at(-1);
    switch (event.kind) {
      case 'press':
        pressed = event;
        break;
      case 'release': {
        const down = pressed;
        pressed = undefined;
        if (!down || down.button !== event.button || down.button === 'middle') break;
        if (!near(down.point, event.point)) {
          if (down.button === 'left') push({ kind: 'drag', from: down.point, to: event.point }, down);
          break;
        }
        if (down.button === 'right') {
          push({ kind: 'right-click', target: down.point }, down);
          break;
        }
        if (down.clicks >= 2 && last?.action.kind === 'click' && 'x' in last.action.target && near(last.action.target, down.point)) {
          steps[steps.length - 1] = { ...last, action: { kind: 'double-click', target: last.action.target } };
          break;
        }
        push({ kind: 'click', target: down.point }, down);
        break;
      }
      case 'wheel': {
        const merge = previous?.kind === 'wheel' && last?.action.kind === 'scroll' && last.action.direction === event.direction;
        if (merge && last.action.kind === 'scroll') {
          steps[steps.length - 1] = { ...last, action: { ...last.action, amount: last.action.amount + event.amount } };
        } else {
          push({ kind: 'scroll', direction: event.direction, amount: event.amount, target: event.point }, event);
        }
        break;
      }
      case 'key': {
        if (!types(event)) {
          push({ kind: 'key', combo: comboOf(event) }, event);
          break;
        }
        const char = event.char ?? '';
        const extend = previous?.kind === 'key' && types(previous) && last?.action.kind === 'type';
        if (extend && last.action.kind === 'type')
          steps[steps.length - 1] = { ...last, action: { kind: 'type', text: last.action.text + char } };
        else push({ kind: 'type', text: char }, event);
        break;
      }
    }
    // A press alone is not an action yet: what it becomes depends on its release.
    if (event.kind !== 'press') previous = event;
  }
  return steps;
}
