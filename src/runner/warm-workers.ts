/**
 * vitest's worker processes, forked before vitest is loaded. `retrace run` knows how many workers
 * it needs once its input is checked; vitest knows it only after loading itself (0.3–0.5 s), and
 * each worker then spends about as long again starting node, vitest's runtime and retrace's
 * engine. Forked ahead (warm-entry.mjs), a worker starts node and, in the installed package,
 * loads the engine while the CLI loads vitest. vitest takes one over through a pool of retrace's
 * own (a PoolRunnerInitializer) when it would have forked it with the same entry and node
 * arguments: the worker is sent the environment vitest asked for, then loads vitest's entry.
 * Otherwise, or when a warm worker fails, vitest gets a fork of its own, as its forks pool makes.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { isatty } from 'node:tty';
import { pathToFileURL } from 'node:url';
import type { PoolOptions, PoolRunnerInitializer, PoolWorker, WorkerRequest } from 'vitest/node';
import { SUITE_MODULE, WARM_ENTRY } from './entry-modules.ts';

/** How long a worker asked to stop may take before it is killed (as vitest's own pools wait). */
const STOP_GRACE_MS = 60_000;
/** How long a warm worker may take to load vitest's entry once taken; then vitest forks its own. */
const TAKE_OVER_MS = 15_000;

export interface Spawn {
  readonly entry: string;
  readonly env: Partial<NodeJS.ProcessEnv>;
  readonly execArgv: readonly string[];
}

/**
 * What vitest's forks pool (vitest 4) would fork now: its worker entry and node arguments, and
 * the environment with vitest's own variables (those vitest adds while it loads come when the
 * worker is taken). Checked against what vitest asks (`take`): a wrong guess costs the head
 * start, never a difference.
 */
function vitestSpawn(): Spawn {
  const vitest = dirname(createRequire(import.meta.url).resolve('vitest/package.json'));
  const profiling = process.execArgv.filter((a) => /^--(cpu-prof|heap-prof|diagnostic-dir)/.test(a));
  return {
    entry: join(vitest, 'dist', 'workers', 'forks.js'),
    env: {
      ...process.env,
      TEST: 'true',
      VITEST: 'true',
      NODE_ENV: process.env.NODE_ENV || 'test',
      VITEST_MODE: 'RUN',
      FORCE_TTY: isatty(1) ? 'true' : '',
    },
    execArgv: [
      ...profiling,
      '--experimental-import-meta-resolve',
      '--require',
      join(vitest, 'suppress-warnings.cjs'),
      '--conditions',
      'node',
      '--conditions',
      process.env.NODE_ENV === 'production' ? 'production' : 'development',
    ],
  };
}

const forkOptions = (spawn: Spawn) => ({
  env: spawn.env,
  execArgv: [...spawn.execArgv],
  stdio: 'pipe' as const,
  serialization: 'advanced' as const,
});

/** Whether `child` (the process, its IPC channel and its pipes) keeps this process's event loop going. */
function keepsAlive(child: ChildProcess, keeps: boolean): void {
  const handles = [child, child.channel, child.stdin, child.stdout, child.stderr] as (
    | { ref?(): void; unref?(): void }
    | null
    | undefined
  )[];
  for (const handle of handles) (keeps ? handle?.ref : handle?.unref)?.call(handle);
}

/** A warm worker made into the one vitest asked for; false when it failed on the way. */
function takeOver(child: ChildProcess, env: Spawn['env']): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ready: boolean): void => {
      clearTimeout(timer);
      child.off('message', answer).off('exit', failed).off('error', failed);
      if (!ready) child.kill('SIGKILL');
      resolve(ready);
    };
    const answer = (message: unknown): void => done((message as { retraceWarm?: string } | null)?.retraceWarm === 'ready');
    const failed = (): void => done(false);
    const timer = setTimeout(failed, TAKE_OVER_MS);
    child.on('message', answer).once('exit', failed).once('error', failed);
    child.send(env, (error) => error && failed());
  });
}

export class WarmWorkers {
  private readonly spawn: Spawn | undefined;
  private readonly idle: ChildProcess[] = [];

