/**
 * A D-Bus connection for the accessibility code: method calls by name, each bounded in time, on
 * a socket that never keeps this process alive. retrace's own, to a bus daemon and to an app
 * alike: it authenticates (EXTERNAL), says hello to a bus, and writes and reads the wire format
 * itself (wire.ts), so no library's private state is in the way.
 */
import { createConnection } from 'node:net';
import { CallWriter, MESSAGE_TYPE, MessageReader, Variant, type MethodCall, type WireMessage } from './wire.ts';

/** A call that failed: the remote error name (e.g. org.freedesktop.DBus.Error.UnknownMethod). */
export class BusCallError extends Error {
  constructor(
    message: string,
    readonly errorName: string,
  ) {
    super(message);
    this.name = 'BusCallError';
  }
}

export interface BusLink {
  /** Calls `member` and resolves with the reply's body. */
  call(destination: string, path: string, iface: string, member: string, signature?: string, body?: unknown[]): Promise<unknown[]>;
  /** Reads one property (the Variant's value). */
  property(destination: string, path: string, iface: string, name: string): Promise<unknown>;
  /** True until the connection fails or is closed. */
  readonly open: boolean;
  close(): void;
}

const CALL_TIMEOUT_MS = 3_000;
/** Calls per write when many are sent at once. */
const WRITE_BATCH = 32;

interface Stream {
  write(data: Buffer): boolean;
  read(): Buffer | null;
  on(event: 'readable', listener: () => void): void;
}

interface Waiting {
  readonly resolve: (body: unknown[]) => void;
  readonly reject: (error: Error) => void;
  readonly call: MethodCall;
  /** When it fails unanswered (Date.now() ms). */
  readonly deadline: number;
}

const describeCall = ({ iface, member, destination, path }: MethodCall): string => `${iface}.${member} on ${destination}${path}`;

/**
 * Calls by serial over one connection: each bounded in time, all failed at once when the
 * connection fails. A tree read sends hundreds of calls: per call there is no timer (one sweeps
 * them all) and no buffer or write of its own (they leave in batches).
 */
class Calls {
  /** The calls waiting for an answer, by serial, oldest first. */
  private readonly waiting = new Map<number, Waiting>();
  private sweeping: NodeJS.Timeout | undefined;
  open = true;

  private serial = 0;
  private send: (call: MethodCall) => void = () => undefined;

  constructor(
    private readonly address: string,
    private readonly timeoutMs: number,
  ) {}

  /** The connection failed: every call waiting on it fails with it. */
  fail(error: unknown): void {
    this.open = false;
    const failure = new BusCallError(
      `D-Bus connection to ${this.address} failed: ${(error as Error)?.message ?? error}`,
      'retrace.Disconnected',
    );
    for (const [serial, call] of [...this.waiting]) this.finish(serial, call)?.reject(failure);
  }

  settle(message: WireMessage): void {
    const serial = message.replySerial;
    const call = serial === undefined ? undefined : this.finish(serial, this.waiting.get(serial));
    if (call === undefined) {
      if (message.malformed !== undefined)
        console.warn(`retrace: dropped a D-Bus message from ${this.address} that answers no call: ${message.malformed}`);
      return;
    }
    if (message.malformed !== undefined) {
      call.reject(new BusCallError(`${describeCall(call.call)}: the reply could not be read: ${message.malformed}`, 'retrace.BadMessage'));
    } else if (message.type === MESSAGE_TYPE.error) {
      call.reject(
        new BusCallError(
          `${describeCall(call.call)}: ${String(message.body[0] ?? message.errorName)}`,
          message.errorName ?? 'org.freedesktop.DBus.Error.Failed',
        ),
      );
    } else {
      call.resolve(message.body);
    }
  }

  /**
   * The authenticated stream: its replies are read, and calls written, here. Calls sent in one
   * tick leave in batches: the app answers the first batch while the rest are still being written.
   */
  attach(stream: Stream, close: () => void): void {
    const reader = new MessageReader();
    // Decoding happens here, at the socket, inside a guard: whatever a peer sends, a throw from
    // this listener would be uncaught and end the run. A message that cannot be read fails the
    // call it answers (MessageReader); a stream whose framing is lost fails the connection.
    stream.on('readable', () => {
      try {
        for (let chunk = stream.read(); chunk !== null; chunk = stream.read()) for (const m of reader.push(chunk)) this.settle(m);
      } catch (error) {
        this.fail(error);
        close();
      }
    });
    const out = new CallWriter();
    const flush = (): void => {
      if (out.count > 0) stream.write(out.take());
    };
    this.send = (message) => {
      if (out.count === 0) process.nextTick(flush);
      out.append(message);
      if (out.count === WRITE_BATCH) flush();
    };
  }

