/**
 * The handover of a display from the run's main process to a worker: a file the worker waits
 * for, with the display or the fault that kept it from opening. Real files in a real folder; the
 * displays are plain values (no X server is needed to hand one over).
 */
import { statSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import type { Display, HandedDisplay } from '../../src/desktop/types.ts';
import { handOver } from '../../src/desktop/index.ts';
import { InfrastructureError } from '../../src/errors.ts';
import { handoverFolder, handOverWhenOpen, takeOver } from '../../src/runner/display-handoff.ts';

const HANDED = {
  name: ':42',
  width: 1280,
  height: 800,
  owned: true,
  env: { DISPLAY: ':42', XAUTHORITY: '/tmp/x/cookie', TZ: 'UTC', LANG: 'C.UTF-8' },
  sessionBus: 'unix:path=/tmp/x/bus',
} satisfies HandedDisplay;
const display = {
  ...HANDED,
  died: new Promise<void>(() => undefined),
  assertAlive: () => undefined,
  stop: async () => undefined,
} satisfies Display;

const folders: (() => void)[] = [];
const folder = (): ReturnType<typeof handoverFolder> => {
  const made = handoverFolder();
  folders.push(made.remove);
  return made;
};
afterEach(() => {
  for (const remove of folders.splice(0)) remove();
});

describe('display handover', () => {
  test('a worker that asks before the display opened gets it once it has', async () => {
    const { dir, file } = folder();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    let open: (d: Display) => void = () => undefined;
    const opening = new Promise<Display>((resolve) => (open = resolve));
    const taken = takeOver(file(1), 5_000);
    const handed = handOverWhenOpen(file(1), opening, handOver);
    open(display);
    await handed;
    await expect(taken).resolves.toEqual(HANDED);
  });

  test('a worker that asks after it opened gets it at once', async () => {
    const { file } = folder();
    await handOverWhenOpen(file(2), Promise.resolve(display), handOver);
    await expect(takeOver(file(2), 5_000)).resolves.toEqual(HANDED);
  });

  test("the fault that kept the display from opening is the worker's, with its code and message", async () => {
    const { file } = folder();
    const fault = new InfrastructureError('NO_DISPLAY', 'Could not start Xvfb (1280x800x24): Xvfb exited with code 1');
    await handOverWhenOpen(file(1), Promise.reject(fault), handOver);
    const error = await takeOver(file(1), 5_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect(error).toMatchObject({ code: 'NO_DISPLAY', message: fault.message });
  });

  test('a handover that is not one retrace wrote, or never comes, is a clear infrastructure error', async () => {
    const { file } = folder();
    for (const text of ['{"display":', 'null', '{"display":{"name":3}}', '{"fault":{"code":"NO_DISPLAY"}}']) {
      writeFileSync(file(1), text);
      await expect(takeOver(file(1), 5_000), text).rejects.toThrow(/display handover .* is not one retrace wrote/);
    }
    await expect(takeOver(file(2), 50)).rejects.toThrow(/did not hand over a display within 50 ms/);
  });
});
