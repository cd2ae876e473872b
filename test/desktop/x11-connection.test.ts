/**
 * XConnection against a fake X server on a local socket: what arrives in pieces, and in what
 * order, is under the test's control, which a real server never makes reproducible.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { XConnection, XProtocolError } from '../../src/desktop/x11/connection.ts';

const DISPLAY_NUMBER = 900 + (process.pid % 90);
const ROOT = 0x100;
const VISUAL = 0x21;

/** Screen 0 of depth 24: 32-bit pixels, little-endian, a TrueColor root visual. */
const setupReply = (): Buffer => {
  const reply = Buffer.alloc(120);
  reply.writeUInt8(1, 0);
  reply.writeUInt16LE(11, 2);
  reply.writeUInt16LE((reply.length - 8) / 4, 6);
  reply.writeUInt32LE(0x200000, 12); // resource id base
  reply.writeUInt32LE(0x1fffff, 16); // and mask
  reply.writeUInt8(1, 28); // screens
  reply.writeUInt8(1, 29); // pixmap formats
  reply.writeUInt8(32, 32);
  reply.writeUInt8(32, 33);
  reply.writeUInt8(8, 34);
  reply.writeUInt8(255, 35);
  reply.writeUInt8(24, 40); // format: depth 24, 32 bits per pixel, rows padded to 32
  reply.writeUInt8(32, 41);
  reply.writeUInt8(32, 42);
  const screen = 48;
  reply.writeUInt32LE(ROOT, screen);
  reply.writeUInt16LE(64, screen + 20);
  reply.writeUInt16LE(48, screen + 22);
  reply.writeUInt32LE(VISUAL, screen + 32);
  reply.writeUInt8(24, screen + 38);
  reply.writeUInt8(1, screen + 39);
  reply.writeUInt8(24, screen + 40); // depth 24 with one visual
  reply.writeUInt16LE(1, screen + 42);
  const visual = screen + 48;
  reply.writeUInt32LE(VISUAL, visual);
  reply.writeUInt8(4, visual + 4); // TrueColor
  reply.writeUInt32LE(0xff0000, visual + 8);
  reply.writeUInt32LE(0xff00, visual + 12);
  reply.writeUInt32LE(0xff, visual + 16);
  return reply;
};

/** A reply to request `sequence`, `data` after its 32-byte header. */
const reply = (sequence: number, data: Buffer): Buffer => {
  const header = Buffer.alloc(32);
  header.writeUInt8(1, 0);
  header.writeUInt8(24, 1);
  header.writeUInt16LE(sequence, 2);
  header.writeUInt32LE(data.length / 4, 4);
  return Buffer.concat([header, data]);
};

const event = (code: number): Buffer => {
  const packet = Buffer.alloc(32);
  packet.writeUInt8(code, 0);
  return packet;
};

let server: Server | undefined;
const clients = new Set<Socket>();

/**
 * Serves one client: its setup, then `answer` is called with each request's opcode and
 * sequence; what it returns is written before the next answer starts, as a server answers in order.
 */
const fakeServer = async (answer: (client: Socket, opcode: number, sequence: number) => Promise<void> | void): Promise<string> => {
  mkdirSync('/tmp/.X11-unix', { recursive: true });
  const path = `/tmp/.X11-unix/X${DISPLAY_NUMBER}`;
  rmSync(path, { force: true });
  server = createServer((client) => {
    clients.add(client);
    let setupDone = false;
    let pending = Buffer.alloc(0);
    let sequence = 0;
    let answered: Promise<void> = Promise.resolve();
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      if (!setupDone) {
        if (pending.length < 12) return;
        const size = 12 + Math.ceil(pending.readUInt16LE(6) / 4) * 4 + Math.ceil(pending.readUInt16LE(8) / 4) * 4;
        if (pending.length < size) return;
        pending = pending.subarray(size);
        setupDone = true;
        client.write(setupReply());
      }
      while (pending.length >= 4 && pending.length >= pending.readUInt16LE(2) * 4) {
        const opcode = pending.readUInt8(0);
        pending = pending.subarray(pending.readUInt16LE(2) * 4);
        const current = ++sequence;
        answered = answered.then(() => answer(client, opcode, current));
      }
    });
  });
  await new Promise<void>((resolve) => server!.listen(path, resolve));
  return `:${DISPLAY_NUMBER}`;
};

/** Writes `bytes` in pieces of the given sizes, each in a write of its own, a moment apart. */
const dribble = async (client: Socket, bytes: Buffer, sizes: readonly number[]): Promise<void> => {
  let at = 0;
  for (const size of sizes) {
    client.write(bytes.subarray(at, at + size));
    at += size;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  client.write(bytes.subarray(at));
};

afterEach(async () => {
  for (const client of clients) client.destroy();
  clients.clear();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

const GET_IMAGE = 73;

describe('XConnection', () => {
  test('reads the pixel format of screen 0 from the setup', async () => {
    const x = await XConnection.open(await fakeServer(() => undefined));
    expect(x.root).toBe(ROOT);
    expect(x.pixels).toEqual({ byteOrder: 0, depth: 24, bitsPerPixel: 32, scanlinePad: 32, masks: { red: 0xff0000, green: 0xff00, blue: 0xff } });
    x.close();
  });

  test('a large reply arriving in pieces lands whole in the buffer given, with events and the next reply around it', async () => {
    const pixels = Buffer.alloc(4 * 64 * 48);
    for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7) % 251;
    const display = await fakeServer((client, opcode, sequence) => {
      if (opcode === GET_IMAGE) {
        // An event, then the reply cut mid-header, mid-data, and sharing a write with the event after it.
        const image = reply(sequence, pixels);
        return dribble(client, Buffer.concat([event(22), image, event(23)]), [20, 40, 5, 1000, 3]);
      }
      client.write(reply(sequence, Buffer.alloc(0)));
      return undefined;
    });
    const x = await XConnection.open(display);
    const events: number[] = [];
    x.onEvent = (code) => events.push(code);
    const into = new Uint8Array(pixels.length);
    const [, synced] = await Promise.all([x.image({ x: 0, y: 0, width: 64, height: 48 }, into), x.sync()]);
    expect(Buffer.from(into).equals(pixels)).toBe(true);
    expect(events).toEqual([22, 23]);
    expect(synced.readUInt16LE(2)).toBe(2);
    x.close();
  });

  test('a reply of another size than the buffer is an error, and the connection goes on', async () => {
    const display = await fakeServer((client, opcode, sequence) => {
      client.write(reply(sequence, Buffer.alloc(opcode === GET_IMAGE ? 4 * 10 * 10 : 0)));
    });
    const x = await XConnection.open(display);
    await expect(x.image({ x: 0, y: 0, width: 64, height: 48 }, new Uint8Array(4 * 64 * 48))).rejects.toThrow(XProtocolError);
    await expect(x.sync()).resolves.toBeDefined();
    x.close();
  });
});
