/**
 * The D-Bus wire format retrace writes and reads for its accessibility calls, against dbus-next's
 * own marshaller (the reference): the same bytes for a call, the same values from a reply; and a
 * connection straight to an app (no bus daemon), against a peer that speaks the protocol.
 */
import { describe, expect, test } from 'vitest';
import dbus from 'dbus-next';
import { createRequire } from 'node:module';
import { createServer, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BusCallError, openPeer } from '../../src/desktop/atspi/dbus.ts';
import { CallWriter, MessageReader, Variant, type MethodCall } from '../../src/desktop/atspi/wire.ts';

const require = createRequire(import.meta.url);
const { marshallMessage, messageToJsFmt } = require('dbus-next/lib/marshall-compat') as {
  marshallMessage: (m: unknown) => [Buffer, unknown[]];
  messageToJsFmt: (m: { signature: string; body: unknown[] }) => { body: unknown[] };
};
const { unmarshall } = require('dbus-next/lib/message') as { unmarshall: (b: Buffer) => { signature: string; body: unknown[] } };

/** dbus-next's variant as ours, recursively: the only difference in their values. */
const plain = (v: unknown): unknown => {
  if (v instanceof dbus.Variant || v instanceof Variant) return { signature: v.signature, value: plain(v.value) };
  if (Buffer.isBuffer(v)) return [...v];
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
};

const CALLS: ReadonlyArray<[string, unknown[]]> = [
  ['', []],
  ['u', [0]],
  ['ii', [0, -1]],
  ['ss', ['org.a11y.atspi.Accessible', 'Name']],
  ['(aiia{ss}iaiiasib)uib', [[[1 << 25, 0], 1, {}, 1, [0, 0, 0, 0], 1, [], 1, false], 1, 0, true]],
  ['ssv', ['org.a11y.Status', 'IsEnabled', 'v']],
];

const written = (...calls: MethodCall[]): Buffer => {
  const writer = new CallWriter();
  calls.forEach((c) => writer.append(c));
  return writer.take();
};

describe('a method call', () => {
  const both = (signature: string, body: unknown[], serial = 7) => {
    const values = body.map((v) => (v === 'v' ? true : v));
    const call = { serial, destination: ':1.42', path: '/org/a11y/atspi/accessible/12', member: 'GetExtents', signature };
    return {
      ours: { ...call, iface: 'org.a11y.atspi.Component', body: signature === 'ssv' ? [...values.slice(0, 2), new Variant('b', true)] : values },
      theirs: marshallMessage(new dbus.Message({ ...call, interface: 'org.a11y.atspi.Component', body: signature === 'ssv' ? [...values.slice(0, 2), new dbus.Variant('b', true)] : values }))[0],
    };
  };

  test('is written byte for byte as dbus-next writes it', () => {
    for (const [signature, body] of CALLS) {
      const { ours, theirs } = both(signature, body);
      expect(written(ours).toString('hex'), signature).toBe(theirs.toString('hex'));
    }
  });

  test('calls written one after another are each aligned from their own start, and a take starts afresh', () => {
    const pairs = CALLS.map(([signature, body], i) => both(signature, body, 10 + i));
    const writer = new CallWriter();
    pairs.forEach(({ ours }) => writer.append(ours));
    expect(writer.count).toBe(pairs.length);
    expect(writer.take().toString('hex')).toBe(Buffer.concat(pairs.map((p) => p.theirs)).toString('hex'));
    expect(writer.count).toBe(0);
    writer.append(pairs[1]!.ours);
    expect(writer.take().toString('hex')).toBe(pairs[1]!.theirs.toString('hex'));
  });
});

