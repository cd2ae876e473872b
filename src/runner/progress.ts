/**
 * Live progress of the goals a worker runs, as it happens.
 *
 * - Not on a terminal (CI, a pipe): plain lines, written straight to stderr by the worker.
 * - On a terminal, under `retrace run`: the worker sends its lines to the main process over a
 *   local socket (`retraceConsole.socket`), where the console (console.ts) keeps a line per
 *   finished goal, numbered "goal i of n", above one status line per worker.
 * - On a terminal with no console to talk to: one line rewritten in place.
 * - Under `retrace run --live` the socket is there in every case, and the main process streams
 *   what it receives to the live view; where its console does not print them (`echo`), the
 *   worker prints its lines itself as above.
 */
import { writeSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { inject } from 'vitest';
import type { Verbosity } from './context.ts';
import { terminalText } from '../safe-text.ts';

/** What the main process hands every worker about the console. */
export interface ConsoleOptions {
  /** How many times vitest retries a failed goal (`--retry`): "retry 1/3". */
  readonly retry: number;
  /** The console's socket, when there is one (a terminal or a live view under `retrace run`). */
  readonly socket?: string;
  /** The main process only watches the messages (a live view): the worker prints them too. */
  readonly echo?: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    retraceConsole: ConsoleOptions;
  }
}

/** The end of one attempt of a goal. */
export interface GoalEnd {
  /** `<spec>#<goal>`: numbers the goal on the console. */
  readonly key: string;
  readonly passed: boolean;
  /** `specs/calc.yaml › add passed, retry 1/3 (replayed, 4 actions, 0 model calls, 812 ms)` */
  readonly text: string;
  /** Lines under it (why it failed), already indented. */
  readonly more?: string;
}

/** A message from a worker to the console, one JSON line each. */
export type ConsoleMessage =
  | { readonly kind: 'status'; readonly worker: string; readonly text: string }
  | { readonly kind: 'line'; readonly worker: string; readonly text: string }
  | { readonly kind: 'goal'; readonly worker: string; readonly end: GoalEnd };

export interface ProgressSink {
  /** A transient status: the spec, the goal, and what it is doing. */
  status(text: string): void;
  /** A line that stays: a warning, a note. */
  line(text: string): void;
  /** Detail shown only with --verbose. */
  detail(text: string): void;
  /** A goal attempt ended: a line that stays. */
  goal(end: GoalEnd): void;
}

const write = (text: string): void => {
  try {
    writeSync(2, text);
  } catch {
    // A closed stderr must not fail a goal.
  }
};

/** The console options the main process provided; none outside a retrace run. */
export function consoleOptions(): ConsoleOptions {
  try {
    return inject('retraceConsole') ?? { retry: 0 };
  } catch {
    return { retry: 0 };
  }
}

/** `✓ text` and the lines under it. */
export const goalLine = (end: GoalEnd, mark: string = end.passed ? '✓' : '✗'): string =>
  `${mark} ${end.text}${end.more ? `\n${end.more}` : ''}`;

/** This worker's connection to the console, opened on first use and kept for the process. */
let channel: { readonly path: string; readonly socket: Socket; failed: boolean } | undefined;

/** Sends a message to the console; false when there is no console to send to. */
function send(path: string, message: ConsoleMessage): boolean {
  if (!channel || channel.path !== path) {
    const socket = connect(path);
    const opened = { path, socket, failed: false };
    socket.on('error', () => (opened.failed = true));
    socket.unref();
    channel = opened;
  }
  if (channel.failed) return false;
  channel.socket.write(`${JSON.stringify(message)}\n`);
  return true;
}

const workerId = (): string => process.env.VITEST_POOL_ID ?? String(process.pid);

export function createProgress(verbosity: Verbosity, tty: boolean, maskSecrets: (text: string) => string): ProgressSink {
  // Secrets masked, and nothing that would steer the terminal (names and titles are anyone's).
  const mask = (text: string): string => terminalText(maskSecrets(text));
  const columns = process.stderr.columns || 100;
  const { socket, echo = false } = consoleOptions();
  // True when the console prints the message; the live view gets it either way, even under --quiet.
  const toConsole = (message: ConsoleMessage): boolean => socket !== undefined && send(socket, message) && !echo;
  const lasting = (text: string): void => write(tty ? `\r\x1b[2K${text}\n` : `${text}\n`);
  return {
    status(text) {
      const safe = mask(text);
      if (toConsole({ kind: 'status', worker: workerId(), text: safe }) || verbosity === 'quiet') return;
      if (tty) write(`\r\x1b[2K${safe.slice(0, columns - 1)}`);
      else write(`${safe}\n`);
    },
    line(text) {
      const safe = mask(text);
      if (!toConsole({ kind: 'line', worker: workerId(), text: safe })) lasting(safe);
    },
    detail(text) {
      if (verbosity !== 'verbose') return;
      const safe = mask(text);
      if (!toConsole({ kind: 'line', worker: workerId(), text: safe })) write(`${safe}\n`);
    },
    goal(end) {
      const safe: GoalEnd = { ...end, text: mask(end.text), ...(end.more !== undefined && { more: mask(end.more) }) };
      if (!toConsole({ kind: 'goal', worker: workerId(), end: safe }) && !(verbosity === 'quiet' && end.passed)) lasting(goalLine(safe));
    },
  };
}
