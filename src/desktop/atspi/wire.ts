/**
 * The D-Bus wire format, for the calls a tree read sends by the hundred: method calls written
 * and replies read straight from bytes, with no intermediate form. dbus-next's general
 * marshaller (a typed tree, then plain values) cost more CPU per call than the app took to
 * answer it. Values come out as dbus-next gives them: structs and arrays as arrays, dicts as
 * objects, variants as `Variant`, 64-bit integers as bigint, `ay` as a Buffer.
 */

/** A D-Bus variant: a value with its own signature. */
export class Variant {
  constructor(
    readonly signature: string,
    readonly value: unknown,
  ) {}
}

export const MESSAGE_TYPE = { call: 1, reply: 2, error: 3, signal: 4 } as const;

/** A message as read off the wire. */
export interface WireMessage {
  readonly type: number;
  readonly serial: number;
  readonly replySerial?: number;
  readonly errorName?: string;
  readonly sender?: string;
  readonly signature: string;
  readonly body: unknown[];
  /**
   * Why its header or body could not be read (the body is then empty): a message whose size was
   * readable is skipped whole, so the next one is read as usual.
   */
  readonly malformed?: string;
}

/** The D-Bus specification's bound on a message (2^27 bytes): a larger size is a broken stream. */
export const MAX_MESSAGE_BYTES = 1 << 27;
/** The specification's bound on how deeply containers nest (variants included). */
const MAX_DEPTH = 64;

/** The stream cannot be read on: the size of the next message is not one a peer may send. */
export class WireFramingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireFramingError';
  }
}

export interface MethodCall {
  readonly serial: number;
  readonly destination: string;
  readonly path: string;
  readonly iface: string;
  readonly member: string;
  readonly signature: string;
  readonly body: readonly unknown[];
}

const FIELD = { path: 1, interface: 2, member: 3, errorName: 4, replySerial: 5, destination: 6, sender: 7, signature: 8 } as const;

const ALIGN: Readonly<Record<string, number>> = {
  y: 1,
  g: 1,
  v: 1,
  n: 2,
  q: 2,
  b: 4,
  i: 4,
  u: 4,
  h: 4,
  s: 4,
  o: 4,
  a: 4,
  x: 8,
  t: 8,
  d: 8,
  '(': 8,
  '{': 8,
};

/** Where the single complete type starting at `i` ends. */
function typeEnd(signature: string, i: number): number {
  const c = signature[i];
  if (c === 'a') return typeEnd(signature, i + 1);
  if (c === '(' || c === '{') {
    const close = c === '(' ? ')' : '}';
    // An empty struct has no size: an array of them would never end.
    if (signature[i + 1] === close) throw new Error(`D-Bus signature "${signature}" has an empty container at ${i}`);
    let j = i + 1;
    while (signature[j] !== close) {
      if (j >= signature.length) throw new Error(`D-Bus signature "${signature}" is not closed`);
      j = typeEnd(signature, j);
    }
    return j + 1;
  }
  if (c === undefined || ALIGN[c] === undefined) throw new Error(`D-Bus signature "${signature}" has an unknown type at ${i}`);
  return i + 1;
}

/**
 * Signatures come from the peer too (a variant's): the caches of what they split into are
 * emptied past this many, so a peer sending ever new ones cannot grow them without end.
 */
const CACHE_ENTRIES = 4096;

const cached = <T>(cache: Map<string, T>, key: string, make: (key: string) => T): T => {
  let value = cache.get(key);
  if (value === undefined) {
    value = make(key);
    if (cache.size >= CACHE_ENTRIES) cache.clear();
    cache.set(key, value);
  }
  return value;
};

/** The complete types of a signature, one per value. */
const splitCache = new Map<string, string[]>();
const completeTypes = (signature: string): string[] =>
  cached(splitCache, signature, () => {
    const types: string[] = [];
    for (let i = 0; i < signature.length; ) {
      const end = typeEnd(signature, i);
      types.push(signature.slice(i, end));
      i = end;
    }
    return types;
  });

/** The complete types inside a struct or dict entry type, `(…)` or `{…}`. */
const innerCache = new Map<string, string[]>();
const innerTypes = (type: string): string[] => cached(innerCache, type, () => completeTypes(type.slice(1, -1)));

/** The element type of an array type `a…`. */
const elementCache = new Map<string, string>();
const elementType = (type: string): string => cached(elementCache, type, () => type.slice(1));

class Writer {
  buffer: Buffer;
  pos = 0;
  /** Where the message being written starts: alignment counts from there. */
  origin = 0;

