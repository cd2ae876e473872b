/**
 * Live processes found by what /proc says of them: what a test uses to prove that nothing
 * retrace or an app started is left running.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Zombies and vanished pids do not count: they run nothing. */
const alive = (pid: string): boolean => {
  try {
    return !/ Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\)/s, ')'));
  } catch {
    return false;
  }
};

/** The pids of live processes whose `/proc/<pid>/<file>` (cmdline, environ) contains `text`. */
export const processesWith = (file: 'cmdline' | 'environ', text: string): number[] =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/${file}`, 'utf8').includes(text) && alive(pid);
      } catch {
        return false;
      }
    })
    .map(Number);
