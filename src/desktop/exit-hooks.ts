/**
 * Last-chance cleanup of the apps under test: when this process exits, is interrupted (SIGINT,
 * SIGTERM, SIGHUP) or dies of an uncaught exception, a leaked app would keep its windows and
 * files, so every app session registers a synchronous kill here.
 *
 * Not covered: SIGKILL of this process (nothing runs). Owned Xvfb servers are not ended here
 * but by a watchdog process (see xvfb.ts), which also covers SIGKILL.
 */

type Cleanup = () => void;

const cleanups = new Set<Cleanup>();
let installed = false;

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

const runAll = (): void => {
  for (const cleanup of [...cleanups]) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch {
      // One failed kill must not stop the others.
    }
  }
};

/** A command that ends gracefully on a signal (`retrace record`): it gets the signal first. */
let interceptor: ((signal: NodeJS.Signals) => void) | undefined;

const onSignal = (signal: NodeJS.Signals): void => {
  if (interceptor) {
    interceptor(signal);
    return;
  }
  runAll();
  uninstall();
  // Our listener replaced the default action (exit with 128+n). If nobody else handles the
  // signal, raise it again so the process ends the conventional way and its parent sees why.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
};

const onUncaught = (): void => {
  // uncaughtExceptionMonitor fires even when someone handles the error and carries on (vitest
  // does); only clean up when the exception is going to end the process.
  if (process.listenerCount('uncaughtException') === 0) runAll();
};

const install = (): void => {
  if (installed) return;
  installed = true;
  process.on('exit', runAll);
  process.on('uncaughtExceptionMonitor', onUncaught);
  for (const signal of SIGNALS) process.on(signal, onSignal);
};

const uninstall = (): void => {
  if (!installed) return;
  installed = false;
  process.off('exit', runAll);
  process.off('uncaughtExceptionMonitor', onUncaught);
  for (const signal of SIGNALS) process.off(signal, onSignal);
};

/**
 * Runs `cleanup` (synchronously: at exit nothing asynchronous runs) if the process ends before
 * the returned function is called. Call the returned function once the resource is released.
 */
export const onProcessExit = (cleanup: Cleanup): (() => void) => {
  cleanups.add(cleanup);
  install();
  return () => {
    cleanups.delete(cleanup);
  };
};

/**
 * Hands SIGINT, SIGTERM and SIGHUP to `handler` instead of killing the apps at once, until the
 * returned function is called; then a signal cleans up as usual.
 */
export const interceptSignals = (handler: (signal: NodeJS.Signals) => void): (() => void) => {
  interceptor = handler;
  install();
  return () => {
    if (interceptor === handler) interceptor = undefined;
  };
};
