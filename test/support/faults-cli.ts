/**
 * Helpers of the fault tests: the real CLI as a child process that a test can watch line by
 * line (each stderr line with the time it arrived) and kill as a whole process group, plus the
 * /proc reading needed to find the processes of a run (its Xvfb, its app) and to wait for them.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, FIXTURES, type CliResult, type Project } from './project.ts';

const BIN = join(REPO, 'bin', 'retrace.mjs');

export interface TimedLine {
  readonly at: number;
  readonly text: string;
}

export interface CliEnd extends CliResult {
  readonly signal: NodeJS.Signals | null;
  /** Date.now() when the process closed. */
  readonly endedAt: number;
}

/** A running `retrace …`: its own process group, so killGroup() reaches its workers too. */
export class CliProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly startedAt = Date.now();
  readonly lines: TimedLine[] = [];
  readonly ended: Promise<CliEnd>;
  private stdout = '';
  private stderr = '';
  private partial = '';
  private watchers: { test: (line: TimedLine) => boolean; resolve: (line: TimedLine) => void }[] = [];
  private closed = false;

  constructor(project: Project, args: readonly string[], env: Record<string, string | undefined> = {}, timeoutMs = 120_000) {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, FIXTURES, CI: 'true', ...env };
    delete childEnv.DISPLAY;
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
    this.child = spawn(process.execPath, [BIN, ...args], {
      cwd: project.root,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    if (this.child.pid === undefined) throw new Error('could not start the CLI');
    this.pid = this.child.pid;
    this.child.stdout!.on('data', (d: Buffer) => (this.stdout += d.toString()));
    this.child.stderr!.on('data', (d: Buffer) => {
      const at = Date.now();
      const text = d.toString();
      this.stderr += text;
      const parts = (this.partial + text).split('\n');
      this.partial = parts.pop() ?? '';
      for (const part of parts) this.push({ at, text: part });
    });
    this.ended = new Promise((resolve) => {
      const timer = setTimeout(() => this.killGroup('SIGKILL'), timeoutMs);
      this.child.on('close', (code, signal) => {
        clearTimeout(timer);
        this.closed = true;
        if (this.partial) this.push({ at: Date.now(), text: this.partial });
        for (const w of this.watchers) w.resolve({ at: -1, text: '' });
        this.watchers = [];
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr, endedAt: Date.now() });
      });
    });
  }

  get output(): string {
    return `${this.stdout}\n${this.stderr}`;
  }

  private push(line: TimedLine): void {
    this.lines.push(line);
    this.watchers = this.watchers.filter((w) => {
      if (!w.test(line)) return true;
      w.resolve(line);
      return false;
    });
  }

  /** The first stderr line matching `pattern` (already seen or still to come). Rejects if the CLI ends first. */
  async line(pattern: RegExp, timeoutMs = 60_000): Promise<TimedLine> {
    const seen = this.lines.find((l) => pattern.test(l.text));
    if (seen) return seen;
    if (this.closed) throw new Error(`the CLI ended without printing ${pattern}\n${this.output}`);
    let timer: NodeJS.Timeout | undefined;
    const found = await new Promise<TimedLine>((resolve) => {
      this.watchers.push({ test: (l) => pattern.test(l.text), resolve });
      timer = setTimeout(() => resolve({ at: -2, text: '' }), timeoutMs);
    });
    clearTimeout(timer);
    if (found.at === -1) throw new Error(`the CLI ended without printing ${pattern}\n${this.output}`);
    if (found.at === -2) throw new Error(`no line ${pattern} within ${timeoutMs} ms\n${this.output}`);
    return found;
  }

  /** Signals every process of the CLI's group (its vitest workers included). */
  killGroup(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.pid, signal);
    } catch {
      // The group is gone already.
    }
  }
}

export const startCli = (
  project: Project,
  args: readonly string[],
  env: Record<string, string | undefined> = {},
  timeoutMs?: number,
): CliProcess => new CliProcess(project, args, env, timeoutMs);

export interface ProcInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly state: string;
  readonly comm: string;
}

