/**
 * A VNC session as a browser's noVNC opens it, over the bridge's WebSocket: the RFB version,
 * security "None", and the server's init message, whose screen size names the display being
 * served; then, when asked, whole frames of that display (raw encoding).
 */
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
            for (let row = 0; row < h; row++) pixels.copy(screen, ((y + row) * width + x) * bytesPerPixel, row * w * bytesPerPixel, (row + 1) * w * bytesPerPixel);
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
export async function openViewer(pageUrl: string): Promise<{ readonly page: string; readonly module: number; readonly greeting: RfbGreeting }> {
  const response = await fetch(pageUrl);
  if (response.status !== 200) throw new Error(`${pageUrl}: HTTP ${response.status}`);
  const page = await response.text();
  const module = (await fetch(new URL('novnc/core/rfb.js', pageUrl))).status;
  return { page, module, greeting: await rfbHandshake(pageUrl) };
}