const REPLIES: ReadonlyArray<[string, unknown[]]> = [
  ['(iiii)', [[10, -20, 300, 40]]],
  ['s', ['Gr\u00fc\u00dfe, \u4e16\u754c']],
  ['a(ua(so))', [[[15, [[':1.5', '/org/a11y/atspi/accessible/3']]], [2, []]]]],
  ['au', [[1 << 25, 7]]],
  ['v', [new dbus.Variant('d', 2.5)]],
  ['a{sv}', [{ Name: new dbus.Variant('s', 'OK'), Parent: new dbus.Variant('(so)', [':1.5', '/x']), ChildCount: new dbus.Variant('i', 3) }]],
  ['a((so)(so)(so)iiassusau)', [[[[':1.5', '/a'], [':1.5', '/'], [':1.5', '/p'], 0, 2, ['org.a11y.atspi.Accessible'], 'Name', 29, '', [1 << 25, 0]]]]],
  ['xtbynqay', [-(2n ** 40n), 2n ** 63n, true, 200, -3, 65535, Buffer.from([1, 2, 3])]],
];

describe('a reply', () => {
  test('is read as dbus-next reads it, also split across chunks', () => {
    const messages = REPLIES.map(([signature, body], i) =>
      marshallMessage(new dbus.Message({ type: 2, serial: 100 + i, replySerial: i + 1, sender: ':1.5', destination: ':1.9', signature, body } as unknown as dbus.MessageLike))[0]);
    const stream = Buffer.concat(messages);
    const reader = new MessageReader();
    const read = [];
    for (let at = 0; at < stream.length; at += 7) read.push(...reader.push(stream.subarray(at, at + 7)));
    expect(read.map((m) => [m.type, m.replySerial, m.sender])).toEqual(REPLIES.map((_, i) => [2, i + 1, ':1.5']));
    read.forEach((m, i) => {
      const reference = messageToJsFmt(unmarshall(messages[i]!));
      expect(plain(m.body), REPLIES[i]![0]).toEqual(plain(reference.body));
    });
  });

  test('an error reply names its error', () => {
    const error = marshallMessage(new dbus.Message({ type: 3, serial: 5, replySerial: 4, errorName: 'org.freedesktop.DBus.Error.UnknownMethod', signature: 's', body: ['no such method'] } as unknown as dbus.MessageLike))[0];
    expect(new MessageReader().push(error)).toEqual([
      { type: 3, serial: 5, replySerial: 4, errorName: 'org.freedesktop.DBus.Error.UnknownMethod', signature: 's', body: ['no such method'] },
    ]);
  });
});

