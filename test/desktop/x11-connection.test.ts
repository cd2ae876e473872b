/**
 * XConnection against a fake X server on a local socket: what arrives in pieces, and in what
 * order, is under the test's control, which a real server never makes reproducible.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { XConnection } from '../../src/desktop/x11/connection.ts';
import { XProtocolError } from '../../src/desktop/x11/x-errors.ts';
import { random } from '../support/seeded.ts';

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

/** Listens as display :DISPLAY_NUMBER; `serve` gets each client. */
const listenAsDisplay = async (serve: (client: Socket) => void): Promise<string> => {
  mkdirSync('/tmp/.X11-unix', { recursive: true });
  const path = `/tmp/.X11-unix/X${DISPLAY_NUMBER}`;
  rmSync(path, { force: true });
  server = createServer((client) => {
    clients.add(client);
    client.on('close', () => clients.delete(client));
    serve(client);
  });
  await new Promise<void>((resolve) => server!.listen(path, resolve));
  return `:${DISPLAY_NUMBER}`;
};

/**
 * Serves one client: its setup, then `answer` is called with each request's opcode and
 * sequence; what it returns is written before the next answer starts, as a server answers in order.
 */
const fakeServer = (
  answer: (client: Socket, opcode: number, sequence: number) => Promise<void> | void,
  setup: Buffer = setupReply(),
): Promise<string> =>
  listenAsDisplay((client) => {
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
        client.write(setup);
      }
      while (pending.length >= 4 && pending.length >= pending.readUInt16LE(2) * 4) {
        const opcode = pending.readUInt8(0);
        pending = pending.subarray(pending.readUInt16LE(2) * 4);
        const current = ++sequence;
        answered = answered.then(() => answer(client, opcode, current));
      }
    });
  });

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
const GET_PROPERTY = 20;
const CHANGE_KEYBOARD_MAPPING = 100;

/** An X error packet: `code` for request `sequence`. */
const xError = (code: number, sequence: number): Buffer => {
  const packet = Buffer.alloc(32);
  packet.writeUInt8(0, 0);
  packet.writeUInt8(code, 1);
  packet.writeUInt16LE(sequence, 2);
  return packet;
};

