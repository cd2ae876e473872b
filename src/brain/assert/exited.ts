/** `exited:` assertion: the application has ended, with this exit code (or with any). */
import type { Stage } from '../stage.ts';
import { describeExit } from '../../domain.ts';
import { awaitExit, exitMatches } from '../exit.ts';
import type { AssertionResult } from './types.ts';

export async function assertExited(stage: Stage, code: number | 'any', timeoutMs: number): Promise<AssertionResult> {
  const started = performance.now();
  const exit = await awaitExit(stage, timeoutMs);
  const wanted = code === 'any' ? 'to exit' : `to exit with code ${code}`;
  const ok = exit !== undefined && exitMatches(code, exit);
  const read = exit ? `it ${describeExit(exit)}` : 'it is still running';
  const tail = exit && !ok && exit.stderrTail.trim() ? `\nLast lines of its stderr:\n${exit.stderrTail.trim()}` : '';
  return {
    kind: 'exited',
    description: `exited ${code}`,
    ok,
    message: ok
      ? `the application ${describeExit(exit)}`
      : `expected the application ${wanted}, but ${read}${exit ? '' : ` after ${timeoutMs} ms`}${tail}`,
    read,
    ms: Math.round(performance.now() - started),
  };
}
