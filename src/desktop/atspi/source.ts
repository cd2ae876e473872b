/**
 * The element source of a display: the app under test's widgets, read over the accessibility
 * bus (AT-SPI). The bus is reached through the display's session bus; the app is told apart
 * from others on the bus by its process (the app's own, or one of its descendants').
 */
import type { Region } from '../../domain.ts';
import { matchElements, withLayoutLabels } from '../element-query.ts';
import { appProcesses } from '../process-tree.ts';
import type {
  AppSession,
  Element,
  ElementQuery,
  ElementReadOptions,
  ElementSource,
  ElementSourceStatus,
  TreeProviderName,
} from '../types.ts';
import { accessibilityBusAddress } from './a11y-bus.ts';
import { openBus, openPeer, type BusLink } from './dbus.ts';
import {
  effectiveStates,
  onceNamed,
  readAppTree,
  readExtras,
  relationTargets,
  ROOT_PATH,
  showingFromVisible,
  splitRef,
  TreeReadError,
  type RawElement,
  type RawExtras,
} from './read-tree.ts';
import { hasState, RELATION_LABEL_FOR, retraceRole, STATE, toolkitRoleName } from './roles.ts';

const REGISTRY = 'org.a11y.atspi.Registry';

/**
 * Registering any event listener makes GTK's bridge build its cache (one call for the whole
 * tree); focus changes are the cheapest event to ask for.
 */
const LISTENED_EVENT = 'object:state-changed:focused';

interface Connection {
  readonly link: BusLink;
  readonly address: string;
}

/** Calls to `bus` over the app's own connection while it is open, all others over the bus. */
const through = (link: BusLink, bus: string, peer: BusLink | undefined): BusLink =>
  peer === undefined
    ? link
    : {
        call: (destination, ...rest) => (destination === bus && peer.open ? peer : link).call(destination, ...rest),
        property: (destination, ...rest) => (destination === bus && peer.open ? peer : link).property(destination, ...rest),
        get open() {
          return link.open;
        },
        close: () => link.close(),
      };

export class AtspiElementSource implements ElementSource {
  private connection: Promise<Connection> | undefined;
  /** Unique bus names are never reused while a bus lives: their pids can be kept. */
  private readonly pids = new Map<string, number>();
  /** The bus names the app was last found on. */
  private readonly buses = new WeakMap<AppSession, readonly string[]>();
  /** Each app's device pixels per unit of its published boxes, as its last read found it. */
  private readonly scales = new WeakMap<AppSession, Units>();
  /** Each app's own connection, by its bus name, where it offers one (GTK and Chromium do). */
  private readonly peers = new Map<string, Promise<BusLink | undefined>>();

  /**
   * `tree`: `direct` reads each app over its own connection where it offers one, `bus` every
   * call through the bus daemon (chosen once, providers/choose.ts).
   */
  constructor(
    private readonly sessionBus: string,
    private readonly tree: TreeProviderName = 'direct',
  ) {}

