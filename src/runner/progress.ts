/**
 * Live progress of the goals a worker runs. Workers write straight to stderr (vitest passes a
 * worker's stderr through), so progress shows while a goal runs, not when its test ends.
 * On a terminal one line is rewritten in place; in CI (or with no TTY) plain lines are printed.
 */
import { writeSync } from 'node:fs';
import type { Verbosity } from './context.ts';

export interface ProgressSink {
  /** A transient status: the spec, the goal, and what it is doing. */
  status(text: string): void;
  /** A line that stays: a verdict, a warning. */
  line(text: string): void;
  /** Detail shown only with --verbose. */
  detail(text: string): void;
}

const write = (text: string): void => {
  try {
    writeSync(2, text);
  } catch {
    // A closed stderr must not fail a goal.
  }
};

export function createProgress(verbosity: Verbosity, tty: boolean, mask: (text: string) => string): ProgressSink {
  const columns = process.stderr.columns || 100;
  return {
    status(text) {
      if (verbosity === 'quiet') return;
      const safe = mask(text);
      if (tty) write(`\r\x1b[2K${safe.slice(0, columns - 1)}`);
      else write(`${safe}\n`);
    },
    line(text) {
      const safe = mask(text);
      write(tty ? `\r\x1b[2K${safe}\n` : `${safe}\n`);
    },
    detail(text) {
      if (verbosity === 'verbose') write(`${mask(text)}\n`);
    },
  };
}
