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

const ALIGN: Readonly<Record<string, number>> = { y: 1, g: 1, v: 1, n: 2, q: 2, b: 4, i: 4, u: 4, h: 4, s: 4, o: 4, a: 4, x: 8, t: 8, d: 8, '(': 8, '{': 8 };

/** Where the single complete type starting at `i` ends. */
function typeEnd(signature: string, i: number): number {
  const c = signature[i];
  if (c === 'a') return typeEnd(signature, i + 1);
  if (c === '(' || c === '{') {
    const close = c === '(' ? ')' : '}';
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

/** The complete types of a signature, one per value. */
const splitCache = new Map<string, string[]>();
function completeTypes(signature: string): string[] {
  let types = splitCache.get(signature);
  if (types === undefined) {
    types = [];
    for (let i = 0; i < signature.length; ) {
      const end = typeEnd(signature, i);
      types.push(signature.slice(i, end));
      i = end;
    }
    splitCache.set(signature, types);
  }
  return types;
}

/** The complete types inside a struct or dict entry type, `(…)` or `{…}`. */
const innerCache = new Map<string, string[]>();
function innerTypes(type: string): string[] {
  let types = innerCache.get(type);
  if (types === undefined) {
    types = completeTypes(type.slice(1, -1));
    innerCache.set(type, types);
  }
  return types;
}

/** The element type of an array type `a…`. */
const elementCache = new Map<string, string>();
function elementType(type: string): string {
  let element = elementCache.get(type);
  if (element === undefined) {
    element = type.slice(1);
    elementCache.set(type, element);
  }
  return element;
}

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
      case 'y': return this.u8(Number(v));
      case 'b': return this.u32(v ? 1 : 0);
      case 'u': case 'h': return this.u32(Number(v));
      case 'i': this.align(4); this.room(4); this.buffer.writeInt32LE(Number(v), this.pos); this.pos += 4; return;
      case 'n': this.align(2); this.room(2); this.buffer.writeInt16LE(Number(v), this.pos); this.pos += 2; return;
      case 'q': this.align(2); this.room(2); this.buffer.writeUInt16LE(Number(v), this.pos); this.pos += 2; return;
      case 'x': this.align(8); this.room(8); this.buffer.writeBigInt64LE(BigInt(v as number | bigint), this.pos); this.pos += 8; return;
      case 't': this.align(8); this.room(8); this.buffer.writeBigUInt64LE(BigInt(v as number | bigint), this.pos); this.pos += 8; return;
      case 'd': this.align(8); this.room(8); this.buffer.writeDoubleLE(Number(v), this.pos); this.pos += 8; return;
      case 's': case 'o': return this.string(String(v), 4);
      case 'g': return this.string(String(v), 1);
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

  constructor(
    private readonly buffer: Buffer,
    /** Where the message starts: alignment counts from there. */
    private readonly origin: number,
    private readonly little: boolean,
  ) {
    this.pos = origin;
  }

  align(n: number): void {
    const off = (this.pos - this.origin) % n;
    if (off !== 0) this.pos += n - off;
  }

  u32(): number {
    this.align(4);
    const v = this.little ? this.buffer.readUInt32LE(this.pos) : this.buffer.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  string(length: number): string {
    const v = this.buffer.toString('utf8', this.pos, this.pos + length);
    this.pos += length + 1;
    return v;
  }

  value(type: string): unknown {
    const b = this.buffer;
    const c = type[0]!;
    switch (c) {
      case 'y': return b[this.pos++];
      case 'b': return this.u32() !== 0;
      case 'u': case 'h': return this.u32();
      case 'i': { this.align(4); const v = this.little ? b.readInt32LE(this.pos) : b.readInt32BE(this.pos); this.pos += 4; return v; }
      case 'n': { this.align(2); const v = this.little ? b.readInt16LE(this.pos) : b.readInt16BE(this.pos); this.pos += 2; return v; }
      case 'q': { this.align(2); const v = this.little ? b.readUInt16LE(this.pos) : b.readUInt16BE(this.pos); this.pos += 2; return v; }
      case 'x': { this.align(8); const v = this.little ? b.readBigInt64LE(this.pos) : b.readBigInt64BE(this.pos); this.pos += 8; return v; }
      case 't': { this.align(8); const v = this.little ? b.readBigUInt64LE(this.pos) : b.readBigUInt64BE(this.pos); this.pos += 8; return v; }
      case 'd': { this.align(8); const v = this.little ? b.readDoubleLE(this.pos) : b.readDoubleBE(this.pos); this.pos += 8; return v; }
      case 's': case 'o': return this.string(this.u32());
      case 'g': return this.string(b[this.pos++]!);
      case 'v': {
        const signature = this.string(b[this.pos++]!);
        return new Variant(signature, this.value(signature));
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
        if (element === 'y') {
          this.pos = end;
          return b.subarray(end - length, end);
        }
        if (element[0] === '{') {
          const [key, value] = innerTypes(element) as [string, string];
          const dict: Record<string, unknown> = {};
          while (this.pos < end) {
            this.align(8);
            const k = this.value(key);
            dict[String(k)] = this.value(value);
          }
          return dict;
        }
        const items: unknown[] = [];
        while (this.pos < end) items.push(this.value(element));
        return items;
      }
      default:
        throw new Error(`cannot read D-Bus type "${type}"`);
    }
  }
}

/**
 * Reads whole messages from a byte stream, keeping a partial one for the next chunk.
 */
export class MessageReader {
  private pending: Buffer = Buffer.alloc(0);

  /** The messages completed by `chunk`, in order. */
  push(chunk: Buffer): WireMessage[] {
    const data = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const messages: WireMessage[] = [];
    let at = 0;
    while (data.length - at >= 16) {
      const little = data[at] === 0x6c;
      const bodyLength = little ? data.readUInt32LE(at + 4) : data.readUInt32BE(at + 4);
      const fieldsLength = little ? data.readUInt32LE(at + 12) : data.readUInt32BE(at + 12);
      const headerEnd = 16 + fieldsLength + ((8 - (fieldsLength % 8)) % 8);
      const total = headerEnd + bodyLength;
      if (data.length - at < total) break;
      messages.push(readMessage(data, at, little, headerEnd));
      at += total;
    }
    this.pending = at === data.length ? Buffer.alloc(0) : Buffer.from(data.subarray(at));
    return messages;
  }
}

function readMessage(data: Buffer, at: number, little: boolean, headerEnd: number): WireMessage {
  const r = new Reader(data, at, little);
  r.pos = at + 8;
  const serial = r.u32();
  // The header fields, a(yv), read in place: only four of them matter here.
  const fieldsEnd = at + 16 + r.u32();
  let replySerial: number | undefined;
  let errorName: string | undefined;
  let sender: string | undefined;
  let signature = '';
  while (r.pos < fieldsEnd) {
    r.align(8);
    const code = data[r.pos++]!;
    const value = r.value(r.string(data[r.pos++]!));
    if (code === FIELD.replySerial) replySerial = value as number;
    else if (code === FIELD.errorName) errorName = value as string;
    else if (code === FIELD.sender) sender = value as string;
    else if (code === FIELD.signature) signature = value as string;
  }
  r.pos = at + headerEnd;
  const types = completeTypes(signature);
  const body = new Array<unknown>(types.length);
  for (let i = 0; i < types.length; i++) body[i] = r.value(types[i]!);
  const message: { -readonly [K in keyof WireMessage]: WireMessage[K] } = { type: data[at + 1]!, serial, signature, body };
  if (replySerial !== undefined) message.replySerial = replySerial;
  if (errorName !== undefined) message.errorName = errorName;
  if (sender !== undefined) message.sender = sender;
  return message;
}