  async read(app: AppSession, options: ElementReadOptions = {}): Promise<readonly Element[]> {
    const [{ link }, window] = await Promise.all([this.connect(), this.windowOf(app, options)]);
    // A tree that could not be read whole says why. A read that failed otherwise is no elements
    // only when the app has left the bus mid-read; while it is still there the read is tried
    // again, and a second failure is the read's failure, never "the app publishes nothing".
    const readOnce = async (bus: string) => readAppTree(through(link, bus, await this.peerOf(link, bus)), bus);
    const tree = async (bus: string) => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await readOnce(bus);
        } catch (error) {
          if (error instanceof TreeReadError) throw error;
          if (!(await onBus(link, bus))) return undefined;
          if (attempt > 0) throw new TreeReadError(`the app's tree could not be read: ${(error as Error).message}`);
        }
      }
    };
    // The app's buses seldom change: their trees are asked while the registry is, not after it.
    const early = new Map((this.buses.get(app) ?? []).map((bus) => [bus, tree(bus)]));
    // One the app no longer uses is not awaited: its failure must not go unhandled.
    for (const read of early.values()) read.catch(() => undefined);
    const buses = await this.appBuses(link, app);
    this.buses.set(app, buses);
    const trees = await Promise.all(buses.map((bus) => early.get(bus) ?? tree(bus)));
    const raws = trees.flatMap((tree) => tree?.elements ?? []);
    const extras = new Map(trees.flatMap((tree) => [...(tree?.extras ?? [])]));
    const units = deviceScale(raws, window);
    this.scales.set(app, units);
    return withLayoutLabels(
      inTreeOrder(raws).map(({ raw, index, depth }) => toElement(raw, extras.get(raw.ref), window, index, depth, scaleOf(units, raw.ref))),
    );
  }

  async find(app: AppSession, query: ElementQuery, options: ElementReadOptions = {}): Promise<readonly Element[]> {
    return matchElements(await this.read(app, options), query);
  }

  async refresh(app: AppSession, element: Element, options: ElementReadOptions = {}): Promise<Element | undefined> {
    const [{ link: busLink }, window] = await Promise.all([this.connect(), this.windowOf(app, options)]);
    const [bus, path] = splitRef(element.ref);
    const link = through(busLink, bus, await this.peerOf(busLink, bus));
    const accessible = 'org.a11y.atspi.Accessible';
    const [name, description, states, box, fromVisible] = await Promise.all([
      link.property(bus, path, accessible, 'Name'),
      link.property(bus, path, accessible, 'Description'),
      link.call(bus, path, accessible, 'GetState'),
      link.call(bus, path, 'org.a11y.atspi.Component', 'GetExtents', 'u', [0]),
      showingFromVisible(link, bus),
    ]).catch(() => []);
    const stateSet = effectiveStates((states?.[0] as number[] | undefined) ?? [], fromVisible === true);
    if (name === undefined || !hasState(stateSet, STATE.showing)) return undefined;
    const [x = 0, y = 0, width = 0, height = 0] = (box?.[0] as number[] | undefined) ?? [];
    const raw: RawElement = {
      ref: element.ref,
      bus,
      path,
      parent: element.parent,
      order: element.index,
      role: roleNumber(element),
      name: onceNamed(String(name), fromVisible === true),
      description: String(description ?? ''),
      states: stateSet,
      screenBox: { x, y, width, height },
    };
    const extras = (await readExtras(link, [raw])).get(raw.ref);
    const fresh = toElement(raw, extras, window, element.index, element.depth, scaleOf(this.scales.get(app) ?? { scale: 1 }, raw.ref));
    // A label found by layout stays what it was: re-deriving it needs the whole tree.
    return fresh.label === undefined && element.label !== undefined ? { ...fresh, label: element.label } : fresh;
  }

  async labelTargets(_app: AppSession, label: Element): Promise<readonly string[]> {
    const { link: busLink } = await this.connect();
    const [bus, path] = splitRef(label.ref);
    const link = through(busLink, bus, await this.peerOf(busLink, bus));
    const reply = await link.call(bus, path, 'org.a11y.atspi.Accessible', 'GetRelationSet').catch(() => undefined);
    return relationTargets(reply, RELATION_LABEL_FOR);
  }

  async status(): Promise<ElementSourceStatus> {
    try {
      const { link, address } = await this.connect();
      const [apps] = await link.call(REGISTRY, ROOT_PATH, 'org.a11y.atspi.Accessible', 'GetChildren');
      return { up: true, address, apps: ((apps as unknown[] | undefined) ?? []).length };
    } catch (error) {
      return { up: false, reason: (error as Error).message };
    }
  }

  close(): void {
    const connection = this.connection;
    this.connection = undefined;
    for (const peer of this.peers.values()) void peer.then((link) => link?.close());
    this.peers.clear();
    void connection?.then(
      ({ link }) => link.close(),
      () => undefined,
    );
  }

  private connect(): Promise<Connection> {
    const current = this.connection;
    if (current !== undefined) {
      return current.then((c) => {
        if (c.link.open) return c;
        if (this.connection === current) this.connection = undefined;
        return this.connect();
      });
    }
    const opening = (async () => {
      const session = await openBus(this.sessionBus);
      let address: string;
      try {
        address = await accessibilityBusAddress(session);
      } finally {
        session.close();
      }
      const link = await openBus(address);
      await link.call(REGISTRY, '/org/a11y/atspi/registry', 'org.a11y.atspi.Registry', 'RegisterEvent', 's', [LISTENED_EVENT]);
      return { link, address };
    })();
    this.connection = opening;
    opening.catch(() => {
      if (this.connection === opening) this.connection = undefined;
    });
    return opening;
  }

  private async windowOf(app: AppSession, options: ElementReadOptions): Promise<Region> {
    return options.window ?? (await app.window()).region;
  }

  /** The bus names of the app's processes among the apps registered on the bus. */
  private async appBuses(link: BusLink, app: AppSession): Promise<string[]> {
    const [children] = await link.call(REGISTRY, ROOT_PATH, 'org.a11y.atspi.Accessible', 'GetChildren');
    const buses = ((children as Array<[string, string]> | undefined) ?? []).map(([bus]) => bus);
    const pids = await Promise.all(buses.map((bus) => this.pidOf(link, bus)));
    if (pids.includes(app.pid)) return buses.filter((_, i) => pids[i] === app.pid);
    const family = await appProcesses(app.pid);
    return buses.filter((_, i) => family.has(pids[i] ?? -1));
  }

  /**
   * The app's own connection: calls over it skip the bus daemon, which otherwise passes on every
   * call and reply of a read. None (the bus serves) where the app offers none (Qt) or it closed.
   */
  private async peerOf(link: BusLink, bus: string): Promise<BusLink | undefined> {
    if (this.tree === 'bus') return undefined;
    let peer = this.peers.get(bus);
    if (peer === undefined) {
      peer = link
        .call(bus, ROOT_PATH, 'org.a11y.atspi.Application', 'GetApplicationBusAddress')
        .then(([address]) => (typeof address === 'string' && address !== '' ? openPeer(address) : undefined))
        .catch(() => undefined);
      this.peers.set(bus, peer);
    }
    return peer;
  }

  private async pidOf(link: BusLink, bus: string): Promise<number | undefined> {
    const known = this.pids.get(bus);
    if (known !== undefined) return known;
    try {
      const [pid] = await link.call(
        'org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus',
        'GetConnectionUnixProcessID',
        's',
        [bus],
      );
      this.pids.set(bus, Number(pid));
      return Number(pid);
    } catch {
      return undefined;
    }
  }
}

