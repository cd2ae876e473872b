/**
 * A minimal X11 client over the display's local socket: the requests the command-line tools
 * cannot make — ask a window to close (WM_DELETE_WINDOW, as a window manager does), read a
 * selection owner's property (the XSETTINGS manager's) — and the ones asked on every action,
 * where starting a tool process (~20 ms each) would dominate: a window's place and state.
 * Little-endian. Extensions are found by name (`extension`) and asked by their own requests;
 * their events reach `onEvent` (x11/drawing.ts watches drawing with DAMAGE this way).
 */
import { connect, type Socket } from 'node:net';
import { cookieFor, type XAuth } from './auth.ts';
import { XProtocolError, xErrorOf } from './x-errors.ts';

const OPCODE = {
  getWindowAttributes: 3,
  getGeometry: 14,
  internAtom: 16,
  getProperty: 20,
  getSelectionOwner: 23,
  sendEvent: 25,
  translateCoordinates: 40,
  getInputFocus: 43,
  getImage: 73,
  queryExtension: 98,
  changeKeyboardMapping: 100,
  getKeyboardMapping: 101,
} as const;
const Z_PIXMAP = 2;
const MAP_STATE_VIEWABLE = 2;
const CLIENT_MESSAGE = 33;
const REQUEST_TIMEOUT_MS = 5_000;
/** The core requests by opcode, for errors that name them. */
const REQUEST_NAMES: ReadonlyMap<number, string> = new Map(
  Object.entries(OPCODE).map(([name, opcode]) => [opcode, name[0]!.toUpperCase() + name.slice(1)]),
);
/**
 * The largest reply or event read (a 7680×4320 screen grab is 133 MB): a length past it is no
 * reply a server sends, and the stream cannot be followed after it.
 */
const MAX_PACKET_BYTES = 256 << 20;
/**
 * Every read of a connection lands in one buffer of this size, reused: a fresh buffer per read
 * (Node's default, 64 KB) is fresh memory, and on a virtual machine its page faults made a
 * 360×480 grab take 7–16 ms in a busy process instead of ~1.5.
 */
const READ_BUFFER_BYTES = 1 << 20;

/** Where a connection's reads go: its setup first, then the connection. */
interface Reads {
  deliver: (chunk: Buffer) => void;
}

const pad4 = (n: number): number => (4 - (n % 4)) % 4;

/** Whether request `a` was sent before request `b`: sequence numbers are 16 bits and wrap. */
const sentBefore = (a: number, b: number): boolean => a !== b && ((b - a) & 0xffff) < 0x8000;

interface Pending {
  /** The request's name, for its errors: GetProperty, DAMAGE 1. */
  readonly request: string;
  readonly resolve: (reply: Buffer) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
  /** A request without a reply: it succeeded once a later request is answered. */
  readonly noReply?: boolean;
  /** Where the data of a large reply goes, as it arrives; the reply is then its 32-byte header. */
  readonly into?: Uint8Array;
}

/** A large reply on its way into its request's own buffer. */
interface Filling {
  readonly sequence: number;
  readonly pending: Pending;
  readonly header: Buffer;
  /** The request's buffer, or a scratch one when the reply's size is not what it expected. */
  readonly target: Uint8Array;
  offset: number;
}

export interface KeycodeRange {
  readonly min: number;
  readonly max: number;
}

/** How the server lays out the pixels of its root window, as its setup said. */
export interface XPixelFormat {
  /** 0: least significant byte first. */
  readonly byteOrder: number;
  readonly depth: number;
  readonly bitsPerPixel: number;
  readonly scanlinePad: number;
  /** Of the root visual; undefined when it is not a TrueColor visual. */
  readonly masks: { readonly red: number; readonly green: number; readonly blue: number } | undefined;
}

/** An extension the server has: its request opcode and the code of its first event. */
export interface XExtension {
  readonly name: string;
  readonly opcode: number;
  readonly firstEvent: number;
}

export interface XProperty {
  readonly type: number;
  /** 8, 16 or 32; 0 when the property does not exist. */
  readonly format: number;
  readonly value: Buffer;
}

