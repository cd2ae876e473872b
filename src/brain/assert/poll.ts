/** Playwright-style polling of an assertion until it holds or its timeout runs out. */
import { setTimeout as delay } from 'node:timers/promises';
import { EXPECTATION_LIMITS } from '../thresholds.ts';

const INTERVALS_MS = EXPECTATION_LIMITS.pollIntervalsMs;

/**
 * Calls `attempt` until it reports ok or `timeoutMs` has passed, and returns the last outcome.
 * The first attempt is immediate; later ones back off along EXPECTATION_LIMITS.pollIntervalsMs.
 */
export async function pollAssertion<T extends { readonly ok: boolean }>(attempt: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; ; i++) {
    const outcome = await attempt();
    if (outcome.ok || Date.now() >= deadline) return outcome;
    const wait = INTERVALS_MS[Math.min(i + 1, INTERVALS_MS.length - 1)]!;
    await delay(Math.min(wait, Math.max(0, deadline - Date.now())));
  }
}
