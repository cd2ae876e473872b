/**
 * A page in headless Chromium driven over the DevTools protocol: open a URL, press keys as a
 * person would, read the page, take a screenshot. For the pages retrace serves (a trace).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { Frame } from '../../src/domain.ts';
import { decodePng } from '../../src/vision/frame.ts';

const KEY_CODES: Readonly<Record<string, number>> = { ArrowRight: 39, ArrowLeft: 37, Home: 36, End: 35 };

export class BrowserPage {
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly events: { method: string; resolve: () => void }[] = [];

  private constructor(
    private readonly chromium: ChildProcess,
    private readonly socket: WebSocket,
    private readonly dir: string,
  ) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id?: number; method?: string; result?: unknown; error?: { message: string } };
      if (message.id !== undefined) {
        const call = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        if (message.error) call?.reject(new Error(message.error.message));
        else call?.resolve(message.result);
      } else if (message.method) {
        for (const e of this.events.filter((w) => w.method === message.method)) {
          this.events.splice(this.events.indexOf(e), 1);
          e.resolve();
        }
      }
    });
  }

  static async open(url: string, size: readonly [number, number] = [1400, 1000]): Promise<BrowserPage> {
    const dir = mkdtempSync(join(tmpdir(), 'retrace-browser-'));
    const chromium = spawn(
      '/usr/bin/chromium',
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--remote-debugging-port=0',
        `--user-data-dir=${join(dir, 'profile')}`,
        `--window-size=${size[0]},${size[1]}`,
        'about:blank',
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        // Its own process group: closing ends the renderer and the zygote too, not only the browser.
        detached: true,
      },
    );
    const browser = await new Promise<string>((resolve, reject) => {
      let text = '';
      chromium.stderr!.on('data', (chunk: Buffer) => {
        text += String(chunk);
        const found = /DevTools listening on (ws:\/\/\S+)/.exec(text);
        if (found?.[1]) resolve(found[1]);
      });
      chromium.once('exit', () => reject(new Error(`chromium ended: ${text.slice(-500)}`)));
    });
    const { host } = new URL(browser);
    const targets = (await (await fetch(`http://${host}/json/list`)).json()) as { type: string; webSocketDebuggerUrl: string }[];
    const target = targets.find((t) => t.type === 'page');
    if (!target) throw new Error('chromium has no page');
    const socket = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const page = new BrowserPage(chromium, socket, dir);
    await page.send('Page.enable');
    const loaded = page.event('Page.loadEventFired');
    await page.send('Page.navigate', { url });
    await loaded;
    return page;
  }

  send<T = unknown>(method: string, params: object = {}): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  private event(method: string): Promise<void> {
    return new Promise((resolve) => this.events.push({ method, resolve }));
  }

  async evaluate<T>(expression: string): Promise<T> {
    const out = await this.send<{ result: { value: T }; exceptionDetails?: { text: string } }>('Runtime.evaluate', {
      expression,
      returnByValue: true,
      // An expression that is a promise (a wait for the page to paint) is answered once it settles.
      awaitPromise: true,
    });
    if (out.exceptionDetails) throw new Error(`page script failed: ${out.exceptionDetails.text}`);
    return out.result.value;
  }

  /** A key pressed and released, as the keyboard sends it. */
  async press(key: string): Promise<void> {
    const code = KEY_CODES[key] ?? key.toUpperCase().charCodeAt(0);
    for (const type of ['rawKeyDown', 'keyUp'])
      await this.send('Input.dispatchKeyEvent', { type, key, code: key, windowsVirtualKeyCode: code });
  }

  async screenshot(): Promise<Frame> {
    const { data } = await this.send<{ data: string }>('Page.captureScreenshot', { format: 'png' });
    return decodePng(Buffer.from(data, 'base64'));
  }

  /** Ends Chromium, then removes its profile (it writes there until it has ended). */
  async close(): Promise<void> {
    this.socket.close();
    const ended = new Promise((resolve) => this.chromium.once('exit', resolve));
    const running = this.chromium.exitCode === null && this.chromium.signalCode === null;
    if (running && this.chromium.pid !== undefined) process.kill(-this.chromium.pid, 'SIGKILL');
    if (running) await ended;
    // A child killed in the middle of a write may still add a file while the folder is removed.
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 5 });
  }
}
