/**
 * The accessibility bus (at-spi2) is a second D-Bus bus, found through the session bus: the
 * `org.a11y.Bus` service returns its address, and is started (activated) by the first ask.
 */
import { openBus, variant, type BusLink } from './dbus.ts';

const A11Y_SERVICE = 'org.a11y.Bus';
const A11Y_PATH = '/org/a11y/bus';

/** The accessibility bus address, asked of the session bus (activating the launcher if needed). */
export const accessibilityBusAddress = async (session: BusLink): Promise<string> => {
  const [address] = await session.call(A11Y_SERVICE, A11Y_PATH, 'org.a11y.Bus', 'GetAddress');
  if (typeof address !== 'string' || address === '') throw new Error('org.a11y.Bus returned no address');
  return address;
};

/**
 * Starts the accessibility bus of a session retrace owns and switches accessibility on
 * (org.a11y.Status.IsEnabled), which Qt and Chromium read to publish their widgets.
 */
export const enableAccessibility = async (sessionAddress: string, timeoutMs: number): Promise<void> => {
  const session = await openBus(sessionAddress, timeoutMs);
  try {
    await accessibilityBusAddress(session);
    await session.call(A11Y_SERVICE, A11Y_PATH, 'org.freedesktop.DBus.Properties', 'Set', 'ssv', [
      'org.a11y.Status',
      'IsEnabled',
      variant('b', true),
    ]);
  } finally {
    session.close();
  }
};

/**
 * What an app needs in its environment to publish its widgets, or not to. On: Chromium and
 * Electron (ACCESSIBILITY_ENABLED) and Qt 5 (QT_LINUX_ACCESSIBILITY_ALWAYS_ON) publish without a
 * screen reader running; GTK always does. Off: GTK does not even load its bridge.
 */
export const accessibilityEnv = (enabled: boolean): Readonly<Record<string, string>> =>
  enabled ? { ACCESSIBILITY_ENABLED: '1', QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1' } : { NO_AT_BRIDGE: '1' };