/** Whether `bus` (a unique name) is still connected: an app that left it publishes nothing there. */
const onBus = async (link: BusLink, bus: string): Promise<boolean> => {
  const [owned] = await link.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'NameHasOwner', 's', [bus]);
  return owned === true;
};

/** Parents before children, siblings in the toolkit's order; with each one's place among its siblings. */
const inTreeOrder = (raws: readonly RawElement[]): Array<{ raw: RawElement; index: number; depth: number }> => {
  const children = new Map<string | undefined, RawElement[]>();
  for (const raw of raws) {
    const siblings = children.get(raw.parent);
    if (siblings === undefined) children.set(raw.parent, [raw]);
    else siblings.push(raw);
  }
  const ordered: Array<{ raw: RawElement; index: number; depth: number }> = [];
  const visit = (parent: string | undefined, depth: number): void => {
    const siblings = (children.get(parent) ?? []).sort((a, b) => a.order - b.order);
    siblings.forEach((raw, index) => {
      ordered.push({ raw, index, depth });
      visit(raw.ref, depth + 1);
    });
  };
  visit(undefined, 0);
  return ordered;
};

/**
 * Device pixels per unit of the boxes an app publishes. GTK under GDK_SCALE and Qt under
 * QT_SCALE_FACTOR publish logical units (half the pixels at scale 2). Told by the app's
 * top-level element that is the window: its box, scaled, is the window's geometry. Chromium
 * publishes its frame in logical units but the page in pixels: a box wider than that frame
 * says the units are pixels already — and the frame alone is scaled, or, left at half the
 * window, it would clip away every element of the page's right and lower half (`onScreen`).
 * 1 when no top-level element matches at any scale.
 */
