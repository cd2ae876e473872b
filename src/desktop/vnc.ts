/**
 * Displays in a browser: an x11vnc per display serves it over VNC on a unix socket in a private
 * folder, and one local HTTP port serves a noVNC page and bridges its WebSockets
 * (`/websockify/<i>`, screen i from 1) to them. So a person can drive an app on retrace's own
 * (virtual) display with nothing but a browser, e.g. for `retrace record`, or watch every worker
 * of `retrace run --live` at once. Given a status source, the same port streams it (Server-Sent
 * Events at `/events`) and the page shows it: what each screen's worker is doing above its
 * screen, the results beside the screens. The port listens on 127.0.0.1 only and answers only
 * requests that carry the printed address's token (page-access.ts); x11vnc listens on no port
 * at all, and is ended with this process.
 */
import { escapeHtml } from '../safe-text.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InfrastructureError } from '../errors.ts';
import { onProcessExit } from './exit-hooks.ts';
import { pageAccess } from './page-access.ts';
import { pollUntil } from './poll.ts';
import type { Display } from './types.ts';

/** A line of the status panel beside the screen. */
export interface LiveStatus {
  /** `now`: what is in progress, replacing the last; `done`: a result; `note`: another line that stays. */
  readonly kind: 'now' | 'done' | 'note';
  readonly text: string;
  /** Of a result. */
  readonly passed?: boolean;
  /** The screen (1-based) whose worker it is about: a `now` line shows above that screen. */
  readonly screen?: number;
}

/** Calls `listener` with each status as it happens. */
export type StatusSource = (listener: (status: LiveStatus) => void) => void;

export interface VncBridge {
  /** The page to open in a browser; its token is what lets the browser in. */
  readonly url: string;
  close(): Promise<void>;
}

const X11VNC_START_MS = 10_000;

/** Whether something accepts connections on the unix socket `path` now. */
const accepts = (path: string): Promise<true | undefined> =>
  new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(undefined));
  });

/**
 * Starts x11vnc on `display` and resolves once it accepts connections on the unix socket
 * `path`. No TCP port (-rfbport 0; -rfbportv6 -1, or it listens on [::]:5900) and no password:
 * the socket's folder is private to this user, and only the bridge, which checks the page's
 * token, connects to it.
 */
async function startX11vnc(display: Display, path: string, viewOnly: boolean): Promise<ChildProcess> {
  const args = [
    '-display',
    display.name,
    '-unixsock',
    path,
    '-rfbport',
    '0',
    '-rfbportv6',
    '-1',
    '-no6',
    '-shared',
    '-forever',
    '-nopw',
    '-norc',
    '-noxdamage',
    '-quiet',
    ...(viewOnly ? ['-viewonly'] : []),
  ];
  // Detached, like the display: a Ctrl-C meant for retrace must not end the viewer's server.
  const child = spawn('x11vnc', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...display.env }, detached: true });
  let output = '';
  const read = (chunk: Buffer): void => {
    output += chunk.toString();
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  const failed = new Promise<Error>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      resolve(
        error.code === 'ENOENT'
          ? new InfrastructureError('MISSING_TOOL', 'x11vnc was not found on PATH. Install it (Debian/Ubuntu: apt-get install x11vnc).')
          : error,
      ),
    );
    child.once('exit', (code) =>
      resolve(new InfrastructureError('MISSING_TOOL', `x11vnc exited with code ${code}: ${output.trim().slice(-300)}`)),
    );
  });
  const stopWaiting = new AbortController();
  const ready = pollUntil(() => accepts(path), { timeoutMs: X11VNC_START_MS, signal: stopWaiting.signal });
  const outcome = await Promise.race([ready, failed]);
  stopWaiting.abort();
  if (outcome === true) return child;
  child.kill('SIGKILL');
  throw (
    outcome ??
    new InfrastructureError(
      'MISSING_TOOL',
      `x11vnc did not start on ${display.name} within ${X11VNC_START_MS / 1000} s: ${output.trim().slice(-300)}`,
    )
  );
}

/** The noVNC library's folder (its `core/` and `vendor/` are served as they are). */
const novncDir = (): string => dirname(dirname(fileURLToPath(import.meta.resolve('@novnc/novnc'))));