/** A peer on a socket: authenticates EXTERNAL for this user, then answers each call with `answer`. */
const peer = async (answer: (member: string, serial: number) => Buffer): Promise<{ address: string; heard: string[]; close: () => void }> => {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-peer-'));
  const path = join(dir, 'socket');
  const heard: string[] = [];
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    const reader = new MessageReader();
    let began = false;
    let said = '';
    socket.on('data', (chunk) => {
      if (!began) {
        said += chunk.toString('latin1');
        if (said.includes('AUTH EXTERNAL') && said.endsWith('\r\n') && !said.includes('BEGIN')) {
          heard.push(said.trim());
          socket.write('OK 0123456789abcdef0123456789abcdef\r\n');
        }
        const begin = said.indexOf('BEGIN\r\n');
        if (begin < 0) return;
        began = true;
        chunk = Buffer.from(said.slice(begin + 7), 'latin1');
      }
      for (const m of reader.push(chunk)) socket.write(answer(String((m as unknown as { member?: string }).member ?? heard.length), m.serial));
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    address: `unix:path=${path}`,
    heard,
    close: () => {
      sockets.forEach((s) => s.destroy());
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

const reply = (serial: number, signature: string, body: unknown[]): Buffer =>
  marshallMessage(new dbus.Message({ type: 2, serial: 1000 + serial, replySerial: serial, signature, body } as unknown as dbus.MessageLike))[0];

describe('a connection straight to an app', () => {
  test('authenticates as this user, then its calls are answered in turn', async () => {
    const app = await peer((_, serial) => reply(serial, '(iiii)', [[serial, 2, 30, 40]]));
    try {
      const link = await openPeer(app.address, 2_000);
      const uid = Buffer.from(String(process.getuid?.() ?? 0)).toString('hex');
      expect(app.heard, "the NUL byte, then EXTERNAL with the uid in hex").toEqual([`\0AUTH EXTERNAL ${uid}`]);
      const boxes = await Promise.all([1, 2, 3].map(() => link.call(':1.5', '/org/a11y/atspi/accessible/1', 'org.a11y.atspi.Component', 'GetExtents', 'u', [0])));
      expect(boxes).toEqual([[[1, 2, 30, 40]], [[2, 2, 30, 40]], [[3, 2, 30, 40]]]);
      link.close();
      expect(link.open).toBe(false);
    } finally {
      app.close();
    }
  });

  test('a peer that goes away fails the calls waiting on it, at once', async () => {
    let hangUp = (): void => undefined;
    const app = await peer(() => {
      hangUp();
      return Buffer.alloc(0);
    });
    hangUp = app.close;
    try {
      const link = await openPeer(app.address, 10_000);
      const started = Date.now();
      await expect(link.call(':1.5', '/', 'org.a11y.atspi.Accessible', 'GetRole')).rejects.toBeInstanceOf(BusCallError);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(link.open).toBe(false);
    } finally {
      app.close();
    }
  });

  test('a call left unanswered fails at its own deadline, one after the other', async () => {
    const app = await peer(() => Buffer.alloc(0));
    try {
      const link = await openPeer(app.address, 300);
      const started = Date.now();
      const first = link.call(':1.5', '/a', 'org.a11y.atspi.Accessible', 'GetRole').catch((e: BusCallError) => [e.errorName, Date.now() - started]);
      await new Promise((resolve) => setTimeout(resolve, 150));
      const second = link.call(':1.5', '/b', 'org.a11y.atspi.Accessible', 'GetRole').catch((e: BusCallError) => [e.errorName, Date.now() - started]);
      const [[name1, at1], [name2, at2]] = (await Promise.all([first, second])) as [[string, number], [string, number]];
      expect([name1, name2]).toEqual(['retrace.Timeout', 'retrace.Timeout']);
      expect(at1).toBeGreaterThanOrEqual(290);
      expect(at2).toBeGreaterThanOrEqual(440);
      // The first failed at its own deadline, before the second's (300 ms, against 450): with
      // 140 ms to spare for a busy machine's late timers.
      expect(at1).toBeLessThan(440);
      expect(link.open, 'a call timing out leaves the connection open').toBe(true);
    } finally {
      app.close();
    }
  });

  test('a reply it cannot read fails its own call; the connection and the next call go on', async () => {
    // The peer's reader keeps no member: the first call (serial 1) is the one answered badly.
    const app = await peer((_, serial) => {
      const answer = reply(serial, 's', ['fine']);
      if (serial !== 1) return answer;
      // The body's signature "s" made "Z", a type D-Bus does not have.
      const at = answer.indexOf(Buffer.from([8, 1, 0x67, 0, 1, 0x73, 0]));
      answer[at + 5] = 0x5a;
      return answer;
    });
    try {
      const link = await openPeer(app.address, 2_000);
      const bad = link.call(':1.5', '/a', 'org.a11y.atspi.Accessible', 'GetName');
      const good = link.call(':1.5', '/a', 'org.a11y.atspi.Accessible', 'GetRoleName');
      await expect(bad).rejects.toMatchObject({ errorName: 'retrace.BadMessage', message: expect.stringMatching(/GetName .*could not be read: .*unknown type/) });
      await expect(good).resolves.toEqual(['fine']);
      expect(link.open).toBe(true);
    } finally {
      app.close();
    }
  });

  test('a stream that is not D-Bus fails the connection, not the process', async () => {
    const app = await peer(() => Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'));
    try {
      const link = await openPeer(app.address, 2_000);
      await expect(link.call(':1.5', '/a', 'org.a11y.atspi.Accessible', 'GetRole')).rejects.toMatchObject({ errorName: 'retrace.Disconnected', message: expect.stringMatching(/not "l" or "B"/) });
      expect(link.open).toBe(false);
    } finally {
      app.close();
    }
  });

  test('an address it cannot reach is an error, not a hang', async () => {
    await expect(openPeer('unix:path=/nonexistent/retrace/socket', 1_000)).rejects.toThrow();
    await expect(openPeer('tcp:host=localhost,port=1', 1_000)).rejects.toBeInstanceOf(BusCallError);
  });
});