const deviceScale = (raws: readonly RawElement[], window: Region): Units => {
  for (const raw of raws) {
    const box = raw.screenBox;
    if (raw.parent !== undefined || box.width <= 0 || box.height <= 0 || box.width >= window.width) continue;
    const scale = window.width / box.width;
    const near = (units: number, pixels: number): boolean => Math.abs(units * scale - pixels) <= scale + 1;
    if (!near(box.height, window.height) || !near(box.x, window.x) || !near(box.y, window.y)) continue;
    const byRef = new Map(raws.map((r) => [r.ref, r]));
    const pixels = raws.some((other) => other.screenBox.width > box.width + 2 && !insideNothing(other, byRef));
    return pixels ? { scale: 1, frame: { ref: raw.ref, scale } } : { scale };
  }
  return { scale: 1 };
};

/** Device pixels per unit of an app's boxes, and of its frame where that alone is in other units. */
interface Units {
  readonly scale: number;
  readonly frame?: { readonly ref: string; readonly scale: number };
}

const scaleOf = (units: Units, ref: string): number => (units.frame?.ref === ref ? units.frame.scale : units.scale);

/**
 * Below an element with no area: Qt's closed combo list (0 × 0) publishes its items at a width
 * of their own, which says nothing about the units of the boxes on screen.
 */
const insideNothing = (raw: RawElement, byRef: ReadonlyMap<string, RawElement>): boolean => {
  for (
    let up = raw.parent === undefined ? undefined : byRef.get(raw.parent);
    up;
    up = up.parent === undefined ? undefined : byRef.get(up.parent)
  )
    if (up.screenBox.width <= 0 || up.screenBox.height <= 0) return true;
  return false;
};

const toElement = (
  raw: RawElement,
  extras: RawExtras | undefined,
  window: Region,
  index: number,
  depth: number,
  scale: number,
): Element => {
  const toolkitRole = toolkitRoleName(raw.role);
  const role = retraceRole(toolkitRole, raw.states);
  const state = (bit: number): boolean => hasState(raw.states, bit);
  return {
    ref: raw.ref,
    role,
    toolkitRole,
    name: raw.name,
    description: raw.description,
    ...(extras?.labelledBy !== undefined && { label: extras.labelledBy.join(' ') }),
    states: {
      focused: state(STATE.focused),
      checked: state(STATE.checked) || (toolkitRole === 'toggle button' && state(STATE.pressed)),
      sensitive: state(STATE.sensitive),
      showing: state(STATE.showing),
      editable: state(STATE.editable),
      selected: state(STATE.selected),
      expanded: state(STATE.expanded),
    },
    ...(extras?.text !== undefined && { text: extras.text }),
    ...(extras?.value !== undefined && { value: extras.value }),
    box: scaled(raw.screenBox, scale, window),
    ...(raw.parent !== undefined && { parent: raw.parent }),
    index,
    depth,
  };
};

/** A published box in the window's pixels. */
const scaled = (box: Region, scale: number, window: Region): Region => {
  if (scale === 1) return { ...box, x: box.x - window.x, y: box.y - window.y };
  const x = Math.round(box.x * scale);
  const y = Math.round(box.y * scale);
  return {
    x: x - window.x,
    y: y - window.y,
    width: Math.round((box.x + box.width) * scale) - x,
    height: Math.round((box.y + box.height) * scale) - y,
  };
};

/** The toolkit role's number, for an element read again. */
const roleNumber = (element: Element): number => {
  for (let n = 0; n < 200; n++) if (toolkitRoleName(n) === element.toolkitRole) return n;
  return 0;
};
