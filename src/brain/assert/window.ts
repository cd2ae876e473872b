/** `window:` assertion: the title of the focused window, by substring or `/regex/flags`. */
import type { Stage } from '../stage.ts';
import type { AssertionResult } from './types.ts';
import { pollAssertion } from './poll.ts';
import { parseTitlePattern } from '../../desktop/index.ts';
import { EXPECTATION_LIMITS } from '../thresholds.ts';

export async function assertWindow(stage: Stage, title: string): Promise<AssertionResult> {
  const started = performance.now();
  const pattern = parseTitlePattern(title);
  const last = await pollAssertion(async () => {
    const focused = await stage.guard(stage.desktop.windows.focused());
    const read = focused?.title ?? '(no focused window)';
    return { ok: focused !== undefined && pattern.test(focused.title), read };
  }, EXPECTATION_LIMITS.windowTimeoutMs);
  return {
    kind: 'window',
    description: `window "${title}"`,
    ok: last.ok,
    message: last.ok ? `focused window "${last.read}"` : `expected the focused window to match "${title}", but it is "${last.read}"`,
    read: last.read,
    ms: Math.round(performance.now() - started),
  };
}