const page = (title: string, viewOnly: boolean, status: boolean, screens: number): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>html,body{margin:0;height:100%;background:#333;color:#eee;font:13px system-ui,sans-serif}
#bar{padding:4px 8px}#main{display:flex;height:calc(100% - 26px)}
#screens{flex:1;min-width:0;display:grid;gap:4px;grid-template-columns:repeat(${Math.ceil(Math.sqrt(screens))},minmax(0,1fr))}
.tile{display:flex;flex-direction:column;min-height:0}.label{padding:2px 4px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.now{color:#fd6}.screen{flex:1;min-height:0}
#status{width:340px;overflow-y:auto;padding:0 8px;border-left:1px solid #555}
#status ol{margin:0;padding-left:20px}.passed{color:#7d7}.failed{color:#f77}.note{color:#aaa}</style></head><body>
<div id="bar">${escapeHtml(title)}</div>
<div id="main"><div id="screens">${Array.from(
  { length: screens },
  (_, i) =>
    `<div class="tile"><div class="label">${screens > 1 ? `worker ${i + 1} ` : ''}<span class="state">connecting…</span>${status ? ' <span class="now">waiting for the first goal…</span>' : ''}</div><div class="screen"></div></div>`,
).join('')}</div>${status ? '<div id="status"><ol id="results"></ol></div>' : ''}</div>
<script type="module">
import RFB from './novnc/core/rfb.js';
const tiles = [...document.querySelectorAll('.tile')];
tiles.forEach((tile, i) => {
  // Relative to the page: its address holds the token the bridge asks for.
  const rfb = new RFB(tile.querySelector('.screen'), new URL('websockify/' + (i + 1), location.href.replace(/^http/, 'ws')).href);
  rfb.scaleViewport = true;
  rfb.viewOnly = ${viewOnly};
  const state = tile.querySelector('.state');
  rfb.addEventListener('connect', () => (state.textContent = ${viewOnly ? "'watching (view only):'" : "'connected: your mouse and keyboard drive the app'"}));
  rfb.addEventListener('disconnect', () => (state.textContent = 'disconnected'));
});
${
  status
    ? `const now = (screen) => (tiles[(screen ?? 1) - 1] ?? tiles[0]).querySelector('.now');
const results = document.getElementById('results');
const events = new EventSource('./events');
// Each connection starts with everything that stays: a reconnection must not list it twice.
events.onopen = () => results.replaceChildren();
events.onmessage = (message) => {
  const { kind, text, passed, screen } = JSON.parse(message.data);
  if (kind === 'now') return void (now(screen).textContent = text);
  const item = document.createElement('li');
  item.textContent = text;
  item.className = kind === 'note' ? 'note' : passed ? 'passed' : 'failed';
  results.append(item);
  if (kind === 'done') now(screen).textContent = '';
};
events.onerror = () => tiles.forEach((tile) => (tile.querySelector('.now').textContent = 'the run has ended'));`
    : ''
}
</script></body></html>`;

/** The status as Server-Sent Events: a page that opens late is sent what stays and what is in progress on each screen. */
function statusStream(source: StatusSource): { serve(res: ServerResponse): void; close(): void } {
  const kept: LiveStatus[] = [];
  const now = new Map<number | undefined, LiveStatus>();
  const clients = new Set<ServerResponse>();
  const event = (status: LiveStatus): string => `data: ${JSON.stringify(status)}\n\n`;
  source((status) => {
    if (status.kind === 'now') now.set(status.screen, status);
    else {
      kept.push(status);
      if (status.kind === 'done') now.delete(status.screen);
    }
    for (const client of clients) client.write(event(status));
  });
  return {
    serve(res) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write([...kept, ...now.values()].map(event).join(''));
      clients.add(res);
      res.on('close', () => clients.delete(res));
    },
    close() {
      for (const client of clients) client.end();
    },
  };
}

/**
 * Serves `displays` to a browser on one local port, as screens 1, 2, …; `port` 0 picks a free
 * one. `viewOnly`: the viewer's mouse and keyboard are ignored (by x11vnc, not only by the page).
 * `status`: what the page shows above and beside the screens.
 */
export async function startVncBridge(
  displays: readonly Display[],
  options: { readonly port?: number; readonly title: string; readonly viewOnly?: boolean; readonly status?: StatusSource },
): Promise<VncBridge> {
  const { WebSocketServer } = await import('ws');
  const viewOnly = options.viewOnly ?? false;
  const sockets = mkdtempSync(join(tmpdir(), 'retrace-vnc-'));
  const removeSockets = (): void => rmSync(sockets, { recursive: true, force: true });
  const rfbSockets = displays.map((_, i) => join(sockets, `${i + 1}`));
  const started = await Promise.allSettled(displays.map((display, i) => startX11vnc(display, rfbSockets[i]!, viewOnly)));
  const vncs = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const forget = onProcessExit(() => {
    vncs.forEach((vnc) => vnc.kill('SIGKILL'));
    removeSockets();
  });
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    forget();
    for (const vnc of vncs) vnc.removeAllListeners('exit').kill('SIGKILL');
    removeSockets();
    throw failed.reason;
  }
  const access = pageAccess();
  let port = 0;
  const root = novncDir();
  const status = options.status ? statusStream(options.status) : undefined;
  const server: Server = createHttpServer((req, res) => {
    const path = access.admit(req, port);
    if (path === undefined) {
      res.writeHead(403).end();
      return;
    }
    const url = new URL(path, 'http://localhost');
    if (url.pathname === '/') {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(page(options.title, viewOnly, status !== undefined, displays.length));
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
  const websockets = new WebSocketServer({ noServer: true, handleProtocols: (offered) => (offered.has('binary') ? 'binary' : false) });
  server.on('upgrade', (req, socket, head) => {
    const path = access.admit(req, port);
    if (path === undefined) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    const rfbSocket = rfbSockets[Number(/^\/websockify\/(\d+)$/.exec(path)?.[1]) - 1];
    if (rfbSocket === undefined) {
      socket.destroy();
      return;
    }
    websockets.handleUpgrade(req, socket, head, (ws) => {
      const vnc = connect(rfbSocket);
      vnc.on('data', (data) => ws.send(data));
      vnc.on('close', () => ws.close());
      vnc.on('error', () => ws.close());
      ws.on('message', (data: Buffer) => vnc.write(data));
      ws.on('close', () => vnc.destroy());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: access.url(port),
    close: async () => {
      for (const client of websockets.clients) client.terminate();
      status?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const vnc of vncs) vnc.removeAllListeners('exit').kill('SIGTERM');
      removeSockets();
      forget();
    },
  };
}