/** The local socket of `:N` / `unix:N`, or undefined for a remote display. */
const socketPath = (display: string): { path: string; number: number } | undefined => {
  const match = /^(?:unix)?:(\d+)(?:\.\d+)?$/.exec(display);
  return match?.[1] === undefined ? undefined : { path: `/tmp/.X11-unix/X${match[1]}`, number: Number(match[1]) };
};

const setupRequest = (auth: XAuth | undefined): Buffer => {
  const name = Buffer.from(auth?.name ?? '', 'latin1');
  const data = auth?.data ?? Buffer.alloc(0);
  const request = Buffer.alloc(12 + name.length + pad4(name.length) + data.length + pad4(data.length));
  request.writeUInt8(0x6c, 0); // 'l': little-endian
  request.writeUInt16LE(11, 2);
  request.writeUInt16LE(0, 4);
  request.writeUInt16LE(name.length, 6);
  request.writeUInt16LE(data.length, 8);
  name.copy(request, 12);
  data.copy(request, 12 + name.length + pad4(name.length));
  return request;
};

const TRUE_COLOR = 4;

const wrongSize = (bytes: number, into: Uint8Array | undefined): XProtocolError =>
  new XProtocolError(`X reply of ${bytes} bytes where ${into?.length ?? 0} were expected`);

/** The root window and its pixel format, from the setup reply (screen 0). */
const parseSetup = (setup: Buffer): { root: number; pixels: XPixelFormat; keycodes: KeycodeRange } => {
  const vendorLength = setup.readUInt16LE(24);
  const formatCount = setup.readUInt8(29);
  const formats = 40 + vendorLength + pad4(vendorLength);
  const screen = formats + 8 * formatCount;
  const depth = setup.readUInt8(screen + 38);
  const rootVisual = setup.readUInt32LE(screen + 32);
  let bitsPerPixel = 0;
  let scanlinePad = 0;
  for (let at = formats; at < screen; at += 8) {
    if (setup.readUInt8(at) !== depth) continue;
    bitsPerPixel = setup.readUInt8(at + 1);
    scanlinePad = setup.readUInt8(at + 2);
  }
  let masks: XPixelFormat['masks'];
  let at = screen + 40;
  for (let d = setup.readUInt8(screen + 39); d > 0 && at + 8 <= setup.length; d--) {
    const visuals = setup.readUInt16LE(at + 2);
    at += 8;
    for (let v = 0; v < visuals; v++, at += 24) {
      if (setup.readUInt32LE(at) !== rootVisual || setup.readUInt8(at + 4) !== TRUE_COLOR) continue;
      masks = { red: setup.readUInt32LE(at + 8), green: setup.readUInt32LE(at + 12), blue: setup.readUInt32LE(at + 16) };
    }
  }
  return {
    root: setup.readUInt32LE(screen),
    pixels: { byteOrder: setup.readUInt8(30), depth, bitsPerPixel, scanlinePad, masks },
    keycodes: { min: setup.readUInt8(34), max: setup.readUInt8(35) },
  };
};

/** What finds a display's cookie: `XAUTHORITY` (a display retrace owns sets it), else `HOME`. */
export type XEnv = Readonly<Record<string, string | undefined>>;

/** A connection to `display`, opened on first use, and again after it ended or failed to open. */
export const connectionTo = (display: string, env: XEnv): (() => Promise<XConnection>) => {
  let current: Promise<XConnection> | undefined;
  return () => {
    if (current === undefined) {
      const opened = XConnection.open(display, env);
      current = opened;
      void opened
        .then(
          (x) => x.closed,
          () => undefined,
        )
        .then(() => {
          if (current === opened) current = undefined;
        });
    }
    return current;
  };
};

