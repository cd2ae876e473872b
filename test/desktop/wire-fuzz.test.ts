/**
 * The D-Bus reader against what a broken or hostile app can send: random bytes, truncated and
 * mutated messages, fed whole and in random chunks. Pure (no bus, no display) and seeded, so a
 * failure replays. Whatever arrives, `push` returns messages (a bad one marked `malformed`) or
 * throws WireFramingError (a size no peer may send): never anything else, never a hang.
 */
import { describe, expect, test } from 'vitest';
import {
  CallWriter,
  MAX_MESSAGE_BYTES,
  MessageReader,
  Variant,
  WireFramingError,
  type MethodCall,
  type WireMessage,
} from '../../src/desktop/atspi/wire.ts';
import { random } from '../support/seeded.ts';

const BODIES: ReadonlyArray<[string, unknown[]]> = [
  ['', []],
  ['s', ['Grüße']],
  ['(iiii)', [[10, -20, 300, 40]]],
  [
    'a(so)',
    [
      [
        [':1.5', '/a'],
        [':1.6', '/b'],
      ],
    ],
  ],
  ['a{sv}', [{ Name: new Variant('s', 'OK'), Count: new Variant('i', 3), Box: new Variant('(ii)', [1, 2]) }]],
  ['xtbynqay', [-(2n ** 40n), 2n ** 63n, true, 200, -3, 65535, Buffer.from([1, 2, 3])]],
  ['v', [new Variant('av', [new Variant('s', 'x'), new Variant('au', [1, 2])])]],
];

const message = (serial: number, signature: string, body: readonly unknown[]): Buffer => {
  const writer = new CallWriter();
  const call: MethodCall = {
    serial,
    destination: ':1.5',
    path: '/org/a11y/atspi/accessible/1',
    iface: 'org.a11y.atspi.Accessible',
    member: 'GetChildren',
    signature,
    body,
  };
  writer.append(call);
  return Buffer.from(writer.take());
};

const VALID = BODIES.map(([signature, body], i) => message(i + 1, signature, body));

/** Pushes `bytes` in chunks `rand` chooses; the messages read, or the framing error. */
const feed = (bytes: Buffer, rand: () => number): WireMessage[] | WireFramingError => {
  const reader = new MessageReader();
  const read: WireMessage[] = [];
  try {
    for (let at = 0; at < bytes.length; ) {
      const size = 1 + Math.floor(rand() * 64);
      read.push(...reader.push(bytes.subarray(at, at + size)));
      at += size;
    }
  } catch (error) {
    if (error instanceof WireFramingError) return error;
    throw error;
  }
  return read;
};

const mutate = (bytes: Buffer, rand: () => number): Buffer => {
  const out = Buffer.from(bytes);
  const kind = Math.floor(rand() * 4);
  if (kind === 0) return out.subarray(0, Math.floor(rand() * out.length)); // truncated
  const flips = 1 + Math.floor(rand() * 8);
  for (let i = 0; i < flips; i++) {
    const at = Math.floor(rand() * out.length);
    // Bytes that matter most: a signature's letters, a length's low byte, anything.
    out[at] =
      kind === 1
        ? '()a{}vsgiuy'.charCodeAt(Math.floor(rand() * 11))
        : kind === 2
          ? Math.floor(rand() * 256) & 0x3f
          : Math.floor(rand() * 256);
  }
  return out;
};

describe('the D-Bus reader, fuzzed', () => {
  test('10,000 random, truncated and mutated streams: messages or a framing error, nothing else', () => {
    const rand = random(0x5eed);
    let malformed = 0;
    let framing = 0;
    for (let n = 0; n < 10_000; n++) {
      const pick = (): Buffer => VALID[Math.floor(rand() * VALID.length)]!;
      const stream =
        n % 10 === 0
          ? Buffer.from(Array.from({ length: Math.floor(rand() * 200) }, () => Math.floor(rand() * 256)))
          : Buffer.concat([pick(), mutate(pick(), rand), pick()]);
      const result = feed(stream, rand);
      if (result instanceof WireFramingError) framing++;
      else malformed += result.filter((m) => m.malformed !== undefined).length;
    }
    // Both outcomes were met: the cases reach the guards, not only the happy path.
    expect(malformed).toBeGreaterThan(500);
    expect(framing).toBeGreaterThan(500);
  });

  test('valid messages still read whole after the mutated one, when its size is intact', () => {
    const rand = random(42);
    for (let n = 0; n < 2_000; n++) {
      const bad = Buffer.from(VALID[n % VALID.length]!);
      // Mutate only past the 16-byte fixed header and the header fields' lengths: the size stays true.
      for (let i = 0; i < 4; i++) bad[16 + Math.floor(rand() * (bad.length - 16))] = Math.floor(rand() * 256);
      const result = feed(Buffer.concat([bad, VALID[2]!]), rand);
      expect(result).not.toBeInstanceOf(WireFramingError);
      const read = result as WireMessage[];
      expect(read).toHaveLength(2);
      expect(read[1]).toMatchObject({ serial: 3, body: [[10, -20, 300, 40]] });
      expect(read[1]!.malformed).toBeUndefined();
    }
  });

  test('an unknown type, an empty struct, nesting past the limit: the message is marked, not thrown', () => {
    const withSignature = (signature: string, body: Buffer): Buffer => {
      const good = message(9, 'y', [0]);
      const at = good.indexOf(Buffer.from([8, 1, 0x67, 0, 1, 0x79, 0]));
      const head = Buffer.concat([
        good.subarray(0, at),
        Buffer.from([8, 1, 0x67, 0, signature.length]),
        Buffer.from(`${signature}\0`, 'latin1'),
      ]);
      const fieldsLength = head.length - 16;
      head.writeUInt32LE(fieldsLength, 12);
      const padded = Buffer.concat([head, Buffer.alloc((8 - (head.length % 8)) % 8)]);
      padded.writeUInt32LE(body.length, 4);
      return Buffer.concat([padded, body]);
    };
    const deepVariant = Buffer.concat([...Array.from({ length: 100 }, () => Buffer.from([1, 0x76, 0])), Buffer.from([1, 0x79, 0, 7])]);
    const cases: Array<[string, Buffer]> = [
      ['Z', Buffer.from([0, 0, 0, 0])],
      ['a()', Buffer.from([8, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8])],
      ['v', deepVariant],
      ['s', Buffer.from([0xff, 0xff, 0xff, 0x00, 0x41, 0])],
      ['a{sss}', Buffer.from([0, 0, 0, 0])],
    ];
    for (const [signature, body] of cases) {
      const [read, after] = new MessageReader().push(Buffer.concat([withSignature(signature, body), VALID[1]!]));
      expect(read?.malformed, signature).toMatch(/cannot be read/);
      expect(read?.serial).toBe(9);
      expect(after, 'the next message is read as usual').toMatchObject({ serial: 2, body: ['Grüße'] });
    }
  });

  test('a size past the specification, or a stream that is not D-Bus, is a framing error', () => {
    const huge = Buffer.from(VALID[0]!);
    huge.writeUInt32LE(MAX_MESSAGE_BYTES, 4);
    expect(() => new MessageReader().push(huge)).toThrow(WireFramingError);
    expect(() => new MessageReader().push(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'))).toThrow(WireFramingError);
  });
});
