/**
 * The `setup:` and `teardown:` commands of an app: shell snippets run to completion before
 * the app starts and after it is closed.
 */
import { spawn } from 'node:child_process';
import { InfrastructureError } from '../errors.ts';
import { lineTail } from './line-tail.ts';

export interface ShellStepOptions {
  readonly cwd?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** @default 300000 */
  readonly timeoutMs?: number;
}

/** Runs `sh -c command`; rejects with APP_START naming the step, exit code and stderr tail. */
export const runShellStep = (step: 'setup' | 'teardown', command: string, options: ShellStepOptions): Promise<void> =>
  new Promise((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 300_000;
    const child = spawn('sh', ['-c', command], {
      cwd: options.cwd,
      env: { ...options.env },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    const tail = lineTail(child.stderr);
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, timeoutMs);
    const fail = (detail: string, cause?: unknown): void => {
      clearTimeout(timer);
      const stderr = tail();
      reject(
        new InfrastructureError(
          'APP_START',
          `The app's ${step} command failed (${detail}): ${command}` + (stderr ? `\nstderr:\n${stderr}` : ''),
          { cause },
        ),
      );
    };
    child.once('error', (error) => fail(error.message, error));
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else if (signal !== null) fail(`killed by ${signal}${signal === 'SIGKILL' ? `, timeout ${timeoutMs} ms?` : ''}`);
      else fail(`exit code ${code}`);
    });
  });
