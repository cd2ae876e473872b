/**
 * The opening of a VNC session as a browser's noVNC makes it, over the bridge's WebSocket: the
 * RFB version, security "None", and the server's init message, whose screen size names the
 * display being served.
 */
import { WebSocket } from 'ws';

export interface RfbGreeting {
  /** The server's version line, e.g. "RFB 003.008\n". */
  readonly version: string;
  readonly width: number;
  readonly height: number;
}

export function rfbHandshake(pageUrl: string): Promise<RfbGreeting> {
  const ws = new WebSocket(new URL('websockify', pageUrl.replace(/^http/, 'ws')), ['binary']);
  let buffered = Buffer.alloc(0);
  let wanted: { readonly bytes: number; readonly take: (data: Buffer) => void } | undefined;
  const feed = (): void => {
    if (!wanted || buffered.length < wanted.bytes) return;
    const { bytes, take } = wanted;
    wanted = undefined;
    const data = buffered.subarray(0, bytes);
    buffered = buffered.subarray(bytes);
    take(data);
  };
  const read = (bytes: number): Promise<Buffer> =>
    new Promise((resolve) => {
      wanted = { bytes, take: resolve };
      feed();
    });
  ws.on('message', (data: Buffer) => {
    buffered = Buffer.concat([buffered, data]);
    feed();
  });
  return new Promise<RfbGreeting>((resolve, reject) => {
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
      ws.removeAllListeners('close');
      ws.close();
      resolve({ version, width: init.readUInt16BE(0), height: init.readUInt16BE(2) });
    });
  });
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
