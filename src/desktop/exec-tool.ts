/**
 * Runs the X command-line tools (xdotool, xdpyinfo, setxkbmap…) without a shell, so titles,
 * typed text and key names reach the tool byte for byte and never need quoting.
 */
import { execFile } from 'node:child_process';
import { InfrastructureError } from '../errors.ts';

export interface ToolResult {
  readonly stdout: string;
  readonly stderr: string;
  /** Exit code; null when the tool was killed (e.g. by the timeout). */
  readonly code: number | null;
}

export interface ToolOptions {
  /** Environment of the tool; pass the display's DISPLAY explicitly. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Kill the tool after this long. @default 10000 */
  readonly timeoutMs?: number;
}

/**
 * Runs `command args…` and resolves with its output whatever its exit code: callers decide
 * what a non-zero exit means (xdotool exits 1 for "no window found", which is not a fault).
 * Rejects only when the tool is not installed (MISSING_TOOL).
 */
export const runTool = (command: string, args: readonly string[], options: ToolOptions): Promise<ToolResult> =>
  new Promise((resolve, reject) => {
    execFile(
      command,
      [...args],
      {
        env: { ...options.env },
        timeout: options.timeoutMs ?? 10_000,
        maxBuffer: 16 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
          reject(missingTool(command, error));
          return;
        }
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ stdout, stderr, code });
      },
    );
  });

/** Which Debian package provides each tool, so the message says how to fix it. */
const PACKAGES: Readonly<Record<string, string>> = {
  Xvfb: 'xvfb',
  xdotool: 'xdotool',
  xdpyinfo: 'x11-utils',
  xwininfo: 'x11-utils',
  setxkbmap: 'x11-xkb-utils',
};

export const missingTool = (command: string, cause?: unknown): InfrastructureError => {
  const pkg = PACKAGES[command];
  const hint = pkg === undefined ? '' : ` Install it (Debian/Ubuntu: apt-get install ${pkg}).`;
  return new InfrastructureError('MISSING_TOOL', `${command} was not found on PATH.${hint}`, {
    cause,
  });
};