describe('XConnection', () => {
  test('reads the pixel format of screen 0 from the setup', async () => {
    const x = await XConnection.open(await fakeServer(() => undefined));
    expect(x.root).toBe(ROOT);
    expect(x.pixels).toEqual({
      byteOrder: 0,
      depth: 24,
      bitsPerPixel: 32,
      scanlinePad: 32,
      masks: { red: 0xff0000, green: 0xff00, blue: 0xff },
    });
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

  test('an X error names the error and the request, fails that request only, and the connection goes on', async () => {
    const display = await fakeServer((client, opcode, sequence) => {
      client.write(opcode === GET_PROPERTY ? xError(3, sequence) : reply(sequence, Buffer.alloc(0)));
    });
    const x = await XConnection.open(display);
    const failed = await x.property(0x400001, 'WM_NAME').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(XProtocolError);
    expect(failed).toMatchObject({ message: 'BadWindow on GetProperty', xCode: 3 });
    await expect(x.sync()).resolves.toBeDefined();
    x.close();
  });

  test('a request without a reply is settled by its own sequence: a reply to an earlier request does not hide its error', async () => {
    const display = await fakeServer((client, opcode, sequence) => {
      client.write(opcode === CHANGE_KEYBOARD_MAPPING ? xError(2, sequence) : reply(sequence, Buffer.alloc(0)));
    });
    const x = await XConnection.open(display);
    // Sent in one tick: a round trip (1), then the mapping (2) and its own round trip (3). The
    // reply to 1 arrives while 2 is waiting; 2's error comes after it.
    const [first, mapping] = await Promise.allSettled([x.sync(), x.changeKeyboardMapping(200, [0x61])]);
    expect(first.status).toBe('fulfilled');
    expect(mapping).toMatchObject({ status: 'rejected', reason: { message: 'BadValue on ChangeKeyboardMapping' } });
    x.close();
  });

  test('a setup reply that cannot be read fails the open, with the reason', async () => {
    const truncated = setupReply().subarray(0, 48);
    truncated.writeUInt16LE((truncated.length - 8) / 4, 6);
    const display = await fakeServer(() => undefined, truncated);
    await expect(XConnection.open(display)).rejects.toThrow(/sent a setup reply that cannot be read/);
  });

  test('a reply longer than any server sends ends the connection, failing what waits on it', async () => {
    const display = await fakeServer((client, _opcode, sequence) => {
      const header = reply(sequence, Buffer.alloc(0));
      header.writeUInt32LE(0x4000_0000, 4);
      client.write(header);
    });
    const x = await XConnection.open(display);
    await expect(x.sync()).rejects.toThrow(/a reply of \d+ bytes/);
    await x.closed;
  });
});

describe('XConnection, fuzzed', () => {
  test('2,000 servers sending random, truncated and mutated setups and replies: every call settles, nothing is thrown', {
    timeout: 60_000,
  }, async () => {
    const rand = random(0xc0ffee);
    const byte = (): number => Math.floor(rand() * 256);
    const bytes = (n: number): Buffer => Buffer.from(Array.from({ length: n }, byte));
    const mutated = (packet: Buffer): Buffer => {
      const out = Buffer.from(packet);
      for (let i = 1 + Math.floor(rand() * 6); i > 0; i--) out[Math.floor(rand() * out.length)] = byte();
      return rand() < 0.3 ? out.subarray(0, Math.floor(rand() * out.length)) : out;
    };
    /** Replies, errors and events for requests 1–4, mutated and cut, with random bytes among them. */
    const stream = (): Buffer =>
      Buffer.concat(
        Array.from({ length: 1 + Math.floor(rand() * 6) }, () => {
          const sequence = 1 + Math.floor(rand() * 4);
          const pick = Math.floor(rand() * 4);
          const packet =
            pick === 0
              ? reply(sequence, bytes(4 * Math.floor(rand() * 20)))
              : pick === 1
                ? xError(byte(), sequence)
                : pick === 2
                  ? event(byte())
                  : bytes(Math.floor(rand() * 64));
          return rand() < 0.5 ? mutated(packet) : packet;
        }),
      );
    const setup = (): Buffer => {
      if (rand() < 0.7) return setupReply();
      const bad = mutated(setupReply());
      // A length that fits what is sent, now and then: the parser, not only the wait, is reached.
      if (bad.length >= 8 && rand() < 0.5) bad.writeUInt16LE(Math.floor((bad.length - 8) / 4), 6);
      return bad;
    };
    let opened = 0;
    let answered = 0;
    // Each client: a setup; a bad one ends the connection, a good one is followed, once the
    // requests have come, by the stream and the end.
    const display = await listenAsDisplay((client) => {
      client.on('error', () => undefined);
      let step = 0;
      client.on('data', () => {
        if (step++ === 0) {
          const bytes = setup();
          if (bytes.equals(setupReply())) client.write(bytes);
          else client.end(bytes);
        } else if (!client.writableEnded) {
          client.end(stream());
        }
      });
    });
    for (let n = 0; n < 2_000; n++) {
      const x = await XConnection.open(display, {}, 1_000).catch(() => undefined);
      if (x === undefined) continue;
      opened++;
      const into = new Uint8Array(4 * 4);
      const results = await Promise.allSettled([
        x.sync(),
        x.property(0x400001, 'WM_NAME'),
        x.image({ x: 0, y: 0, width: 2, height: 2 }, into),
        x.viewable(0x400001),
      ]);
      answered += results.filter((r) => r.status === 'fulfilled').length;
      x.close();
    }
    // Most setups were read, and some requests were answered: the cases reach the decoders.
    expect(opened).toBeGreaterThan(1_000);
    expect(answered).toBeGreaterThan(100);
  });
});
