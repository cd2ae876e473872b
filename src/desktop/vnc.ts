/**
 * A display in a browser: x11vnc serves the display over VNC on a local port, and one local
 * HTTP port serves a noVNC page and bridges its WebSocket to x11vnc. So a person can drive an app
 * on retrace's own (virtual) display with nothing but a browser, e.g. for `retrace record`.
 * Given a status source, the same port streams it (Server-Sent Events at `/events`) and the page
 * shows it beside the screen, e.g. the goal and action of `retrace run --live` and its results.
 * Everything listens on 127.0.0.1 only, and x11vnc is ended with this process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, type Server, type ServerResponse } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { readFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InfrastructureError } from '../errors.ts';
import { onProcessExit } from './exit-hooks.ts';
import type { Display } from './types.ts';

/** A line of the status panel beside the screen. */
export interface LiveStatus {
  /** `now`: what is in progress, replacing the last; `done`: a result; `note`: another line that stays. */
  readonly kind: 'now' | 'done' | 'note';
  readonly text: string;
  /** Of a result. */
  readonly passed?: boolean;
}

/** Calls `listener` with each status as it happens. */
export type StatusSource = (listener: (status: LiveStatus) => void) => void;

export interface VncBridge {
  /** The page to open in a browser. */
  readonly url: string;
  close(): Promise<void>;
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

/** Starts x11vnc on `display` and resolves once it accepts connections on `port`. */
function startX11vnc(display: Display, port: number, viewOnly: boolean): Promise<ChildProcess> {
  const args = ['-display', display.name, '-rfbport', String(port), '-localhost', '-shared', '-forever', '-nopw', '-norc', '-noxdamage', '-quiet', ...(viewOnly ? ['-viewonly'] : [])];
  // Detached, like the display: a Ctrl-C meant for retrace must not end the viewer's server.
  const child = spawn('x11vnc', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DISPLAY: display.name }, detached: true });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new InfrastructureError('MISSING_TOOL', `x11vnc did not start on ${display.name} within 10 s: ${output.trim().slice(-300)}`)), 10_000);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes(`PORT=${port}`)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('error', (error: NodeJS.ErrnoException) =>
      fail(error.code === 'ENOENT' ? new InfrastructureError('MISSING_TOOL', 'x11vnc was not found on PATH. Install it (Debian/Ubuntu: apt-get install x11vnc).') : error),
    );
    child.once('exit', (code) => fail(new InfrastructureError('MISSING_TOOL', `x11vnc exited with code ${code}: ${output.trim().slice(-300)}`)));
  });
}

/** The noVNC library's folder (its `core/` and `vendor/` are served as they are). */
const novncDir = (): string => dirname(dirname(fileURLToPath(import.meta.resolve('@novnc/novnc'))));

const page = (title: string, viewOnly: boolean, status: boolean): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>html,body{margin:0;height:100%;background:#333;color:#eee;font:13px system-ui,sans-serif}
#bar{padding:4px 8px}#main{display:flex;height:calc(100% - 26px)}#screen{flex:1;min-width:0}
#status{width:340px;overflow-y:auto;padding:0 8px;border-left:1px solid #555}#now{padding:6px 0;color:#fd6}
#status ol{margin:0;padding-left:20px}.passed{color:#7d7}.failed{color:#f77}.note{color:#aaa}</style></head><body>
<div id="bar">${title} — <span id="state">connecting…</span></div>
<div id="main"><div id="screen"></div>${status ? '<div id="status"><div id="now">waiting for the first goal…</div><ol id="results"></ol></div>' : ''}</div>
<script type="module">
import RFB from './novnc/core/rfb.js';
const rfb = new RFB(document.getElementById('screen'), (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/websockify');
rfb.scaleViewport = true;
rfb.viewOnly = ${viewOnly};
const state = document.getElementById('state');
rfb.addEventListener('connect', () => (state.textContent = ${viewOnly ? "'connected: watching (view only)'" : "'connected: your mouse and keyboard drive the app'"}));
rfb.addEventListener('disconnect', () => (state.textContent = 'disconnected'));
${status ? `const now = document.getElementById('now');
const results = document.getElementById('results');
const events = new EventSource('./events');
// Each connection starts with everything that stays: a reconnection must not list it twice.
events.onopen = () => results.replaceChildren();
events.onmessage = (message) => {
  const { kind, text, passed } = JSON.parse(message.data);
  if (kind === 'now') return void (now.textContent = text);
  const item = document.createElement('li');
  item.textContent = text;
  item.className = kind === 'note' ? 'note' : passed ? 'passed' : 'failed';
  results.append(item);
  if (kind === 'done') now.textContent = '';
};
events.onerror = () => (now.textContent = 'the run has ended');` : ''}
</script></body></html>`;

/** The status as Server-Sent Events: a page that opens late is sent what stays and what is in progress. */
function statusStream(source: StatusSource): { serve(res: ServerResponse): void; close(): void } {
  const kept: LiveStatus[] = [];
  let now: LiveStatus | undefined;
  const clients = new Set<ServerResponse>();
  const event = (status: LiveStatus): string => `data: ${JSON.stringify(status)}\n\n`;
  source((status) => {
    if (status.kind === 'now') now = status;
    else {
      kept.push(status);
      if (status.kind === 'done') now = undefined;
    }
    for (const client of clients) client.write(event(status));
  });
  return {
    serve(res) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write([...kept, ...(now ? [now] : [])].map(event).join(''));
      clients.add(res);
      res.on('close', () => clients.delete(res));
    },
    close() {
      for (const client of clients) client.end();
    },
  };
}

/**
 * Serves `display` to a browser on one local port; `port` 0 picks a free one. `viewOnly`: the
 * viewer's mouse and keyboard are ignored (by x11vnc, not only by the page). `status`: what the
 * page shows beside the screen.
 */
export async function startVncBridge(
  display: Display,
  options: { readonly port?: number; readonly title: string; readonly viewOnly?: boolean; readonly status?: StatusSource },
): Promise<VncBridge> {
  const { WebSocketServer } = await import('ws');
  const viewOnly = options.viewOnly ?? false;
  const rfbPort = await freePort();
  const vnc = await startX11vnc(display, rfbPort, viewOnly);
  const forget = onProcessExit(() => vnc.kill('SIGKILL'));
  const root = novncDir();
  const status = options.status ? statusStream(options.status) : undefined;
  const server: Server = createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(options.title, viewOnly, status !== undefined));
      return;
    }
    if (url.pathname === '/events' && status) {
      status.serve(res);
      return;
    }
    const file = normalize(join(root, url.pathname.replace(/^\/novnc\//, '/')));
    if (!url.pathname.startsWith('/novnc/') || !file.startsWith(root + sep) || !file.endsWith('.js')) {
      res.writeHead(404).end();
      return;
    }
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': 'text/javascript' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  const sockets = new WebSocketServer({ noServer: true, handleProtocols: (offered) => (offered.has('binary') ? 'binary' : false) });
  server.on('upgrade', (req, socket, head) => {
    if (!req.url?.startsWith('/websockify')) {
      socket.destroy();
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => {
      const tcp = connect(rfbPort, '127.0.0.1');
      tcp.on('data', (data) => ws.send(data));
      tcp.on('close', () => ws.close());
      tcp.on('error', () => ws.close());
      ws.on('message', (data: Buffer) => tcp.write(data));
      ws.on('close', () => tcp.destroy());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      status?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      vnc.removeAllListeners('exit');
      vnc.kill('SIGTERM');
      forget();
    },
  };
}
