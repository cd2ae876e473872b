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

interface Connected {
  readonly _connection?: { readonly stream?: { unref?: () => void; cork?: () => void; uncork?: () => void } };
}

/** Connects to the bus at `address` (a D-Bus address such as `unix:path=/run/…/bus`). */
export const openBus = async (address: string, timeoutMs = CALL_TIMEOUT_MS): Promise<BusLink> => {
  const bus = dbus.sessionBus({ busAddress: address });
  let open = true;
  const failure = new Promise<never>((_, reject) => {
    bus.on('error', (error: unknown) => {
      open = false;
      reject(new BusCallError(`D-Bus connection to ${address} failed: ${(error as Error)?.message ?? error}`, 'retrace.Disconnected'));
    });
  });
  failure.catch(() => undefined);
  (bus as unknown as Connected)._connection?.stream?.unref?.();

  const bounded = <T>(work: Promise<T>, what: string): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new BusCallError(`${what}: no answer in ${timeoutMs} ms`, 'retrace.Timeout')), timeoutMs);
    });
    return Promise.race([work, late, failure]).finally(() => clearTimeout(timer));
  };

  const call: BusLink['call'] = async (destination, path, iface, member, signature = '', body = []) => {
    if (!open) throw new BusCallError(`D-Bus connection to ${address} is closed`, 'retrace.Disconnected');
    try {
      const reply = await bounded(
        bus.call(new dbus.Message({ destination, path, interface: iface, member, signature, body })),
        `${iface}.${member}`,
      );
      return (reply?.body ?? []) as unknown[];
    } catch (error) {
      if (error instanceof BusCallError) throw error;
      const type = (error as { type?: string }).type ?? 'org.freedesktop.DBus.Error.Failed';
      throw new BusCallError(`${iface}.${member} on ${destination}${path}: ${(error as Error).message}`, type);
    }
  };

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