export function readProc(pid: number): ProcInfo | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const open = text.indexOf('(');
    const close = text.lastIndexOf(')');
    const fields = text.slice(close + 2).split(' ');
    return { pid, comm: text.slice(open + 1, close), state: fields[0] ?? '?', ppid: Number(fields[1]), pgid: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

export function allProcs(): ProcInfo[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map((e) => readProc(Number(e)))
    .filter((p): p is ProcInfo => p !== undefined);
}

/** Live (non-zombie) descendants of `root`, the root excluded. */
export function descendants(root: number): ProcInfo[] {
  const procs = allProcs().filter((p) => p.state !== 'Z' && p.state !== 'X');
  const children = new Map<number, ProcInfo[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: ProcInfo[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const p = queue.shift()!;
    out.push(p);
    queue.push(...(children.get(p.pid) ?? []));
  }
  return out;
}

/** Live members of process group `pgid`. */
export const groupMembers = (pgid: number): ProcInfo[] => allProcs().filter((p) => p.pgid === pgid && p.state !== 'Z' && p.state !== 'X');

export const isAlive = (pid: number): boolean => {
  const p = readProc(pid);
  return p !== undefined && p.state !== 'Z' && p.state !== 'X';
};

/** One variable of a process's initial environment. */
export function environOf(pid: number, name: string): string | undefined {
  try {
    const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const hit = entries.find((e) => e.startsWith(`${name}=`));
    return hit?.slice(name.length + 1);
  } catch {
    return undefined;
  }
}

/** Polls `probe` every `intervalMs` until it returns a value (not undefined); throws after `timeoutMs`. */
export async function pollFor<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000, intervalMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** CPU time (user + system, in clock ticks) a process has used so far. */
export function cpuTicks(pid: number): number | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/**
 * Waits until `pid` has used no CPU for `quietMs` (sampled every 25 ms): the process sits in a
 * timer or a wait, capturing and computing nothing.
 */
export async function waitUntilIdle(pid: number, quietMs = 150, timeoutMs = 10_000): Promise<void> {
  let last = cpuTicks(pid);
  let quietSince = Date.now();
  await pollFor(
    `process ${pid} to be idle for ${quietMs} ms`,
    () => {
      const now = cpuTicks(pid);
      if (now === undefined) throw new Error(`process ${pid} is gone`);
      if (now !== last) {
        last = now;
        quietSince = Date.now();
        return undefined;
      }
      return Date.now() - quietSince >= quietMs ? true : undefined;
    },
    timeoutMs,
    25,
  );
}

/**
 * Bytes that `worker` wrote to the X server `xvfb` and the server has not read yet: its requests
 * waiting in the sockets (`ss -x`, iproute2). Each line is `u_str STATE RECV-Q SEND-Q LOCAL
 * INODE PEER PEER-INODE users:((...))`; the server's end of a connection has the worker's socket
 * as its peer.
 */
function unreadRequests(xvfb: number, worker: number): number {
  const sockets = execFileSync('ss', ['-xpH'], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^u_str\s+\S+\s+(\d+)\s+\d+\s+\S+\s+(\d+)\s+\S+\s+(\d+)\s+users:(.*)$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map(([, queued, inode, peer, users]) => ({ queued: Number(queued), inode: Number(inode), peer: Number(peer), users: users ?? '' }));
  const owns = (users: string, pid: number): boolean => users.includes(`pid=${pid},`);
  const workers = new Set(sockets.filter((s) => owns(s.users, worker)).map((s) => s.inode));
  return sockets.filter((s) => owns(s.users, xvfb) && workers.has(s.peer)).reduce((sum, s) => sum + s.queued, 0);
}

/**
 * Freezes the X server (SIGSTOP) and waits until `worker` has a request of its own in it that the
 * server has not read: the worker is in the middle of an X request (while it watches a window,
 * a capture) and waits for the reply. Tried again when that does not happen within 400 ms.
 * Returns with the server stopped; the caller kills it (or sends SIGCONT).
 */
export async function freezeDuringXRequest(xvfb: number, worker: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    process.kill(xvfb, 'SIGSTOP');
    const caught = await pollFor(
      'a request to wait in the frozen server',
      () => (unreadRequests(xvfb, worker) > 0 ? true : undefined),
      400,
      10,
    ).catch(() => false);
    if (caught) return;
    process.kill(xvfb, 'SIGCONT');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  process.kill(xvfb, 'SIGCONT');
  throw new Error(`could not catch process ${worker} inside an X request within ${timeoutMs} ms`);
}