export class XConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private filling: Filling | undefined;
  private sequence = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly atoms = new Map<string, number>();
  /** Extension names by major opcode, for errors that name their requests. */
  private readonly extensions = new Map<number, string>();
  private failure: Error | undefined;
  private nextId = 1;
  /** Called with each event the server sends (32 bytes; its code without the sent-event bit). */
  onEvent: ((code: number, event: Buffer) => void) | undefined;
  private markClosed: () => void = () => undefined;
  /** Resolves when the connection ends (closed, or the server went away). */
  readonly closed = new Promise<void>((resolve) => {
    this.markClosed = resolve;
  });

  private constructor(
    private readonly socket: Socket,
    reads: Reads,
    /** The root window of screen 0. */
    readonly root: number,
    /** How screen 0 lays out its pixels. */
    readonly pixels: XPixelFormat,
    readonly keycodes: KeycodeRange,
    private readonly ids: { readonly base: number; readonly mask: number },
  ) {
    // Decoding happens here, at the socket, inside a guard: a throw from the read callback would
    // be uncaught. What cannot be followed (a length no server sends) ends this connection only.
    reads.deliver = (chunk) => {
      try {
        this.received(chunk);
      } catch (error) {
        this.fail(
          error instanceof XProtocolError
            ? error
            : new XProtocolError(`X connection: a reply could not be read: ${(error as Error).message}`),
        );
        socket.destroy();
      }
    };
    socket.on('error', (error) => this.fail(new XProtocolError(`X connection failed: ${error.message}`)));
    socket.on('close', () => this.fail(new XProtocolError('X connection closed')));
  }

  /**
   * Opens a connection to a local display (`:N`), with the cookie `env` points to (over this
   * process's environment). Rejects for remote displays.
   */
  static open(display: string, env: XEnv = {}, timeoutMs = REQUEST_TIMEOUT_MS): Promise<XConnection> {
    const local = socketPath(display);
    if (local === undefined) return Promise.reject(new XProtocolError(`not a local display: ${display}`));
    return new Promise((resolve, reject) => {
      const reads: Reads = { deliver: (chunk) => onData(chunk) };
      const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
      const callback = (n: number): boolean => {
        reads.deliver(buffer.subarray(0, n));
        return true;
      };
      const socket = connect({ path: local.path, onread: { buffer, callback } });
      socket.unref();
      let setup = Buffer.alloc(0);
      const timer = setTimeout(() => finish(new XProtocolError(`no X setup reply from ${display} in ${timeoutMs} ms`)), timeoutMs);
      const closed = (): void => finish(new XProtocolError(`X server ${display} closed the connection during its setup`));
      const finish = (result: XConnection | Error): void => {
        clearTimeout(timer);
        socket.off('error', finish);
        socket.off('close', closed);
        if (result instanceof Error) {
          socket.destroy();
          reject(result);
        } else {
          resolve(result);
        }
      };
      const onData = (chunk: Buffer): void => {
        setup = Buffer.concat([setup, chunk]);
        if (setup.length < 8) return;
        // At most 8 + 65535 × 4 bytes: the length field bounds it.
        const total = 8 + setup.readUInt16LE(6) * 4;
        if (setup.length < total) return;
        if (setup[0] !== 1) {
          const reason = setup.subarray(8, 8 + (setup[1] ?? 0)).toString('latin1');
          finish(new XProtocolError(`X server ${display} refused the connection: ${reason || 'no reason given'}`));
          return;
        }
        let connection: XConnection;
        try {
          const { root, pixels, keycodes } = parseSetup(setup.subarray(0, total));
          connection = new XConnection(socket, reads, root, pixels, keycodes, {
            base: setup.readUInt32LE(12),
            mask: setup.readUInt32LE(16),
          });
        } catch (error) {
          finish(new XProtocolError(`X server ${display} sent a setup reply that cannot be read: ${(error as Error).message}`));
          return;
        }
        if (setup.length > total) reads.deliver(setup.subarray(total));
        finish(connection);
      };
      socket.once('error', finish);
      socket.once('close', closed);
      socket.once('connect', () => socket.write(setupRequest(cookieFor(local.number, { ...process.env, ...env }))));
    });
  }

  close(): void {
    this.socket.destroy();
  }

  /** A new resource id of this connection's own. */
  newId(): number {
    const { base, mask } = this.ids;
    const step = mask & -mask;
    return (base | ((this.nextId++ * step) & mask)) >>> 0;
  }

  /** The extension `name`, or undefined when the server does not have it. */
  async extension(name: string): Promise<XExtension | undefined> {
    const bytes = Buffer.from(name, 'latin1');
    const request = this.header(OPCODE.queryExtension, 0, 2 + (bytes.length + pad4(bytes.length)) / 4);
    request.writeUInt16LE(bytes.length, 4);
    bytes.copy(request, 8);
    const reply = await this.send(request);
    if (reply.readUInt8(8) !== 1) return undefined;
    const extension = { name, opcode: reply.readUInt8(9), firstEvent: reply.readUInt8(10) };
    this.extensions.set(extension.opcode, name);
    return extension;
  }

  /**
   * Sends an extension's request: `body` after the 4-byte header, padded to 4 bytes. Resolves
   * with the reply, or — for a request without one — once the server has handled it.
   */
  async request(extension: XExtension, minor: number, body: Buffer, replies: boolean): Promise<Buffer> {
    const request = this.extensionRequest(extension, minor, body);
    return replies ? this.send(request) : this.sendSynced(request);
  }

  async atom(name: string): Promise<number> {
    const known = this.atoms.get(name);
    if (known !== undefined) return known;
    const bytes = Buffer.from(name, 'latin1');
    const request = this.header(OPCODE.internAtom, 0, 2 + (bytes.length + pad4(bytes.length)) / 4);
    request.writeUInt16LE(bytes.length, 4);
    bytes.copy(request, 8);
    const reply = await this.send(request);
    const atom = reply.readUInt32LE(8);
    this.atoms.set(name, atom);
    return atom;
  }

  async property(window: number, name: string, maxBytes = 1 << 20): Promise<XProperty> {
    const request = this.header(OPCODE.getProperty, 0, 6);
    request.writeUInt32LE(window, 4);
    request.writeUInt32LE(await this.atom(name), 8);
    request.writeUInt32LE(0, 12); // AnyPropertyType
    request.writeUInt32LE(0, 16);
    request.writeUInt32LE(Math.ceil(maxBytes / 4), 20);
    const reply = await this.send(request);
    const format = reply.readUInt8(1);
    const items = reply.readUInt32LE(16);
    return { type: reply.readUInt32LE(8), format, value: Buffer.from(reply.subarray(32, 32 + items * (format / 8))) };
  }

  /** Whether the window is viewable: mapped, and all its ancestors too. */
  async viewable(window: number): Promise<boolean> {
    const request = this.header(OPCODE.getWindowAttributes, 0, 2);
    request.writeUInt32LE(window, 4);
    return (await this.send(request)).readUInt8(26) === MAP_STATE_VIEWABLE;
  }

  /** The window's inside (its border excluded) in root coordinates. */
  async rootArea(window: number): Promise<{ x: number; y: number; width: number; height: number }> {
    const geometry = this.header(OPCODE.getGeometry, 0, 2);
    geometry.writeUInt32LE(window, 4);
    const translate = this.header(OPCODE.translateCoordinates, 0, 4);
    translate.writeUInt32LE(window, 4);
    translate.writeUInt32LE(this.root, 8);
    const [size, origin] = await Promise.all([this.send(geometry), this.send(translate)]);
    return { x: origin.readInt16LE(12), y: origin.readInt16LE(14), width: size.readUInt16LE(16), height: size.readUInt16LE(18) };
  }

  /** The window owning selection `name`, or 0 when nobody does. */
  async selectionOwner(name: string): Promise<number> {
    const request = this.header(OPCODE.getSelectionOwner, 0, 2);
    request.writeUInt32LE(await this.atom(name), 4);
    return (await this.send(request)).readUInt32LE(8);
  }

  /** Sends a 32-bit ClientMessage to `window` (no event mask: to the window's owner). */
  async clientMessage(window: number, type: string, data: readonly number[]): Promise<void> {
    const request = this.header(OPCODE.sendEvent, 0, 11);
    request.writeUInt32LE(window, 4);
    request.writeUInt32LE(0, 8);
    request.writeUInt8(CLIENT_MESSAGE, 12);
    request.writeUInt8(32, 13);
    request.writeUInt32LE(window, 16);
    request.writeUInt32LE(await this.atom(type), 20);
    data.slice(0, 5).forEach((value, i) => request.writeUInt32LE(value >>> 0, 24 + 4 * i));
    await this.sendSynced(request);
  }

  /**
   * The pixels of `area` of the root window (ZPixmap), written into `into` as they arrive:
   * a 1280×800 screen is 4 MB, which would otherwise be gathered chunk by chunk first.
   * `into` must hold exactly the reply's data (rows padded to the format's scanline pad).
   */
  async image(area: { x: number; y: number; width: number; height: number }, into: Uint8Array): Promise<void> {
    const request = this.header(OPCODE.getImage, Z_PIXMAP, 5);
    request.writeUInt32LE(this.root, 4);
    request.writeInt16LE(area.x, 8);
    request.writeInt16LE(area.y, 10);
    request.writeUInt16LE(area.width, 12);
    request.writeUInt16LE(area.height, 14);
    request.writeUInt32LE(0xffffffff, 16);
    await this.send(request, false, into);
  }

  /** The keysyms of every keycode, `perKeycode` of them each, from the lowest keycode on. */
  async keyboardMapping(): Promise<{ perKeycode: number; keysyms: Uint32Array }> {
    const { min, max } = this.keycodes;
    const request = this.header(OPCODE.getKeyboardMapping, 0, 2);
    request.writeUInt8(min, 4);
    request.writeUInt8(max - min + 1, 5);
    const reply = await this.send(request);
    const words = reply.readUInt32LE(4);
    const keysyms = new Uint32Array(words);
    for (let i = 0; i < words; i++) keysyms[i] = reply.readUInt32LE(32 + 4 * i);
    return { perKeycode: reply.readUInt8(1), keysyms };
  }

  /** Puts `keysyms` (its levels, unshifted first) on `keycode`; resolves once the server has. */
  async changeKeyboardMapping(keycode: number, keysyms: readonly number[]): Promise<void> {
    const request = this.header(OPCODE.changeKeyboardMapping, 1, 2 + keysyms.length);
    request.writeUInt8(keycode, 4);
    request.writeUInt8(keysyms.length, 5);
    keysyms.forEach((keysym, i) => request.writeUInt32LE(keysym, 8 + 4 * i));
    await this.sendSynced(request);
  }

  /** Requests of an extension, written at once and confirmed by one round trip. */
  async requests(extension: XExtension, minor: number, bodies: readonly Buffer[]): Promise<void> {
    if (bodies.length === 0) return;
    const requests = bodies.map((body) => this.extensionRequest(extension, minor, body));
    await Promise.all([...requests.map((request) => this.send(request, true)), this.sync()]);
  }

  /**
   * A round trip: resolves once the server has answered a request sent now, so everything it
   * handled before (events for this connection included) has arrived.
   */
  sync(): Promise<Buffer> {
    return this.send(this.header(OPCODE.getInputFocus, 0, 1));
  }

  /** Sends a request that has no reply; the round trip after it, answered in order, tells it was handled. */
  private async sendSynced(request: Buffer): Promise<Buffer> {
    const [, sync] = await Promise.all([this.send(request, true), this.sync()]);
    return sync;
  }

  /** An extension's request: `body` after the 4-byte header, padded to 4 bytes. */
  private extensionRequest(extension: XExtension, minor: number, body: Buffer): Buffer {
    const request = this.header(extension.opcode, minor, 1 + (body.length + pad4(body.length)) / 4);
    body.copy(request, 4);
    return request;
  }

  private header(opcode: number, detail: number, length: number): Buffer {
    const request = Buffer.alloc(length * 4);
    request.writeUInt8(opcode, 0);
    request.writeUInt8(detail, 1);
    request.writeUInt16LE(length, 2);
    return request;
  }

  private write(request: Buffer): number {
    if (this.failure) throw this.failure;
    this.sequence = (this.sequence + 1) & 0xffff;
    this.socket.write(request);
    return this.sequence;
  }

  private send(request: Buffer, noReply = false, into?: Uint8Array): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      let sequence: number;
      try {
        sequence = this.write(request);
      } catch (error) {
        reject(error as Error);
        return;
      }
      const name = this.requestName(request);
      const timer = setTimeout(() => {
        this.pending.delete(sequence);
        reject(new XProtocolError(`no X reply to ${name} in ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(sequence, { request: name, resolve, reject, timer, noReply, into });
    });
  }

  /** GetProperty; an extension's as its name and minor opcode ("DAMAGE 1"). */
  private requestName(request: Buffer): string {
    const major = request.readUInt8(0);
    const core = REQUEST_NAMES.get(major);
    if (core !== undefined) return core;
    return `${this.extensions.get(major) ?? `extension ${major}`} ${request.readUInt8(1)}`;
  }

  /**
   * Bytes read into the socket's one read buffer, which the next read overwrites: what is kept
   * past this call (a partial packet, a reply) is copied out; a large reply was copied into its
   * request's buffer already.
   */
  private received(chunk: Buffer): void {
    this.receive(chunk);
    if (this.buffer.length > 0 && this.buffer.buffer === chunk.buffer) this.buffer = Buffer.from(this.buffer);
  }

  private receive(chunk: Buffer): void {
    const rest = this.filling ? this.fill(chunk) : chunk;
    if (rest.length === 0) return;
    this.buffer = this.buffer.length === 0 ? rest : Buffer.concat([this.buffer, rest]);
    while (this.buffer.length >= 32) {
      const kind = this.buffer.readUInt8(0);
      const size = kind === 1 || kind === 35 ? 32 + this.buffer.readUInt32LE(4) * 4 : 32;
      if (size > MAX_PACKET_BYTES)
        throw new XProtocolError(`X connection: a reply of ${size} bytes (at most ${MAX_PACKET_BYTES} are read)`);
      if (this.buffer.length < size) {
        if (kind === 1) this.startFilling(size);
        return;
      }
      const packet = this.buffer.subarray(0, size);
      this.buffer = this.buffer.subarray(size);
      if (kind > 1) {
        this.onEvent?.(kind & 0x7f, packet);
        continue;
      }
      const sequence = packet.readUInt16LE(2);
      const pending = this.pending.get(sequence);
      if (pending === undefined) continue;
      if (kind !== 1) this.answered(sequence, pending, packet, xErrorOf(packet.readUInt8(1), pending.request));
      else if (pending.into === undefined) this.answered(sequence, pending, packet);
      else {
        // A reply small enough to come whole: into the request's buffer all the same.
        const fits = packet.length - 32 === pending.into.length;
        if (fits) pending.into.set(packet.subarray(32));
        this.answered(sequence, pending, packet.subarray(0, 32), fits ? undefined : wrongSize(packet.length - 32, pending.into));
      }
    }
  }

  /** A reply only partly here, for a request that gave a buffer: the rest goes straight there. */
  private startFilling(size: number): void {
    const sequence = this.buffer.readUInt16LE(2);
    const pending = this.pending.get(sequence);
    if (pending?.into === undefined) return;
    const header = Buffer.from(this.buffer.subarray(0, 32));
    const target = pending.into.length === size - 32 ? pending.into : new Uint8Array(size - 32);
    const rest = this.buffer.subarray(32);
    this.buffer = Buffer.alloc(0);
    this.filling = { sequence, pending, header, target, offset: 0 };
    this.receive(rest);
  }

  /** Copies what belongs to the reply being filled; returns the bytes after it. */
  private fill(chunk: Buffer): Buffer {
    const filling = this.filling!;
    const n = Math.min(chunk.length, filling.target.length - filling.offset);
    filling.target.set(chunk.subarray(0, n), filling.offset);
    filling.offset += n;
    if (filling.offset === filling.target.length) {
      this.filling = undefined;
      const { sequence, pending, header, target } = filling;
      const failure = target === pending.into ? undefined : wrongSize(target.length, pending.into);
      if (this.pending.get(sequence) === pending) this.answered(sequence, pending, header, failure);
    }
    return chunk.subarray(n);
  }

  /** `packet` answers request `sequence` (with `failure` when it is an X error). */
  private answered(sequence: number, pending: Pending, read: Buffer, failure?: Error): void {
    // Out of the read buffer: whoever awaits the reply reads it after the next read.
    const packet = Buffer.from(read);
    this.settle(sequence, pending, failure ?? packet);
    // Replies come in request order: the requests without a reply sent before this one are done
    // (their errors would have come first); those sent after it are not, whatever it answered.
    for (const [earlier, waiting] of this.pending)
      if (waiting.noReply && sentBefore(earlier, sequence)) this.settle(earlier, waiting, packet);
  }

  private settle(sequence: number, pending: Pending, result: Buffer | Error): void {
    this.pending.delete(sequence);
    clearTimeout(pending.timer);
    if (result instanceof Error) pending.reject(result);
    else pending.resolve(result);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.markClosed();
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.pending.clear();
  }
}
