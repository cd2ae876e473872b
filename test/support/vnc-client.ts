/**
 * A VNC session as a browser's noVNC opens it, over the bridge's WebSocket: the RFB version,
 * security "None", and the server's init message, whose screen size names the display being
 * served; then, when asked, whole frames of that display (raw encoding).
 */
import { get as httpGet } from 'node:http';
import { WebSocket } from 'ws';

export interface RfbGreeting {
  /** The server's version line, e.g. "RFB 003.008\n". */
  readonly version: string;
  readonly width: number;
  readonly height: number;
}

export interface RfbSession {
  readonly greeting: RfbGreeting;
  /** The whole screen as the server sends it now, in its pixel format. */
  frame(): Promise<Buffer>;
  close(): void;
}

/** A WebSocket read as a byte stream: `read(n)` resolves with the next n bytes. */
function byteStream(ws: WebSocket): (bytes: number) => Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  let wanted: { readonly bytes: number; readonly take: (data: Buffer) => void } | undefined;
  const feed = (): void => {
    if (!wanted || length < wanted.bytes) return;
    const { bytes, take } = wanted;
    wanted = undefined;
    // One copy per read: a raw frame arrives in hundreds of messages.
    const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
    chunks.length = 0;
    if (all.length > bytes) chunks.push(all.subarray(bytes));
    length -= bytes;
    take(all.subarray(0, bytes));
  };
  ws.on('message', (data: Buffer) => {
    chunks.push(data);
    length += data.length;
    feed();
  });
  return (bytes) =>
    new Promise((resolve) => {
      wanted = { bytes, take: resolve };
      feed();
    });
}

/** A session on the page's screen `screen` (1-based). */
export function openRfbSession(pageUrl: string, screen = 1): Promise<RfbSession> {
  const ws = new WebSocket(new URL(`websockify/${screen}`, pageUrl.replace(/^http/, 'ws')), ['binary']);
  const read = byteStream(ws);
  return new Promise<RfbSession>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('close', () => reject(new Error('the bridge closed the connection during the handshake')));
    ws.once('open', async () => {
      const version = (await read(12)).toString('latin1');
      ws.send(Buffer.from('RFB 003.008\n', 'latin1'));
      const count = (await read(1))[0] ?? 0;
      const types = [...(await read(count))];
      if (!types.includes(1)) return reject(new Error(`no security type None among ${types.join(', ')}`));
      ws.send(Buffer.from([1]));
      if ((await read(4)).readUInt32BE(0) !== 0) return reject(new Error('security handshake failed'));
      ws.send(Buffer.from([1]));
      const init = await read(24);
      await read(init.readUInt32BE(20));
      ws.removeAllListeners('close');
      const width = init.readUInt16BE(0);
      const height = init.readUInt16BE(2);
      const bytesPerPixel = init[4]! / 8;
      // SetEncodings: raw only.
      ws.send(Buffer.from([2, 0, 0, 1, 0, 0, 0, 0]));
      const screen = Buffer.alloc(width * height * bytesPerPixel);
      const frame = async (): Promise<Buffer> => {
        const request = Buffer.alloc(10);
        request.writeUInt8(3, 0);
        request.writeUInt16BE(width, 6);
        request.writeUInt16BE(height, 8);
        ws.send(request);
        for (;;) {
          const type = (await read(1))[0];
          if (type === 2) continue; // bell
          if (type === 3) {
            await read((await read(7)).readUInt32BE(3)); // cut text
            continue;
          }
          if (type !== 0) throw new Error(`unexpected RFB message type ${type}`);
          const rects = (await read(3)).readUInt16BE(1);
          for (let i = 0; i < rects; i++) {
            const head = await read(12);
            const [x, y, w, h] = [0, 2, 4, 6].map((at) => head.readUInt16BE(at)) as [number, number, number, number];
            if (head.readInt32BE(8) !== 0) throw new Error(`unexpected RFB encoding ${head.readInt32BE(8)}`);
            const pixels = await read(w * h * bytesPerPixel);
            for (let row = 0; row < h; row++)
              pixels.copy(screen, ((y + row) * width + x) * bytesPerPixel, row * w * bytesPerPixel, (row + 1) * w * bytesPerPixel);
          }
          return Buffer.from(screen);
        }
      };
      resolve({ greeting: { version, width, height }, frame, close: () => ws.close() });
    });
  });
}

