/**
 * Ends processes that must not outlive this one (an owned Xvfb, the session services of its
 * desktop), however this process goes: exit, signal, crash or SIGKILL.
 *
 * The order matters: libnut closes its X connection in a C atexit hook, after every JavaScript
 * exit handler, and Xlib answers a server already gone by exiting with code 1, masking the
 * real exit code. So the targets must outlive this process: a small shell waits for the pipe
 * from us to close (Node closes it while shutting down), then for our pid to be gone or a
 * zombie, and only then signals the targets and removes the given directories.
 */
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';

const WATCHDOG_SCRIPT = `read -r _
while read -r stat < "/proc/$1/stat" 2>/dev/null; do
  case "\${stat##*) }" in Z*) break ;; esac
  sleep 0.01
done
shift
for target in "$@"; do
  case "$target" in
    /*) rm -rf -- "$target" ;;
    *) kill -TERM "$target" 2>/dev/null ;;
  esac
done`;

export interface WatchdogTargets {
  /** Pids to signal; a negative number is a process group. */
  readonly kill: readonly number[];
  /** Directories to remove once the processes are signalled. */
  readonly remove?: readonly string[];
}

/** Starts the watchdog; call the returned function to stand it down (the targets ended normally). */
export const startWatchdog = (targets: WatchdogTargets): (() => void) => {
  // kill(-1) would signal every process we may signal; never let a bad pid get there.
  const kill = targets.kill.filter((pid) => Number.isSafeInteger(pid) && Math.abs(pid) > 1);
  const remove = (targets.remove ?? []).filter((dir) => dir.startsWith('/') && dir.length > 1);
  const watchdog = spawn(
    'sh',
    ['-c', WATCHDOG_SCRIPT, 'retrace-watchdog', String(process.pid), ...kill.map(String), ...remove],
    // Its own session: a kill of this process's whole group (Ctrl-C in a shell, a CI runner
    // ending a job) must not take the watchdog with it.
    { stdio: ['pipe', 'ignore', 'ignore'], detached: true },
  );
  watchdog.on('error', () => undefined);
  watchdog.unref();
  (watchdog.stdin as (Writable & { unref?: () => void }) | null)?.unref?.();
  return () => {
    watchdog.kill('SIGKILL');
  };
};