  constructor(size: number) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  private room(n: number): void {
    if (this.pos + n <= this.buffer.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.pos + n));
    this.buffer.copy(bigger, 0, 0, this.pos);
    this.buffer = bigger;
  }

  align(n: number): void {
    const pad = (n - ((this.pos - this.origin) % n)) % n;
    this.room(pad);
    this.buffer.fill(0, this.pos, this.pos + pad);
    this.pos += pad;
  }

  u8(v: number): void {
    this.room(1);
    this.buffer[this.pos++] = v;
  }

  u32(v: number): void {
    this.align(4);
    this.room(4);
    this.buffer.writeUInt32LE(v >>> 0, this.pos);
    this.pos += 4;
  }

  string(v: string, lengthBytes: 1 | 4): void {
    const bytes = Buffer.byteLength(v);
    if (lengthBytes === 1) this.u8(bytes);
    else this.u32(bytes);
    this.room(bytes + 1);
    this.buffer.write(v, this.pos);
    this.pos += bytes;
    this.buffer[this.pos++] = 0;
  }

  value(type: string, v: unknown): void {
    const c = type[0]!;
    switch (c) {
      case 'y':
        return this.u8(Number(v));
      case 'b':
        return this.u32(v ? 1 : 0);
      case 'u':
      case 'h':
        return this.u32(Number(v));
      case 'i':
        this.align(4);
        this.room(4);
        this.buffer.writeInt32LE(Number(v), this.pos);
        this.pos += 4;
        return;
      case 'n':
        this.align(2);
        this.room(2);
        this.buffer.writeInt16LE(Number(v), this.pos);
        this.pos += 2;
        return;
      case 'q':
        this.align(2);
        this.room(2);
        this.buffer.writeUInt16LE(Number(v), this.pos);
        this.pos += 2;
        return;
      case 'x':
        this.align(8);
        this.room(8);
        this.buffer.writeBigInt64LE(BigInt(v as number | bigint), this.pos);
        this.pos += 8;
        return;
      case 't':
        this.align(8);
        this.room(8);
        this.buffer.writeBigUInt64LE(BigInt(v as number | bigint), this.pos);
        this.pos += 8;
        return;
      case 'd':
        this.align(8);
        this.room(8);
        this.buffer.writeDoubleLE(Number(v), this.pos);
        this.pos += 8;
        return;
      case 's':
      case 'o':
        return this.string(String(v), 4);
      case 'g':
        return this.string(String(v), 1);
      case 'v': {
        if (!(v instanceof Variant)) throw new Error('a D-Bus variant needs a Variant value');
        this.string(v.signature, 1);
        return this.value(v.signature, v.value);
      }
      case '(': {
        this.align(8);
        const fields = innerTypes(type);
        const values = v as readonly unknown[];
        fields.forEach((field, i) => this.value(field, values[i]));
        return;
      }
      case 'a': {
        const element = elementType(type);
        this.u32(0);
        const lengthAt = this.pos - 4;
        this.align(ALIGN[element[0]!]!);
        const start = this.pos;
        if (element[0] === '{') {
          const [key, value] = innerTypes(element) as [string, string];
          const entries = v instanceof Map ? [...v] : Array.isArray(v) ? (v as [unknown, unknown][]) : Object.entries(v as object);
          for (const [k, val] of entries) {
            this.align(8);
            this.value(key, k);
            this.value(value, val);
          }
        } else {
          for (const item of v as Iterable<unknown>) this.value(element, item);
        }
        this.buffer.writeUInt32LE(this.pos - start, lengthAt);
        return;
      }
      default:
        throw new Error(`cannot write D-Bus type "${type}"`);
    }
  }
}

/**
 * Method calls (little-endian, as every host retrace runs on) written one after another into
 * one buffer, and taken as one write: many calls cost one buffer and one system call, not one each.
 */
export class CallWriter {
  private w = new Writer(BATCH_BYTES);
  /** Calls written since the last take. */
  count = 0;