  readonly call: BusLink['call'] = (destination, path, iface, member, signature = '', body = []) =>
    new Promise((resolve, reject) => {
      if (!this.open) {
        reject(new BusCallError(`D-Bus connection to ${this.address} is closed`, 'retrace.Disconnected'));
        return;
      }
      const call: MethodCall = { serial: ++this.serial, destination, path, iface, member, signature, body };
      this.waiting.set(call.serial, { resolve, reject, call, deadline: Date.now() + this.timeoutMs });
      this.sweeping ??= setTimeout(() => this.sweep(), this.timeoutMs);
      this.send(call);
    });

  /** Takes a call off the waiting list (undefined when it is not on it any more). */
  private finish(serial: number, call: Waiting | undefined): Waiting | undefined {
    if (call === undefined) return undefined;
    this.waiting.delete(serial);
    if (this.waiting.size === 0 && this.sweeping !== undefined) {
      clearTimeout(this.sweeping);
      this.sweeping = undefined;
    }
    return call;
  }

  /** Fails the calls past their deadline; the oldest left sets when to look again. */
  private sweep(): void {
    this.sweeping = undefined;
    const now = Date.now();
    for (const [serial, call] of [...this.waiting]) {
      if (call.deadline > now) {
        this.sweeping = setTimeout(() => this.sweep(), call.deadline - now);
        return;
      }
      this.finish(serial, call)?.reject(
        new BusCallError(`${describeCall(call.call)}: no answer in ${this.timeoutMs} ms`, 'retrace.Timeout'),
      );
    }
  }

  link(close: () => void): BusLink {
    const calls = this;
    return {
      call: this.call,
      async property(destination, path, iface, name) {
        const [value] = await calls.call(destination, path, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [iface, name]);
        return (value as { value?: unknown } | undefined)?.value;
      },
      get open() {
        return calls.open;
      },
      close() {
        calls.open = false;
        close();
      },
    };
  }
}

/**
 * Connects to the bus at `address` (a D-Bus address such as `unix:path=/run/…/bus`): the
 * connection of an app's own, and then the bus's hello, which proves it within the time bound.
 */
export const openBus = async (address: string, timeoutMs = CALL_TIMEOUT_MS): Promise<BusLink> => {
  const link = await openPeer(address, timeoutMs);
  try {
    await link.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'Hello');
  } catch (error) {
    link.close();
    throw error;
  }
  return link;
};

/**
 * Connects straight to one app at its own address (`unix:path=…` or `unix:abstract=…`, as the
 * app's `GetApplicationBusAddress` gives it): no bus daemon between, so each call is one hop
 * each way, not two, and the daemon (one process for every app) is not in the way. A peer
 * connection has no hello: retrace authenticates (EXTERNAL, as the bus does) and begins.
 */
export const openPeer = async (address: string, timeoutMs = CALL_TIMEOUT_MS): Promise<BusLink> => {
  const match = /^unix:(path|abstract)=([^,;]+)/.exec(address);
  if (match === null) throw new BusCallError(`cannot connect to D-Bus address ${address}`, 'retrace.Unsupported');
  const path = (match[1] === 'abstract' ? '\0' : '') + decodeURIComponent(match[2]!);
  const socket = createConnection({ path });
  socket.unref();
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new BusCallError(`${address}: no authentication in ${timeoutMs} ms`, 'retrace.Timeout')),
        timeoutMs,
      );
      let said = '';
      const hear = (chunk: Buffer): void => {
        said += chunk.toString('latin1');
        if (!said.includes('\r\n')) return;
        clearTimeout(timer);
        socket.off('data', hear);
        if (!said.startsWith('OK ')) reject(new BusCallError(`${address} refused authentication: ${said.trim()}`, 'retrace.AuthFailed'));
        else resolve();
      };
      socket.on('data', hear);
      socket.once('error', (error) => (clearTimeout(timer), reject(error)));
      const uid = Buffer.from(String(process.getuid?.() ?? 0)).toString('hex');
      socket.write(`\0AUTH EXTERNAL ${uid}\r\n`);
    });
  } catch (error) {
    socket.destroy();
    throw error;
  }
  socket.write('BEGIN\r\n');
  const calls = new Calls(address, timeoutMs);
  calls.attach(socket, () => socket.destroy());
  socket.on('error', (error) => calls.fail(error));
  socket.on('close', () => calls.fail(new Error('closed')));
  return calls.link(() => socket.destroy());
};

/** A D-Bus variant, for property writes. */
export const variant = (signature: string, value: unknown): unknown => new Variant(signature, value);
