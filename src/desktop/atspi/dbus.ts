/**
 * A D-Bus connection for the accessibility code: method calls by name, each bounded in time, on
 * a socket that never keeps this process alive. The only place that imports dbus-next.
 */
import dbus from 'dbus-next';

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

interface Connected {
  readonly _connection?: { readonly stream?: { unref?: () => void; cork?: () => void; uncork?: () => void } };
}

/** Connects to the bus at `address` (a D-Bus address such as `unix:path=/run/…/bus`). */
export const openBus = async (address: string, timeoutMs = CALL_TIMEOUT_MS): Promise<BusLink> => {
  const bus = dbus.sessionBus({ busAddress: address });
  let open = true;
  /** The calls waiting for an answer: a connection that fails fails them all at once. */
  const waiting = new Set<(error: Error) => void>();
  bus.on('error', (error: unknown) => {
    open = false;
    const failure = new BusCallError(`D-Bus connection to ${address} failed: ${(error as Error)?.message ?? error}`, 'retrace.Disconnected');
    for (const fail of [...waiting]) fail(failure);
  });
  const stream = (bus as unknown as Connected)._connection?.stream;
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

  const call: BusLink['call'] = (destination, path, iface, member, signature = '', body = []) =>
    new Promise((resolve, reject) => {
      const what = `${iface}.${member} on ${destination}${path}`;
      if (!open) {
        reject(new BusCallError(`D-Bus connection to ${address} is closed`, 'retrace.Disconnected'));
        return;
      }
      const fail = (error: Error): void => {
        clearTimeout(timer);
        waiting.delete(fail);
        reject(error);
      };
      const timer = setTimeout(() => fail(new BusCallError(`${what}: no answer in ${timeoutMs} ms`, 'retrace.Timeout')), timeoutMs);
      waiting.add(fail);
      cork();
      bus.call(new dbus.Message({ destination, path, interface: iface, member, signature, body })).then(
        (reply) => {
          clearTimeout(timer);
          waiting.delete(fail);
          resolve((reply?.body ?? []) as unknown[]);
        },
        (error: unknown) => {
          const type = (error as { type?: string }).type ?? 'org.freedesktop.DBus.Error.Failed';
          fail(new BusCallError(`${what}: ${(error as Error).message}`, type));
        },
      );
    });

  // The first call proves the connection (authentication, hello) within the time bound.
  await call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.Peer', 'Ping');
  return {
    call,
    async property(destination, path, iface, name) {
      const [variant] = await call(destination, path, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [iface, name]);
      return (variant as { value?: unknown } | undefined)?.value;
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
export const variant = (signature: string, value: unknown): unknown => new dbus.Variant(signature, value);
