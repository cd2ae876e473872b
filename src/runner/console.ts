/**
 * The console of `retrace run` on a terminal, in the main process. Workers send their progress
 * over a local socket (progress.ts); this reporter prints it:
 *
 *   ✓ [1/3] specs/notes.yaml › save passed (scripted, 3 actions, 0 model calls, 2140 ms)
 *   ✗ [2/3] specs/calc.yaml › add failed (replayed, 4 actions, 0 model calls, 1874 ms) — retrying
 *       action 4 (click "="): its effect did not verify …
 *   ✓ [2/3] specs/calc.yaml › add passed, retry 1/3 (replayed, 4 actions, 0 model calls, 1702 ms)
 *     worker 1  specs/calc.yaml › multiply: action 2/5 click "2"
 *     worker 2  specs/notes.yaml › note: launching fixtures/apps/open notes
 *
 * A line per finished attempt stays, numbered "goal i of n" (a retried goal keeps its number);
 * below them one status line per busy worker is redrawn in place. Not on a terminal, none of
 * this runs: the workers print plain lines themselves.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Reporter, TestSpecification } from 'vitest/node';
import type { RunContext } from './context.ts';
import { goalLine, type ConsoleMessage, type GoalEnd } from './progress.ts';
import { runSpecOf } from './run-specs.ts';
import { isSpecFile } from './spec-module.ts';
import { terminalText } from '../safe-text.ts';

export interface ConsoleOutput {
  write(text: string): void;
  readonly columns?: number;
}

const colour = (code: number, text: string): string => (process.env.NO_COLOR ? text : `\x1b[${code}m${text}\x1b[39m`);
const dim = (text: string): string => (process.env.NO_COLOR ? text : `\x1b[2m${text}\x1b[22m`);

/** The lines that stay, and below them the live block of worker statuses. */
export class LiveConsole {
  private readonly statuses = new Map<string, string>();
  private drawn = 0;
  private readonly numbers = new Map<string, number>();
  total = 0;

  constructor(private readonly out: ConsoleOutput) {}

  /** One message from a worker. */
  handle(message: ConsoleMessage): void {
    if (message.kind === 'status') {
      this.statuses.set(message.worker, terminalText(message.text));
      this.redraw([]);
    } else if (message.kind === 'line') {
      this.redraw([terminalText(message.text)]);
    } else {
      // The worker is done with this goal until its next status.
      this.statuses.delete(message.worker);
      this.redraw([this.goalText(message.end)]);
    }
  }

  /** Clears the live block, for good: the run is over. */
  close(): void {
    this.statuses.clear();
    this.redraw([]);
  }

  /** `✓ [2/3] specs/calc.yaml › add passed, retry 1/3 (…)`: the number is the goal's, kept across its retries. */
  private goalText(end: GoalEnd): string {
    let number = this.numbers.get(end.key);
    if (number === undefined) {
      number = this.numbers.size + 1;
      this.numbers.set(end.key, number);
    }
    this.total = Math.max(this.total, number);
    const text = terminalText(end.text).replace(/, (retry \d+\/\d+)/, (_, retry: string) => `, ${colour(33, retry)}`);
    const more = end.more === undefined ? {} : { more: terminalText(end.more) };
    return goalLine(
      { ...end, ...more, text: `${dim(`[${number}/${this.total}]`)} ${text}` },
      end.passed ? colour(32, '✓') : colour(31, '✗'),
    );
  }

  private redraw(lasting: readonly string[]): void {
    // Cursor to the first line of the live block, erase to the end of the screen.
    let text = this.drawn > 0 ? `\x1b[${this.drawn}F\x1b[J` : '';
    for (const line of lasting) text += `${line}\n`;
    const width = Math.max(20, (this.out.columns ?? 100) - 1);
    const live = [...this.statuses.entries()]
      .sort(([a], [b]) => a.localeCompare(b, undefined, { numeric: true }))
      .map(([worker, status]) => {
        const label = `worker ${worker}`;
        // A wrapped line would break the count of lines to erase: each status fits one line.
        return `  ${dim(label)}  ${status.slice(0, Math.max(0, width - label.length - 4))}`;
      });
    for (const line of live) text += `${line}\n`;
    this.drawn = live.length;
    if (text !== '') this.out.write(text);
  }
}

/**
 * The vitest reporter that listens on the socket and drives a LiveConsole on stderr (`print`),
 * and hands every message to `watch` (the live view).
 */
export class ConsoleReporter implements Reporter {
  /** A Linux abstract socket: nothing on disk to clean up, nothing left behind by a killed run. */
  readonly socket = `\0retrace-console-${process.pid}-${randomUUID()}`;
  private readonly live: LiveConsole | undefined;
  private server: Server | undefined;
  private readonly clients = new Set<Socket>();

  constructor(
    private readonly context: () => RunContext,
    private readonly options: { readonly print: boolean; readonly watch?: (message: ConsoleMessage) => void },
  ) {
    this.live = options.print ? new LiveConsole(process.stderr) : undefined;
  }

  async onInit(): Promise<void> {
    const server = createServer((client) => {
      this.clients.add(client);
      client.setEncoding('utf8');
      let pending = '';
      client.on('data', (chunk: string) => {
        pending += chunk;
        for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
          const line = pending.slice(0, end);
          pending = pending.slice(end + 1);
          try {
            const message = JSON.parse(line) as ConsoleMessage;
            this.live?.handle(message);
            this.options.watch?.(message);
          } catch {
            // Not a message: a worker's console must never stop the run.
          }
        }
      });
      client.on('error', () => undefined);
      client.on('close', () => this.clients.delete(client));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.socket, () => resolve());
    });
    this.server = server;
  }

  /** "goal i of n": n counts the goals of the spec files this run (or shard) runs. */
  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    if (!this.live) return;
    const context = this.context();
    this.live.total = specifications
      .filter((s) => isSpecFile(s.moduleId))
      .reduce((sum, s) => sum + (runSpecOf(s.moduleId, context)?.goals.length ?? 0), 0);
  }

  async onTestRunEnd(): Promise<void> {
    // A worker's last line was written before its test ended; let one turn of the event loop
    // read what is still in the sockets.
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    this.live?.close();
    for (const client of this.clients) client.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}