export async function rfbHandshake(pageUrl: string): Promise<RfbGreeting> {
  const session = await openRfbSession(pageUrl);
  session.close();
  return session.greeting;
}

/**
 * What a browser does with the address retrace prints: loads the page, its noVNC module, and
 * opens the VNC session. Returns the page and the server's greeting.
 */
export async function openViewer(
  pageUrl: string,
): Promise<{ readonly page: string; readonly module: number; readonly greeting: RfbGreeting }> {
  const response = await fetch(pageUrl);
  if (response.status !== 200) throw new Error(`${pageUrl}: HTTP ${response.status}`);
  const page = await response.text();
  const module = (await fetch(new URL('novnc/core/rfb.js', pageUrl))).status;
  return { page, module, greeting: await rfbHandshake(pageUrl) };
}

/** How the bridge answered one request: its HTTP status, and how many bytes it sent after (screen). */
export interface Answer {
  readonly status: number;
  readonly bytes: number;
}

/** A plain GET with the headers given (Node's fetch will not send another Host). */
function get(url: URL, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }));
    });
    request.on('error', reject);
  });
}

/** A WebSocket open as a browser page would try it: refused (its status), or every byte it got in `forMs`. */
function tryWebSocket(url: URL, options: { readonly host?: string; readonly origin?: string }): Promise<Answer> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url.href.replace(/^http/, 'ws'), ['binary'], {
      ...(options.host && { headers: { host: options.host } }),
      ...(options.origin && { origin: options.origin }),
    });
    let bytes = 0;
    ws.on('unexpected-response', (_request, response) => resolve({ status: response.statusCode ?? 0, bytes: 0 }));
    ws.on('error', () => resolve({ status: 0, bytes }));
    // Opened: the handshake passed; what a viewer gets first is the server's greeting.
    ws.on('open', () =>
      ws.once('message', (data: Buffer) => {
        bytes += data.length;
        ws.close();
        resolve({ status: 101, bytes });
      }),
    );
  });
}

/** What `strangerAnswers` must find: every stranger refused with nothing sent, the page's own WebSocket greeted. */
export const STRANGERS_REFUSED = (answers: Record<string, Answer>): Record<string, Answer> =>
  Object.fromEntries(
    Object.keys(answers).map((what) => [
      what,
      what === "the page's own websocket" ? { status: 101, bytes: 12 } : { status: 403, bytes: 0 },
    ]),
  );

/**
 * What the bridge of `pageUrl` answers to requests a stranger can make: another local user (no
 * token, or a guessed one), a web page in the user's browser (its own Origin), a DNS-rebinding
 * page (its own Host). Keyed by what was tried.
 */
export async function strangerAnswers(pageUrl: string): Promise<Record<string, Answer>> {
  const page = new URL(pageUrl);
  const root = new URL('/', page);
  const wrong = new URL(`/${'A'.repeat(page.pathname.length - 2)}/`, page);
  const attacker = `attacker.example:${page.port}`;
  const tries: Record<string, () => Promise<Answer>> = {
    'page without the token': () => get(root, {}),
    'page with a wrong token': () => get(wrong, {}),
    'events without the token': () => get(new URL('events', root), {}),
    'noVNC module without the token': () => get(new URL('novnc/core/rfb.js', root), {}),
    'page with another Host': () => get(page, { host: attacker }),
    'websocket without the token': () => tryWebSocket(new URL('websockify/1', root), {}),
    'websocket with a wrong token': () => tryWebSocket(new URL('websockify/1', wrong), {}),
    'websocket from another Origin': () => tryWebSocket(new URL('websockify/1', page), { origin: 'http://evil.example' }),
    'websocket with another Host': () => tryWebSocket(new URL('websockify/1', page), { host: attacker }),
    // The control: the page's own WebSocket, as its browser opens it, is let in.
    "the page's own websocket": () => tryWebSocket(new URL('websockify/1', page), { origin: page.origin }),
  };
  const answers: Record<string, Answer> = {};
  for (const [what, attempt] of Object.entries(tries)) answers[what] = await attempt();
  return answers;
}