  /**
   * Forks `count` workers now, as `spawn` says (vitest's, unless a test says otherwise). In the
   * installed package each loads retrace's engine, the suite module the spec files import, which
   * node then finds loaded (vitest imports a package's JavaScript as it is); a checkout's
   * TypeScript goes through vitest's transform instead.
   */
  constructor(count: number, spawn: () => Spawn = vitestSpawn) {
    if (count < 1) return;
    this.spawn = spawn();
    const args = [this.spawn.entry, ...(SUITE_MODULE.endsWith('.js') ? [pathToFileURL(SUITE_MODULE).href] : [])];
    for (let i = 0; i < count; i++) {
      const child = fork(WARM_ENTRY, args, forkOptions(this.spawn));
      // Until taken it does not keep the CLI alive.
      keepsAlive(child, false);
      // A warm worker that failed is simply not there to be taken.
      child.once('error', () => this.drop(child));
      child.once('exit', () => this.drop(child));
      this.idle.push(child);
    }
  }

  /** A warm worker made into the one vitest asked for; undefined when none is left or fits. */
  async take(asked: Spawn): Promise<ChildProcess | undefined> {
    const warm = this.spawn;
    if (warm === undefined || warm.entry !== asked.entry || warm.execArgv.join('\0') !== asked.execArgv.join('\0')) return undefined;
    const child = this.idle.shift();
    if (child === undefined) return undefined;
    child.removeAllListeners('error').removeAllListeners('exit');
    keepsAlive(child, true);
    return (await takeOver(child, asked.env)) ? child : undefined;
  }

  /** Stops the workers nobody took. */
  stop(): void {
    for (const child of this.idle.splice(0)) child.kill();
  }

  /** vitest's pool: warm workers first, then forks of its own. */
  pool(): PoolRunnerInitializer {
    return { name: 'retrace-forks', createPoolWorker: (options) => new ForkWorker(options, this) };
  }

  private drop(child: ChildProcess): void {
    const at = this.idle.indexOf(child);
    if (at >= 0) this.idle.splice(at, 1);
  }
}

/** One of vitest's workers, as its forks pool runs one: a child process on vitest's IPC channel. */
class ForkWorker implements PoolWorker {
  readonly name = 'retrace-forks';
  readonly cacheFs = true;
  private child: ChildProcess | undefined;
  private readonly stdout: Writable;
  private readonly stderr: Writable;
  private readonly spawn: Spawn;

  constructor(
    options: PoolOptions,
    private readonly warm: WarmWorkers,
  ) {
    this.spawn = { entry: join(options.distPath, 'workers', 'forks.js'), env: options.env, execArgv: options.execArgv };
    this.stdout = options.project.vitest.logger.outputStream as Writable;
    this.stderr = options.project.vitest.logger.errorStream as Writable;
  }

  on(event: string, callback: (arg: unknown) => void): void {
    this.process.on(event, callback);
  }

  off(event: string, callback: (arg: unknown) => void): void {
    this.process.off(event, callback);
  }

  send(message: WorkerRequest): void {
    this.process.send(message);
  }

  async start(): Promise<void> {
    this.child ??= (await this.warm.take(this.spawn)) ?? fork(this.spawn.entry, [], forkOptions(this.spawn));
    for (const [from, to] of this.outputs()) {
      // One pipe a worker into vitest's own output: as many listeners on it as there are workers.
      to.setMaxListeners(to.getMaxListeners() + 1);
      from.pipe(to, { end: false });
    }
  }

  async stop(): Promise<void> {
    const child = this.process;
    const exited = new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
    );
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.kill();
    await exited;
    clearTimeout(kill);
    for (const [from, to] of this.outputs()) {
      from.unpipe(to);
      to.setMaxListeners(to.getMaxListeners() - 1);
    }
    this.child = undefined;
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  private outputs(): [NodeJS.ReadableStream, Writable][] {
    const pairs: [NodeJS.ReadableStream | null, Writable][] = [
      [this.process.stdout, this.stdout],
      [this.process.stderr, this.stderr],
    ];
    return pairs.filter((pair): pair is [NodeJS.ReadableStream, Writable] => pair[0] !== null);
  }

  private get process(): ChildProcess {
    if (this.child === undefined) throw new Error('the worker process was stopped or never started');
    return this.child;
  }
}
