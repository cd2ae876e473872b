/**
 * The browser view's door (src/desktop/page-access.ts) on a real x11vnc of a real display: the
 * printed address lets a viewer in; a stranger — no token, a guessed one, a web page's Origin, a
 * DNS-rebinding Host — gets 403 and not one byte of screen; x11vnc itself listens on no port.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { startVncBridge, type VncBridge } from '../../src/desktop/index.ts';
import { getTestDesktop } from '../support/desktop.ts';
import { openViewer, strangerAnswers, STRANGERS_REFUSED } from '../support/vnc-client.ts';

const run = promisify(execFile);
const bridges: VncBridge[] = [];

afterAll(async () => {
  await Promise.all(bridges.map((bridge) => bridge.close()));
});

/** The TCP ports the process `pid` listens on. */
const listeningPorts = async (pid: number): Promise<string[]> => {
  const { stdout } = await run('ss', ['-Hltnp']);
  return stdout
    .split('\n')
    .filter((line) => line.includes(`pid=${pid},`))
    .map((line) => line.split(/\s+/)[3] ?? line);
};

describe('the browser view', () => {
  test('lets in the printed address only, and x11vnc listens on no TCP port', async () => {
    const { display } = await getTestDesktop();
    const bridge = await startVncBridge([display], { title: 'access', viewOnly: true });
    bridges.push(bridge);
    expect(bridge.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]{32}\/$/);

    const viewer = await openViewer(bridge.url);
    expect(viewer.module).toBe(200);
    expect(viewer.greeting).toMatchObject({ width: display.width, height: display.height });

    const answers = await strangerAnswers(bridge.url);
    expect(answers).toEqual(STRANGERS_REFUSED(answers));

    const { stdout } = await run('pgrep', ['-x', '-P', String(process.pid), 'x11vnc']).catch(() => ({ stdout: '' }));
    const vncs = stdout.split('\n').filter(Boolean).map(Number);
    expect(vncs.length).toBeGreaterThan(0);
    for (const pid of vncs) expect(await listeningPorts(pid)).toEqual([]);
  });

  test('two bridges have two tokens: the address of one does not open the other', async () => {
    const { display } = await getTestDesktop();
    const [a, b] = await Promise.all([
      startVncBridge([display], { title: 'a', viewOnly: true }),
      startVncBridge([display], { title: 'b', viewOnly: true }),
    ]);
    bridges.push(a, b);
    const tokenOf = (url: string): string => new URL(url).pathname;
    expect(tokenOf(a.url)).not.toBe(tokenOf(b.url));
    const crossed = new URL(tokenOf(a.url), b.url);
    expect((await fetch(crossed)).status).toBe(403);
    expect((await fetch(b.url)).status).toBe(200);
  });
});
