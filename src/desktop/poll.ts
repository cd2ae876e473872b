/**
 * Waiting for a condition of the outside world (a window appears, a size applies, a server
 * answers). Polling starts fast and backs off, so a quick condition costs a few milliseconds
 * and a slow one does not spin the CPU; there are no fixed sleeps.
 */

export interface PollOptions {
  /** Give up after this long. */
  readonly timeoutMs: number;
  /** First delay between attempts; it doubles up to `maxIntervalMs`. @default 5 */
  readonly intervalMs?: number;
  /** @default 100 */
  readonly maxIntervalMs?: number;
  /** Stop early (resolving undefined) when this signal aborts. */
  readonly signal?: AbortSignal;
}

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls `probe` until it returns a value other than undefined, and returns that value;
 * returns undefined on timeout. Errors thrown by `probe` propagate at once.
 */
export const pollUntil = async <T>(probe: () => Promise<T | undefined> | T | undefined, options: PollOptions): Promise<T | undefined> => {
  const deadline = Date.now() + options.timeoutMs;
  let interval = options.intervalMs ?? 5;
  const maxInterval = options.maxIntervalMs ?? 100;
  for (;;) {
    if (options.signal?.aborted) return undefined;
    const value = await probe();
    if (value !== undefined) return value;
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    await delay(Math.min(interval, left));
    interval = Math.min(interval * 2, maxInterval);
  }
};

/**
 * Whether `promise` settles within `ms`. The timer is cleared either way, so a long bound does
 * not keep the process alive after the promise settled.
 */
export const settlesWithin = async (promise: Promise<unknown>, ms: number): Promise<boolean> => {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => true as const,
        () => true as const,
      ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
};
