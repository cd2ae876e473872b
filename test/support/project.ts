/**
 * A throw-away retrace project for end-to-end tests: a temp folder with specs, where the real
 * CLI runs as a child process, exactly as a user runs it. Fixture apps are referenced through
 * `${env.FIXTURES}` so specs work from any folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Summary } from '../../src/report/summary.ts';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const FIXTURES = join(REPO, 'fixtures', 'apps');
const BIN = join(REPO, 'bin', 'retrace.mjs');

/** A bare X server a test starts itself (`cliUnder`), as a CI service would: no session bus, no accessibility bus. */
export const XVFB_RUN = ['xvfb-run', '-a', '-s', '-screen 0 1280x800x24 -nolisten tcp'] as const;

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunningCli {
  readonly child: ChildProcess;
  /** Output so far. */
  readonly output: { stdout: string; stderr: string };
  readonly result: Promise<CliResult>;
}

export class Project {
  readonly root = mkdtempSync(join(tmpdir(), 'retrace-e2e-'));

  /** @param bin the CLI to run: this checkout's by default, another's to compare with it. */
  constructor(readonly bin: string = BIN) {}

  write(file: string, text: string): this {
    const full = join(this.root, file);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    return this;
  }

  read(file: string): string {
    return readFileSync(join(this.root, file), 'utf8');
  }

  exists(file: string): boolean {
    return existsSync(join(this.root, file));
  }

  /** Every file under the project with its size and mtime: to prove a run wrote nothing. */
  snapshot(): Record<string, string> {
    const out: Record<string, string> = {};
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const full = join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else {
          const s = statSync(full);
          out[relative(this.root, full)] = `${s.size}:${s.mtimeMs}`;
        }
      }
    };
    walk(this.root);
    return out;
  }

  summary(): Summary {
    return JSON.parse(this.read('reports/summary.json')) as Summary;
  }

  /** Runs `retrace <args>` in the project, with its own displays (no $DISPLAY). */
  cli(args: readonly string[], env: Record<string, string | undefined> = {}, timeoutMs = 240_000): Promise<CliResult> {
    return this.start(args, env, timeoutMs, false).result;
  }

  /**
   * Starts `retrace <args>` like `cli`, for a test that talks to it while it runs (signals,
   * output). With `group`, it leads its own process group, so `process.kill(-child.pid, 'SIGINT')`
   * is what a Ctrl-C in a terminal does.
   */
  start(
    args: readonly string[],
    env: Record<string, string | undefined> = {},
    timeoutMs = 240_000,
    group = true,
    wrapper: readonly string[] = [],
  ): RunningCli {
    // No inherited $DISPLAY unless the test gives one in `env`.
    const childEnv: NodeJS.ProcessEnv = { ...process.env, DISPLAY: undefined, FIXTURES, CI: 'true', ...env };
    for (const [k, v] of Object.entries(childEnv)) if (v === undefined) delete childEnv[k];
    const [file, ...before] = [...wrapper, process.execPath];
    return startCommand(file as string, [...before, this.bin, ...args], { cwd: this.root, env: childEnv, timeoutMs, group });
  }

  /** Runs `retrace <args>` under `wrapper` (`xvfb-run -a`), which gives it its display. */
  cliUnder(
    wrapper: readonly string[],
    args: readonly string[],
    env: Record<string, string | undefined> = {},
    timeoutMs = 240_000,
  ): Promise<CliResult> {
    return this.start(args, env, timeoutMs, false, wrapper).result;
  }
}

/** Runs a command to its end, collecting its output; it is killed, and the promise rejects, after timeoutMs. */
export function runCommand(
  file: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly timeoutMs: number },
): Promise<CliResult> {
  return startCommand(file, args, options).result;
}

/** Starts a command like `runCommand`; with `group`, it leads its own process group. */
function startCommand(
  file: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly timeoutMs: number; readonly group?: boolean },
): RunningCli {
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.group ?? false,
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (output.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output.stderr += d.toString()));
  const result = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${[file, ...args].join(' ')} timed out\n${output.stdout}\n${output.stderr}`));
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, ...output });
    });
  });
  return { child, output, result };
}

/** Waits for `probe` to give a value, polling; fails after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