  append(call: MethodCall): void {
    const w = this.w;
    w.origin = w.pos;
    const start = w.pos;
    w.u8(0x6c); // 'l'
    w.u8(MESSAGE_TYPE.call);
    w.u8(0);
    w.u8(1);
    w.u32(0); // the body's length, known once it is written
    w.u32(call.serial);
    // The header fields, a(yv), written as the general writer would, without a variant each.
    w.u32(0);
    const fieldsStart = w.pos;
    const field = (code: number, type: 'o' | 's' | 'g', value: string): void => {
      w.align(8);
      w.u8(code);
      w.string(type, 1);
      w.string(value, type === 'g' ? 1 : 4);
    };
    field(FIELD.path, 'o', call.path);
    field(FIELD.interface, 's', call.iface);
    field(FIELD.member, 's', call.member);
    field(FIELD.destination, 's', call.destination);
    if (call.signature !== '') field(FIELD.signature, 'g', call.signature);
    w.buffer.writeUInt32LE(w.pos - fieldsStart, fieldsStart - 4);
    w.align(8);
    const bodyStart = w.pos;
    const types = completeTypes(call.signature);
    for (let i = 0; i < types.length; i++) w.value(types[i]!, call.body[i]);
    // Written after the body: the buffer may have grown (moved) while it was.
    w.buffer.writeUInt32LE(w.pos - bodyStart, start + 4);
    this.count++;
  }

  /** The calls written since the last take; later ones go into a fresh buffer (this one may still be being sent). */
  take(): Buffer {
    const bytes = this.w.buffer.subarray(0, this.w.pos);
    this.w = new Writer(BATCH_BYTES);
    this.count = 0;
    return bytes;
  }
}

/** A batch's buffer: a tree read's calls are ~100–200 bytes each, 32 to a batch. */
const BATCH_BYTES = 8192;

class Reader {
  pos: number;
  /** Variants inside variants: each is a new signature, so the signature's length does not bound them. */
  private depth = 0;

  constructor(
    /** One whole message, and nothing after it: no read can reach the next one. */
    private readonly buffer: Buffer,
    private readonly little: boolean,
  ) {
    this.pos = 0;
  }

  /** Throws unless `n` more bytes are in the message. */
  need(n: number): void {
    if (this.pos + n > this.buffer.length)
      throw new RangeError(`a value runs past the message's end (byte ${this.pos} + ${n} of ${this.buffer.length})`);
  }

  align(n: number): void {
    const off = this.pos % n;
    if (off !== 0) this.pos += n - off;
  }

  u8(): number {
    this.need(1);
    return this.buffer[this.pos++]!;
  }

  u32(): number {
    this.align(4);
    this.need(4);
    const v = this.little ? this.buffer.readUInt32LE(this.pos) : this.buffer.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  string(length: number): string {
    this.need(length + 1);
    const v = this.buffer.toString('utf8', this.pos, this.pos + length);
    this.pos += length + 1;
    return v;
  }

  value(type: string): unknown {
    const b = this.buffer;
    const c = type[0]!;
    switch (c) {
      case 'y':
        return this.u8();
      case 'b':
        return this.u32() !== 0;
      case 'u':
      case 'h':
        return this.u32();
      case 'i': {
        this.align(4);
        const v = this.little ? b.readInt32LE(this.pos) : b.readInt32BE(this.pos);
        this.pos += 4;
        return v;
      }
      case 'n': {
        this.align(2);
        const v = this.little ? b.readInt16LE(this.pos) : b.readInt16BE(this.pos);
        this.pos += 2;
        return v;
      }
      case 'q': {
        this.align(2);
        const v = this.little ? b.readUInt16LE(this.pos) : b.readUInt16BE(this.pos);
        this.pos += 2;
        return v;
      }
      case 'x': {
        this.align(8);
        const v = this.little ? b.readBigInt64LE(this.pos) : b.readBigInt64BE(this.pos);
        this.pos += 8;
        return v;
      }
      case 't': {
        this.align(8);
        const v = this.little ? b.readBigUInt64LE(this.pos) : b.readBigUInt64BE(this.pos);
        this.pos += 8;
        return v;
      }
      case 'd': {
        this.align(8);
        const v = this.little ? b.readDoubleLE(this.pos) : b.readDoubleBE(this.pos);
        this.pos += 8;
        return v;
      }
      case 's':
      case 'o':
        return this.string(this.u32());
      case 'g':
        return this.string(this.u8());
      case 'v': {
        const signature = this.string(this.u8());
        const types = completeTypes(signature);
        if (types.length !== 1) throw new Error(`a D-Bus variant's signature "${signature}" is not one complete type`);
        if (++this.depth > MAX_DEPTH) throw new Error(`D-Bus variants nest deeper than ${MAX_DEPTH}`);
        try {
          return new Variant(signature, this.value(signature));
        } finally {
          this.depth--;
        }
      }
      case '(': {
        this.align(8);
        const fields = innerTypes(type);
        const values = new Array<unknown>(fields.length);
        for (let i = 0; i < fields.length; i++) values[i] = this.value(fields[i]!);
        return values;
      }
      case 'a': {
        const length = this.u32();
        const element = elementType(type);
        this.align(ALIGN[element[0]!]!);
        const end = this.pos + length;
        this.need(length);
        if (element === 'y') {
          this.pos = end;
          return b.subarray(end - length, end);
        }
        if (element[0] === '{') {
          const [key, value, ...more] = innerTypes(element);
          if (key === undefined || value === undefined || more.length > 0)
            throw new Error(`D-Bus dict entry "${element}" is not a key and a value`);
          const dict: Record<string, unknown> = {};
          while (this.pos < end) {
            this.align(8);
            const k = this.value(key);
            dict[String(k)] = this.value(value);
          }
          if (this.pos !== end) throw new RangeError(`a D-Bus dict's entries run past its length`);
          return dict;
        }
        const items: unknown[] = [];
        while (this.pos < end) items.push(this.value(element));
        if (this.pos !== end) throw new RangeError(`a D-Bus array's items run past its length`);
        return items;
      }
      default:
        throw new Error(`cannot read D-Bus type "${type}"`);
    }
  }
}

/**
 * Reads whole messages from a byte stream, keeping a partial one for the next chunk. A message
 * whose content cannot be read comes out with `malformed` set (and its reply serial when that
 * was readable), so the call it answers fails and the stream goes on; a size no peer may send
 * throws WireFramingError, since nothing after it can be found.
 */
export class MessageReader {
  private pending: Buffer = Buffer.alloc(0);

