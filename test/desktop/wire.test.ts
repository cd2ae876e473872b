/**
 * The D-Bus wire format retrace writes and reads for its accessibility calls, against dbus-next
 * used through its public API only (the reference): retrace's own connection to a real bus
 * daemon calls a dbus-next service, which must hear the values sent and whose replies must read
 * back as the values it returned; and a connection straight to an app (no bus daemon), against
 * a peer that speaks the protocol.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import dbus from 'dbus-next';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BusCallError, openBus, openPeer, type BusLink } from '../../src/desktop/atspi/dbus.ts';
import { CallWriter, MessageReader, Variant, type MethodCall } from '../../src/desktop/atspi/wire.ts';

/** dbus-next's variant as ours, recursively: the only difference in their values. */
const plain = (v: unknown): unknown => {
  if (v instanceof dbus.Variant || v instanceof Variant) return { signature: v.signature, value: plain(v.value) };
  if (Buffer.isBuffer(v)) return [...v];
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
};

/** Bodies as retrace sends them in calls, and as apps send them in replies. */
const BODIES: ReadonlyArray<[string, unknown[]]> = [
  ['', []],
  ['u', [0]],
  ['ii', [0, -1]],
  ['ss', ['org.a11y.atspi.Accessible', 'Name']],
  ['(aiia{ss}iaiiasib)uib', [[[1 << 25, 0], 1, {}, 1, [0, 0, 0, 0], 1, [], 1, false], 1, 0, true]],
  ['ssv', ['org.a11y.Status', 'IsEnabled', new Variant('b', true)]],
  ['(iiii)', [[10, -20, 300, 40]]],
  ['s', ['Gr\u00fc\u00dfe, \u4e16\u754c']],
  [
    'a(ua(so))',
    [
      [
        [15, [[':1.5', '/org/a11y/atspi/accessible/3']]],
        [2, []],
      ],
    ],
  ],
  ['au', [[1 << 25, 7]]],
  ['v', [new Variant('d', 2.5)]],
  ['a{sv}', [{ Name: new Variant('s', 'OK'), Parent: new Variant('(so)', [':1.5', '/x']), ChildCount: new Variant('i', 3) }]],
  [
    'a((so)(so)(so)iiassusau)',
    [[[[':1.5', '/a'], [':1.5', '/'], [':1.5', '/p'], 0, 2, ['org.a11y.atspi.Accessible'], 'Name', 29, '', [1 << 25, 0]]]],
  ],
  ['xtbynqay', [-(2n ** 40n), 2n ** 63n, true, 200, -3, 65535, Buffer.from([1, 2, 3])]],
];

/** Our values as dbus-next takes them: its own Variant class. */
const theirs = (v: unknown): unknown => {
  if (v instanceof Variant) return new dbus.Variant(v.signature, theirs(v.value));
  if (Buffer.isBuffer(v)) return v;
  if (Array.isArray(v)) return v.map(theirs);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, theirs(x)]));
  return v;
};

const written = (...calls: MethodCall[]): Buffer => {
  const writer = new CallWriter();
  calls.forEach((c) => writer.append(c));
  return writer.take();
};

const call = (serial: number, signature: string, body: readonly unknown[]): MethodCall => ({
  serial,
  destination: ':1.42',
  path: '/org/a11y/atspi/accessible/12',
  iface: 'org.a11y.atspi.Component',
  member: 'GetExtents',
  signature,
  body,
});

const ORACLE = 'org.retrace.Oracle';

describe('against dbus-next on a real bus', () => {
  let daemon: ChildProcess;
  let service: dbus.MessageBus;
  let link: BusLink;
  const dir = mkdtempSync(join(tmpdir(), 'retrace-bus-'));
  /** What the service heard, by method: the values as dbus-next read them. */
  const heard = new Map<string, unknown[]>();

  beforeAll(async () => {
    daemon = spawn('dbus-daemon', ['--session', '--nofork', '--print-address', `--address=unix:path=${join(dir, 'bus')}`], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const address = await new Promise<string>((resolve) =>
      daemon.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())),
    );
    // Each body gets a method Echo<i> of its signature: it keeps what it heard and returns it.
    class Oracle extends dbus.interface.Interface {}
    const methods: Record<string, { inSignature: string; outSignature: string }> = {};
    BODIES.forEach(([signature], i) => {
      methods[`Echo${i}`] = { inSignature: signature, outSignature: signature };
      (Oracle.prototype as unknown as Record<string, (...args: unknown[]) => unknown>)[`Echo${i}`] = (...args: unknown[]) => {
        heard.set(`Echo${i}`, args);
        return args.length === 0 ? undefined : args.length === 1 ? args[0] : args;
      };
    });
    Oracle.configureMembers({ methods });
    service = dbus.sessionBus({ busAddress: address });
    await service.requestName(ORACLE, 0);
    service.export('/oracle', new Oracle(ORACLE));
    link = await openBus(address, 2_000);
  });

  afterAll(() => {
    link?.close();
    service?.disconnect();
    daemon?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every call is heard with the values sent, and its reply reads back as the values returned', async () => {
    for (const [i, [signature, body]] of BODIES.entries()) {
      const reply = await link.call(ORACLE, '/oracle', ORACLE, `Echo${i}`, signature, body);
      expect(plain(heard.get(`Echo${i}`)), `heard ${signature}`).toEqual(plain(theirs(body)));
      expect(plain(reply), `reply ${signature}`).toEqual(plain(body));
    }
  });

  test('an error reply names its error', async () => {
    const failed = await link.call(ORACLE, '/oracle', ORACLE, 'NoSuchMethod').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(BusCallError);
    expect((failed as BusCallError).errorName).toBe('org.freedesktop.DBus.Error.UnknownMethod');
  });
});

