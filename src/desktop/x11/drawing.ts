/**
 * Drawing on the screen, as the X server reports it: the DAMAGE extension on the root window,
 * where drawing into any window shows, one event per drawing (raw rectangles, in screen
 * coordinates). A wait for a window to settle then grabs a frame when something was drawn in
 * it, instead of polling every 10 ms (vision/settle.ts); the frames still decide what changed.
 *
 * On its own X connection: a busy screen sends many events, which must not delay the replies
 * that window queries wait for.
 */
import type { DrawReport, Region } from '../../domain.ts';
import { XConnection, type XEnv, type XExtension } from './connection.ts';

const DAMAGE = { queryVersion: 0, create: 1 } as const;
const LEVEL_RAW_RECTANGLES = 0;
/** Drawings remembered; a mark older than these counts as drawn since (a look costs one grab). */
const REMEMBERED = 512;

interface Drawn {
  readonly seq: number;
  readonly area: Region;
}

interface Waiter {
  readonly region: Region;
  readonly wake: () => void;
}

const meets = (a: Region, b: Region): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

export class DrawingWatch {
  private seq = 0;
  private readonly recent: Drawn[] = [];
  private readonly waiters = new Set<Waiter>();
  private ended = false;

  private constructor(
    private readonly x: XConnection,
    damageEvent: number,
  ) {
    x.onEvent = (code, event) => {
      if (code === damageEvent)
        this.drew({ x: event.readInt16LE(16), y: event.readInt16LE(18), width: event.readUInt16LE(20), height: event.readUInt16LE(22) });
    };
    void x.closed.then(() => {
      this.ended = true;
      for (const waiter of this.waiters) waiter.wake();
    });
  }

  /** Watches the local display `display`; undefined where it cannot (remote, no DAMAGE). */
  static async open(display: string, env: XEnv): Promise<DrawingWatch | undefined> {
    let x: XConnection | undefined;
    try {
      x = await XConnection.open(display, env);
      const damage = await x.extension('DAMAGE');
      if (!damage) {
        x.close();
        return undefined;
      }
      const version = Buffer.alloc(8);
      version.writeUInt32LE(1, 0);
      version.writeUInt32LE(1, 4);
      await x.request(damage, DAMAGE.queryVersion, version, true);
      const watch = new DrawingWatch(x, damage.firstEvent);
      await watch.create(damage);
      return watch;
    } catch {
      x?.close();
      return undefined;
    }
  }

  private async create(damage: XExtension): Promise<void> {
    const body = Buffer.alloc(12);
    body.writeUInt32LE(this.x.newId(), 0);
    body.writeUInt32LE(this.x.root, 4);
    body.writeUInt8(LEVEL_RAW_RECTANGLES, 8);
    await this.x.request(damage, DAMAGE.create, body, false);
  }

  /** Whether its connection is still up: an ended watch knows nothing. */
  get alive(): boolean {
    return !this.ended;
  }

  /** Reports of drawing in `region` (screen coordinates). */
  report(region: Region): DrawReport {
    let marked = this.seq;
    return {
      mark: () => {
        marked = this.seq;
      },
      drawn: (until) => this.drawnSince(marked, region, until),
    };
  }

  close(): void {
    this.x.close();
  }

  private drew(area: Region): void {
    this.seq++;
    this.recent.push({ seq: this.seq, area });
    if (this.recent.length > REMEMBERED) this.recent.shift();
    for (const waiter of this.waiters) if (meets(waiter.region, area)) waiter.wake();
  }

  private drewSince(marked: number, region: Region): boolean {
    const oldest = this.recent[0]?.seq ?? this.seq + 1;
    if (oldest > marked + 1 && this.seq > marked) return true;
    return this.recent.some((d) => d.seq > marked && meets(d.area, region));
  }

  /** A watch whose connection ended knows nothing: every wait says "look". */
  private drawnSince(marked: number, region: Region, until: number): Promise<boolean> {
    if (this.ended || this.drewSince(marked, region)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (drawn: boolean): void => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(drawn);
      };
      const waiter: Waiter = { region, wake: () => finish(true) };
      // "Nothing" is said only after a round trip: the reports of all the server drew before it
      // answered are ahead of its answer, where a report still on its way would be missed.
      const last = (): void => {
        this.x.sync().then(
          () => finish(this.drewSince(marked, region)),
          () => finish(true),
        );
      };
      const timer = setTimeout(last, Math.max(0, until - performance.now()));
      this.waiters.add(waiter);
    });
  }
}
