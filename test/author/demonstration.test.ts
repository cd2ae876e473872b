/** Folding a person's input events into the actions a path records. */
import { describe, expect, test } from 'vitest';
import { foldDemonstration, type NotedEvent } from '../../src/author/demonstration.ts';
import { keyEventOf } from '../../src/desktop/input-listener.ts';
import { secretHider } from '../../src/cli/commands/record.ts';

let clock = 0;
const at = (): number => (clock += 10);
const press = (x: number, y: number, clicks = 1, button: 'left' | 'right' = 'left'): NotedEvent<number> => ({
  kind: 'press',
  button,
  point: { x, y },
  clicks,
  at: at(),
  note: clock,
});
const release = (x: number, y: number, button: 'left' | 'right' = 'left'): NotedEvent<number> => ({
  kind: 'release',
  button,
  point: { x, y },
  at: at(),
  note: clock,
});
const key = (code: number, mods: { shiftKey?: boolean; ctrlKey?: boolean } = {}): NotedEvent<number> => {
  const e = keyEventOf(code, { altKey: false, metaKey: false, shiftKey: false, ctrlKey: false, ...mods }, at());
  if (!e) throw new Error(`no key for ${code}`);
  return { ...e, note: clock };
};

describe('foldDemonstration', () => {
  test('clicks, a double-click, a right-click, a drag, typed text, combos and scrolls', () => {
    const steps = foldDemonstration([
      press(10, 10),
      release(11, 10),
      press(50, 50),
      release(50, 50),
      press(50, 51, 2),
      release(50, 51),
      press(70, 70, 1, 'right'),
      release(70, 70, 'right'),
      press(5, 5),
      release(80, 90),
      key(35, { shiftKey: true }),
      key(23),
      key(57),
      key(2, { shiftKey: true }),
      key(31, { ctrlKey: true }),
      key(28),
      key(15, { shiftKey: true }),
      { kind: 'wheel', point: { x: 9, y: 9 }, direction: 'down', amount: 1, at: at(), note: 0 },
      { kind: 'wheel', point: { x: 9, y: 9 }, direction: 'down', amount: 2, at: at(), note: 0 },
      key(30),
    ]);
    expect(steps.map((s) => s.action)).toEqual([
      { kind: 'click', target: { x: 10, y: 10 } },
      { kind: 'double-click', target: { x: 50, y: 50 } },
      { kind: 'right-click', target: { x: 70, y: 70 } },
      { kind: 'drag', from: { x: 5, y: 5 }, to: { x: 80, y: 90 } },
      { kind: 'type', text: 'Hi !' },
      { kind: 'key', combo: 'ctrl+s' },
      { kind: 'key', combo: 'Enter' },
      { kind: 'key', combo: 'shift+Tab' },
      { kind: 'scroll', direction: 'down', amount: 3, target: { x: 9, y: 9 } },
      { kind: 'type', text: 'a' },
    ]);
  });

  test('each action keeps the note of the event that began it', () => {
    clock = 0;
    const steps = foldDemonstration([key(30), key(48), press(1, 1), release(1, 1)]);
    expect(steps.map((s) => s.note)).toEqual([10, 30]);
  });

  test('a lone modifier is no key event', () => {
    expect(keyEventOf(42, { altKey: false, metaKey: false, shiftKey: true, ctrlKey: false }, 0)).toBeUndefined();
  });
});

describe('secretHider', () => {
  test('puts the placeholder back in place of a secret value the spec uses, and only those', () => {
    const hide = secretHider('login:\n  type: "${secret.PASSWORD}" ${env.USER}', { PASSWORD: 'hunter22', USER: 'ann', OTHER: 'x' });
    expect(hide('hunter22')).toBe('${secret.PASSWORD}');
    expect(hide('ann:hunter22!')).toBe('ann:${secret.PASSWORD}!');
    expect(hide('x')).toBe('x');
  });
});