  /** The messages completed by `chunk`, in order. */
  push(chunk: Buffer): WireMessage[] {
    const data = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const messages: WireMessage[] = [];
    let at = 0;
    while (data.length - at >= 16) {
      const endian = data[at];
      if (endian !== 0x6c && endian !== 0x42) throw new WireFramingError(`a D-Bus message starts with byte ${endian}, not "l" or "B"`);
      const little = endian === 0x6c;
      const bodyLength = little ? data.readUInt32LE(at + 4) : data.readUInt32BE(at + 4);
      const fieldsLength = little ? data.readUInt32LE(at + 12) : data.readUInt32BE(at + 12);
      const headerEnd = 16 + fieldsLength + ((8 - (fieldsLength % 8)) % 8);
      const total = headerEnd + bodyLength;
      if (total > MAX_MESSAGE_BYTES)
        throw new WireFramingError(`a D-Bus message of ${total} bytes (at most ${MAX_MESSAGE_BYTES} are allowed)`);
      if (data.length - at < total) break;
      messages.push(readMessage(data.subarray(at, at + total), little, headerEnd));
      at += total;
    }
    this.pending = at === data.length ? Buffer.alloc(0) : Buffer.from(data.subarray(at));
    return messages;
  }
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** One whole message (`data` holds it and nothing else), read inside a guard. */
function readMessage(data: Buffer, little: boolean, headerEnd: number): WireMessage {
  const r = new Reader(data, little);
  const type = data[1]!;
  r.pos = 8;
  const serial = r.u32();
  // The header fields, a(yv), read in place: only four of them matter here.
  const fieldsEnd = 16 + r.u32();
  let replySerial: number | undefined;
  let errorName: string | undefined;
  let sender: string | undefined;
  let signature = '';
  try {
    while (r.pos < fieldsEnd) {
      r.align(8);
      const code = r.u8();
      const value = r.value(r.string(r.u8()));
      if (code === FIELD.replySerial && typeof value === 'number') replySerial = value;
      else if (code === FIELD.errorName && typeof value === 'string') errorName = value;
      else if (code === FIELD.sender && typeof value === 'string') sender = value;
      else if (code === FIELD.signature && typeof value === 'string') signature = value;
    }
  } catch (error) {
    return {
      type,
      serial,
      signature: '',
      body: [],
      ...(replySerial !== undefined && { replySerial }),
      malformed: `its header cannot be read: ${reasonOf(error)}`,
    };
  }
  const message: { -readonly [K in keyof WireMessage]: WireMessage[K] } = { type, serial, signature, body: [] };
  if (replySerial !== undefined) message.replySerial = replySerial;
  if (errorName !== undefined) message.errorName = errorName;
  if (sender !== undefined) message.sender = sender;
  try {
    r.pos = headerEnd;
    const types = completeTypes(signature);
    const body = new Array<unknown>(types.length);
    for (let i = 0; i < types.length; i++) body[i] = r.value(types[i]!);
    if (r.pos !== data.length) throw new RangeError(`its body is ${data.length - headerEnd} bytes, its values ${r.pos - headerEnd}`);
    message.body = body;
  } catch (error) {
    message.malformed = `its body (signature "${signature}") cannot be read: ${reasonOf(error)}`;
  }
  return message;
}