describe('calls written one after another', () => {
  test('are each aligned from their own start, read back whole however the stream is cut, and a take starts afresh', () => {
    const calls = BODIES.map(([signature, body], i) => call(10 + i, signature, body));
    const writer = new CallWriter();
    calls.forEach((c) => writer.append(c));
    expect(writer.count).toBe(calls.length);
    const stream = writer.take();
    expect(stream.toString('hex')).toBe(Buffer.concat(calls.map((c) => written(c))).toString('hex'));
    expect(writer.count).toBe(0);
    for (const piece of [1, 7, 64, stream.length]) {
      const reader = new MessageReader();
      const read = [];
      for (let at = 0; at < stream.length; at += piece) read.push(...reader.push(stream.subarray(at, at + piece)));
      expect(read.map((m) => [m.serial, m.signature, plain(m.body)])).toEqual(calls.map((c) => [c.serial, c.signature, plain(c.body)]));
    }
  });
});

/** A peer on a socket: authenticates EXTERNAL for this user, then answers each call with `answer`. */
const peer = async (
  answer: (member: string, serial: number) => Buffer,
): Promise<{ address: string; heard: string[]; close: () => void }> => {
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
      for (const m of reader.push(chunk))
        socket.write(answer(String((m as unknown as { member?: string }).member ?? heard.length), m.serial));
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

/**
 * A reply to call `serial`, as a peer writes it: the body as a call of ours lays it out (a
 * body starts 8-aligned in both), after a reply's header (reply serial, signature).
 */
const reply = (serial: number, signature: string, body: unknown[]): Buffer => {
  const asCall = written(call(1, signature, body));
  const bodyBytes = asCall.subarray(asCall.length - asCall.readUInt32LE(4));
  const field = (code: number, type: string, value: Buffer): Buffer =>
    Buffer.concat([Buffer.from([code, 1, type.charCodeAt(0), 0]), value]);
  const u32 = (n: number): Buffer => Buffer.from(Uint32Array.of(n).buffer);
  const fields = Buffer.concat([
    field(5, 'u', u32(serial)), // 8 bytes: the signature field starts 8-aligned
    ...(signature === '' ? [] : [field(8, 'g', Buffer.from([signature.length, ...Buffer.from(signature), 0]))]),
  ]);
  const head = Buffer.concat([Buffer.from([0x6c, 2, 0, 1]), u32(bodyBytes.length), u32(1000 + serial), u32(fields.length), fields]);
  return Buffer.concat([head, Buffer.alloc((8 - (head.length % 8)) % 8), bodyBytes]);
};

describe('a connection straight to an app', () => {
  test('authenticates as this user, then its calls are answered in turn', async () => {
    const app = await peer((_, serial) => reply(serial, '(iiii)', [[serial, 2, 30, 40]]));
    try {
      const link = await openPeer(app.address, 2_000);
      const uid = Buffer.from(String(process.getuid?.() ?? 0)).toString('hex');
      expect(app.heard, 'the NUL byte, then EXTERNAL with the uid in hex').toEqual([`\0AUTH EXTERNAL ${uid}`]);
      const boxes = await Promise.all(
        [1, 2, 3].map(() => link.call(':1.5', '/org/a11y/atspi/accessible/1', 'org.a11y.atspi.Component', 'GetExtents', 'u', [0])),
      );
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
      const first = link
        .call(':1.5', '/a', 'org.a11y.atspi.Accessible', 'GetRole')
        .catch((e: BusCallError) => [e.errorName, Date.now() - started]);
      await new Promise((resolve) => setTimeout(resolve, 150));
      const second = link
        .call(':1.5', '/b', 'org.a11y.atspi.Accessible', 'GetRole')
        .catch((e: BusCallError) => [e.errorName, Date.now() - started]);
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
      await expect(bad).rejects.toMatchObject({
        errorName: 'retrace.BadMessage',
        message: expect.stringMatching(/GetName .*could not be read: .*unknown type/),
      });
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
      await expect(link.call(':1.5', '/a', 'org.a11y.atspi.Accessible', 'GetRole')).rejects.toMatchObject({
        errorName: 'retrace.Disconnected',
        message: expect.stringMatching(/not "l" or "B"/),
      });
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
