/** The console of `retrace run` on a terminal: what the screen shows after the workers' messages. */
import { describe, expect, test } from 'vitest';
import { LiveConsole } from '../../src/runner/console.ts';
import { goalEndOf } from '../../src/runner/goal-report.ts';
import type { Verdict } from '../../src/domain.ts';
import { Screen } from '../support/terminal.ts';

const verdict = (spec: string, goal: string, over: Partial<Verdict> = {}): Verdict => ({
  spec,
  goal,
  status: 'passed',
  mode: 'replayed',
  modelCalls: 0,
  durationMs: 1200,
  actions: [],
  ...over,
});
const failed = (spec: string, goal: string): Verdict =>
  verdict(spec, goal, { status: 'failed', category: 'effect-not-verified', message: 'action 4 (click "="): its effect did not verify' });

function consoleOf(total: number): { live: LiveConsole; screen: Screen } {
  const screen = new Screen();
  const live = new LiveConsole({ write: (text) => screen.write(text), columns: 80 });
  live.total = total;
  return { live, screen };
}

describe('the live console', () => {
  test('keeps a numbered line per finished goal above one status line per busy worker', () => {
    const { live, screen } = consoleOf(3);
    live.handle({ kind: 'status', worker: '1', text: 'specs/calc.yaml › add: launching' });
    live.handle({ kind: 'status', worker: '2', text: 'specs/notes.yaml › save: launching' });
    live.handle({ kind: 'status', worker: '1', text: 'specs/calc.yaml › add: action 2/4 click "+"' });
    expect(screen.shown()).toEqual([
      '  worker 1  specs/calc.yaml › add: action 2/4 click "+"',
      '  worker 2  specs/notes.yaml › save: launching',
    ]);
    live.handle({ kind: 'goal', worker: '2', end: goalEndOf(verdict('specs/notes.yaml', 'save'), 0, 0) });
    live.handle({ kind: 'status', worker: '2', text: 'specs/calc.yaml › multiply: launching' });
    live.handle({ kind: 'goal', worker: '1', end: goalEndOf(verdict('specs/calc.yaml', 'add'), 0, 0) });
    expect(screen.shown()).toEqual([
      '✓ [1/3] specs/notes.yaml › save passed (replayed, 0 actions, 0 model calls, 1200 ms)',
      '✓ [2/3] specs/calc.yaml › add passed (replayed, 0 actions, 0 model calls, 1200 ms)',
      '  worker 2  specs/calc.yaml › multiply: launching',
    ]);
    live.close();
    expect(screen.shown()).toHaveLength(2);
  });

  test('marks retried attempts, and a retried goal keeps its number', () => {
    const { live, screen } = consoleOf(2);
    live.handle({ kind: 'goal', worker: '1', end: goalEndOf(failed('specs/calc.yaml', 'add'), 0, 3) });
    live.handle({ kind: 'goal', worker: '1', end: goalEndOf(failed('specs/calc.yaml', 'add'), 1, 3) });
    live.handle({ kind: 'goal', worker: '1', end: goalEndOf(verdict('specs/calc.yaml', 'add'), 2, 3) });
    live.handle({ kind: 'goal', worker: '1', end: goalEndOf(failed('specs/calc.yaml', 'sub'), 3, 3) });
    expect(screen.shown()).toEqual([
      '✗ [1/2] specs/calc.yaml › add failed (replayed, 0 actions, 0 model calls, 1200 ms) — retrying',
      '  action 4 (click "="): its effect did not verify',
      '✗ [1/2] specs/calc.yaml › add failed, retry 1/3 (replayed, 0 actions, 0 model calls, 1200 ms) — retrying',
      '  action 4 (click "="): its effect did not verify',
      '✓ [1/2] specs/calc.yaml › add passed, retry 2/3 (replayed, 0 actions, 0 model calls, 1200 ms)',
      '✗ [2/2] specs/calc.yaml › sub failed, retry 3/3 (replayed, 0 actions, 0 model calls, 1200 ms)',
      '  action 4 (click "="): its effect did not verify',
    ]);
  });

  test('a healed goal says which action healed and why', () => {
    const { live, screen } = consoleOf(1);
    const healed = {
      kind: 'click',
      ms: 1,
      waitMs: 0,
      resolveMs: 0,
      actMs: 0,
      settleMs: 0,
      verifyMs: 0,
      retries: 0,
      verified: true,
      resolvedBy: 'template',
      description: 'click "Add"',
      healed: 'target found by template, moved by 40, 40 px',
    } as const;
    live.handle({
      kind: 'goal',
      worker: '1',
      end: goalEndOf(verdict('specs/counter.yaml', 'add', { mode: 'healed', actions: [healed] }), 0, 0),
    });
    expect(screen.shown()).toEqual([
      '✓ [1/1] specs/counter.yaml › add passed (healed, 1 actions, 0 model calls, 1200 ms)',
      '  healed action 1 (click "Add"): target found by template, moved by 40, 40 px',
    ]);
  });

  test('a status never wraps: it is cut to the terminal width', () => {
    const { live, screen } = consoleOf(1);
    live.handle({ kind: 'status', worker: '1', text: `specs/calc.yaml › add: ${'x'.repeat(200)}` });
    expect(screen.shown()[0]?.length).toBeLessThan(80);
  });
});
