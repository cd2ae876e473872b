/**
 * Owned displays must not outlive the process that started them, however it ends; and a dead
 * display must surface as DISPLAY_DIED rather than Xlib ending the process.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const CHILD = fileURLToPath(new URL('./fixtures/display-child.ts', import.meta.url));

interface Child {
  readonly events: AsyncIterator<Record<string, unknown>>;
  readonly exit: Promise<{ code: number | null; signal: string | null; stderr: string }>;
  kill(signal: NodeJS.Signals): void;
}

const startChild = (mode: string, ownGroup = false): Child => {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DISPLAY: '' },
    detached: ownGroup,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  async function* lines(): AsyncGenerator<Record<string, unknown>> {
    let buffer = '';
    for await (const chunk of child.stdout.setEncoding('utf8')) {
      buffer += chunk as string;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        yield JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
        buffer = buffer.slice(newline + 1);
      }
    }
  }
  return {
    events: lines(),
    exit,
    // With its own group, the whole group is signalled, as a shell's Ctrl-C or a CI runner does.
    kill: (signal) => (ownGroup ? process.kill(-(child.pid as number), signal) : child.kill(signal)),
  };
};

const next = async (child: Child): Promise<Record<string, unknown>> => {
  const { value, done } = await child.events.next();
  if (done) throw new Error(`child ended early: ${JSON.stringify(await child.exit)}`);
  return value;
};

/** Gone, or a zombie: once its parent died, init reaps it only now and then. */
const ended = (pid: number): boolean => {
  try {
    return / Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\)/s, ')'));
  } catch {
    return true;
  }
};

const gone = async (pid: number): Promise<boolean> => {
  const deadline = Date.now() + 3_000;
  while (!ended(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  return ended(pid);
};

/** The session services of a display: the processes that name its runtime directory. */
const servicesOf = (dir: string): number[] =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && !ended(Number(entry)))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir);
      } catch {
        return false;
      }
    })
    .map(Number);

describe('owned displays and the end of the process', () => {
  test.each(['SIGTERM', 'SIGINT', 'SIGKILL'] as const)(
    '%s ends the process by that signal, its Xvfb and its session services, and removes its X cookie',
    async (signal) => {
      const child = startChild('hold');
      const { pid, sessionBus, xauthority } = await next(child);
      expect(existsSync(String(xauthority))).toBe(true);
      expect(existsSync(`/proc/${pid}`)).toBe(true);
      const dir = /unix:path=([^,]+)\/bus/.exec(String(sessionBus))?.[1] as string;
      const services = servicesOf(dir);
      expect(services.length).toBeGreaterThanOrEqual(3);
      child.kill(signal);
      expect(await child.exit).toMatchObject({ code: null, signal });
      expect(await gone(pid as number)).toBe(true);
      for (const service of services) expect(await gone(service)).toBe(true);
      await expect.poll(() => existsSync(dir), { timeout: 3_000 }).toBe(false);
      await expect.poll(() => existsSync(dirname(String(xauthority))), { timeout: 3_000 }).toBe(false);
    },
  );

  test('SIGKILL of the whole process group ends the session services too', async () => {
    const child = startChild('hold', true);
    const { sessionBus } = await next(child);
    const dir = /unix:path=([^,]+)\/bus/.exec(String(sessionBus))?.[1] as string;
    const services = servicesOf(dir);
    expect(services.length).toBeGreaterThanOrEqual(3);
    child.kill('SIGKILL');
    await child.exit;
    for (const service of services) expect(await gone(service)).toBe(true);
    await expect.poll(() => existsSync(dir), { timeout: 3_000 }).toBe(false);
  });

  test('an uncaught exception stops the Xvfb and still crashes the process', async () => {
    const child = startChild('throw');
    const { pid } = await next(child);
    const exit = await child.exit;
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('crash on purpose');
    expect(await gone(pid as number)).toBe(true);
  });

  test('a normal exit after capture and input keeps its exit code and ends the Xvfb', async () => {
    const child = startChild('exit-code');
    const { pid } = await next(child);
    const exit = await child.exit;
    expect(exit).toMatchObject({ code: 3, signal: null });
    expect(exit.stderr).toBe('');
    expect(await gone(pid as number)).toBe(true);
  });

  test('after the X server dies every operation reports DISPLAY_DIED and the process lives on', async () => {
    const child = startChild('dead-display');
    await next(child);
    expect(await next(child)).toEqual({
      event: 'after-death',
      capture: 'DISPLAY_DIED',
      click: 'DISPLAY_DIED',
      key: 'DISPLAY_DIED',
      list: 'DISPLAY_DIED',
      launch: 'DISPLAY_DIED',
    });
    // Not asserted: the exit code. libnut closes its X connection in a C atexit hook, and Xlib
    // ends a process whose server is gone with code 1; nothing in JavaScript can prevent that.
    await child.exit;
  });
});
