/**
 * A D-Bus connection for the accessibility code: method calls by name, each bounded in time, on
 * a socket that never keeps this process alive. The only place that imports dbus-next.
 */
import dbus from 'dbus-next';
import { encodeCall, MESSAGE_TYPE, MessageReader, Variant, type MethodCall, type WireMessage } from './wire.ts';

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
  removeAllListeners(event: 'readable'): void;
  unref?: () => void;
  cork?: () => void;
  uncork?: () => void;
}

interface Connected {
  readonly _connection?: { readonly stream?: Stream };
  newSerial(): number;
}

interface Waiting {
  readonly resolve: (body: unknown[]) => void;
  readonly fail: (error: Error) => void;
  readonly what: string;
}

/**
 * Connects to the bus at `address` (a D-Bus address such as `unix:path=/run/…/bus`). dbus-next
 * opens the connection (authentication, hello); calls and replies then go over its socket in
 * retrace's own wire format (wire.ts).
 */
export const openBus = async (address: string, timeoutMs = CALL_TIMEOUT_MS): Promise<BusLink> => {
  const bus = dbus.sessionBus({ busAddress: address });
  let open = true;
  /** The calls waiting for an answer, by serial: a connection that fails fails them all at once. */
  const waiting = new Map<number, Waiting>();
  bus.on('error', (error: unknown) => {
    open = false;
    const failure = new BusCallError(`D-Bus connection to ${address} failed: ${(error as Error)?.message ?? error}`, 'retrace.Disconnected');
    for (const call of [...waiting.values()]) call.fail(failure);
  });
  const connected = bus as unknown as Connected;
  const stream = connected._connection?.stream;
  stream?.unref?.();
  // A tree read sends hundreds of calls in one tick: corked, they leave a batch per write, not
  // one system call each (which cost more than the marshalling). Batches, not the whole tick:
  // the app answers the first while the rest are still being marshalled.
  let corked = 0;
  const cork = (): void => {
    if (stream?.cork === undefined) return;
    if (corked === 0) {
      stream.cork();
      process.nextTick(() => {
        if (corked > 0) stream.uncork?.();
        corked = 0;
      });
    } else if (corked % WRITE_BATCH === 0) {
      stream.uncork?.();
      stream.cork();
    }
    corked++;
  };

  const settle = (message: WireMessage): void => {
    const call = message.replySerial === undefined ? undefined : waiting.get(message.replySerial);
    if (call === undefined) return;
    if (message.type === MESSAGE_TYPE.error) {
      call.fail(new BusCallError(`${call.what}: ${String(message.body[0] ?? message.errorName)}`, message.errorName ?? 'org.freedesktop.DBus.Error.Failed'));
    } else {
      call.resolve(message.body);
    }
  };

  /** Before the takeover, a call goes through dbus-next; after it, over the socket directly. */
  let send = (serial: number, call: MethodCall): void => {
    bus.call(new dbus.Message({ ...call, body: [...call.body], interface: call.iface, serial })).then(
      (reply) => settle({ type: MESSAGE_TYPE.reply, serial: 0, replySerial: serial, signature: '', body: (reply?.body ?? []) as unknown[] }),
      (error: unknown) => settle({ type: MESSAGE_TYPE.error, serial: 0, replySerial: serial, errorName: (error as { type?: string }).type, signature: '', body: [(error as Error).message] }),
    );
  };

  const call: BusLink['call'] = (destination, path, iface, member, signature = '', body = []) =>
    new Promise((resolve, reject) => {
      const what = `${iface}.${member} on ${destination}${path}`;
      if (!open) {
        reject(new BusCallError(`D-Bus connection to ${address} is closed`, 'retrace.Disconnected'));
        return;
      }
      const serial = connected.newSerial();
      const done = (): void => {
        clearTimeout(timer);
        waiting.delete(serial);
      };
      const timer = setTimeout(() => fail(new BusCallError(`${what}: no answer in ${timeoutMs} ms`, 'retrace.Timeout')), timeoutMs);
      const fail = (error: Error): void => {
        done();
        reject(error);
      };
      waiting.set(serial, { resolve: (reply) => (done(), resolve(reply)), fail, what });
      cork();
      send(serial, { serial, destination, path, iface, member, signature, body });
    });

  // The first call proves the connection (authentication, hello) within the time bound.
  await call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.Peer', 'Ping');
  if (stream !== undefined) {
    // Nothing else is in flight on a fresh connection: its replies are read here from now on.
    const reader = new MessageReader();
    stream.removeAllListeners('readable');
    stream.on('readable', () => {
      for (let chunk = stream.read(); chunk !== null; chunk = stream.read()) reader.push(chunk).forEach(settle);
    });
    send = (_, message) => void stream.write(encodeCall(message));
  }
  return {
    call,
    async property(destination, path, iface, name) {
      const [value] = await call(destination, path, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [iface, name]);
      return (value as { value?: unknown } | undefined)?.value;
    },
    get open() {
      return open;
    },
    close() {
      open = false;
      bus.disconnect();
    },
  };
};

/** A D-Bus variant, for property writes. */
export const variant = (signature: string, value: unknown): unknown => new Variant(signature, value);
