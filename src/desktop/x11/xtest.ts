/**
 * Input made by the XTEST extension over retrace's own X connection: keys, buttons and pointer
 * moves that the server handles as if a device had sent them. No process and no native library
 * per action: starting xdotool costs ~20 ms, and libnut (Xlib) takes ~180 ms to load on a
 * process's first click and ends the whole process when the server dies during a call.
 */
import type { XConnection, XExtension } from './connection.ts';

const FAKE_INPUT = 2;
const TYPE = { keyPress: 2, keyRelease: 3, buttonPress: 4, buttonRelease: 5, motion: 6 } as const;

/** One input event: a key (by keycode) or a button (1 left, 2 middle, 3 right, 4–7 the wheel) going down or up, or the pointer moving to a point of the root window. */
export type FakeEvent =
  | { readonly kind: 'key' | 'button'; readonly down: boolean; readonly code: number }
  | { readonly kind: 'motion'; readonly x: number; readonly y: number };

export class XTest {
  private constructor(
    readonly x: XConnection,
    private readonly extension: XExtension,
  ) {}

  /** XTEST on the display `x` is connected to; undefined when the server lacks it. */
  static async open(x: XConnection): Promise<XTest | undefined> {
    const extension = await x.extension('XTEST');
    return extension ? new XTest(x, extension) : undefined;
  }

  /** Sends `events` in order, in one write; resolves once the server has handled them all. */
  send(events: readonly FakeEvent[]): Promise<void> {
    return this.x.requests(
      this.extension,
      FAKE_INPUT,
      events.map((e) => this.body(e)),
    );
  }

  /** A FakeInput request's body: type, detail, delay 0, root, and for a motion its absolute point. */
  private body(event: FakeEvent): Buffer {
    const body = Buffer.alloc(32);
    if (event.kind === 'motion') {
      body.writeUInt8(TYPE.motion, 0);
      body.writeUInt32LE(this.x.root, 8);
      body.writeInt16LE(Math.round(event.x), 20);
      body.writeInt16LE(Math.round(event.y), 22);
    } else {
      const [press, release] = event.kind === 'key' ? [TYPE.keyPress, TYPE.keyRelease] : [TYPE.buttonPress, TYPE.buttonRelease];
      body.writeUInt8(event.down ? press : release, 0);
      body.writeUInt8(event.code, 1);
    }
    return body;
  }
}
