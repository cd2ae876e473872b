/** Settling the application's window, with the options every caller shares. */
import type { DrawReport, Frame, Region } from '../domain.ts';
import { waitForStable } from '../vision/settle.ts';
import type { Stage, Shot } from './stage.ts';

export interface SettleOptions {
  /** Give up waiting for two equal frames after this long. @default 3000 */
  readonly timeoutMs: number;
  /** Regions that change on their own (a clock), ignored when comparing frames. */
  readonly ignore: readonly Region[];
  /** How long the window must stay unchanged to count as settled. @default 30 (vision/settle) */
  readonly quietMs?: number;
  /** What the window ends on, when known (the recorded effects show): no longer quiet needed. */
  readonly ready?: (frame: Frame) => boolean;
  /** How long a frame `ready` holds for must stay unchanged (vision/settle's default when unset). */
  readonly readyQuietMs?: number;
  /** Told of each new state of the window the wait may end on (vision/settle). */
  readonly onState?: (frame: Frame) => void;
}

export interface Settled extends Shot {
  readonly settleMs: number;
  readonly stable: boolean;
  /** When not stable: the regions that kept changing at the end. */
  readonly changing?: readonly Region[];
  /** The display's reports of drawing in the window since `frame` was grabbed, when it makes them. */
  readonly drawing?: DrawReport;
}

/**
 * Waits until the window is stable. With `changeFrom`, first waits (up to `reactMs`) for the
 * screen to differ from that frame, so a slow application is not declared stable before it reacts.
 */
export async function settle(
  stage: Stage,
  options: SettleOptions,
  expect?: { readonly changeFrom: Frame; readonly reactMs: number },
): Promise<Settled> {
  const window = (await stage.window()).region;
  const drawing = await stage.drawing(window);
  const result = await waitForStable(stage.grabber(window), {
    ...(drawing && { drawing }),
    timeoutMs: options.timeoutMs,
    ignore: options.ignore,
    ...(options.quietMs !== undefined ? { quietMs: options.quietMs } : {}),
    ...(options.ready ? { ready: options.ready } : {}),
    ...(options.readyQuietMs !== undefined ? { readyQuietMs: options.readyQuietMs } : {}),
    ...(options.onState ? { onState: options.onState } : {}),
    ...(expect ? { expectChangeFrom: expect.changeFrom, reactMs: expect.reactMs } : {}),
  });
  return {
    frame: result.frame,
    window,
    settleMs: result.settleMs,
    stable: result.stable,
    changing: result.changing,
    ...(drawing && { drawing }),
  };
}
