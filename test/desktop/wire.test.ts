/**
 * The D-Bus wire format retrace writes and reads for its accessibility calls, against dbus-next's
 * own marshaller (the reference): the same bytes for a call, the same values from a reply.
 */
import { describe, expect, test } from 'vitest';
import dbus from 'dbus-next';
import { createRequire } from 'node:module';
import { encodeCall, MessageReader, Variant } from '../../src/desktop/atspi/wire.ts';

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

describe('a method call', () => {
  test('is written byte for byte as dbus-next writes it', () => {
    for (const [signature, body] of CALLS) {
      const values = body.map((v) => (v === 'v' ? true : v));
      const ours = encodeCall({ serial: 7, destination: ':1.42', path: '/org/a11y/atspi/accessible/12', iface: 'org.a11y.atspi.Component', member: 'GetExtents', signature, body: signature === 'ssv' ? [...values.slice(0, 2), new Variant('b', true)] : values });
      const theirs = marshallMessage(new dbus.Message({
        serial: 7, destination: ':1.42', path: '/org/a11y/atspi/accessible/12', interface: 'org.a11y.atspi.Component', member: 'GetExtents', signature,
        body: signature === 'ssv' ? [...values.slice(0, 2), new dbus.Variant('b', true)] : values,
      }))[0];
      expect(ours.toString('hex'), signature).toBe(theirs.toString('hex'));
    }
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
