/**
 * Picks the providers of a desktop once, when it opens, from what the display offers — or
 * takes the ones forced — and says why. The classes above never switch backend per call.
 *
 * - capture: the own X connection's GetImage when it reaches the display and its pixels are
 *   32-bit BGRX; else nut-js.
 * - input: XTEST over the own connection when the server has it; else nut-js for the mouse
 *   (keys through xdotool). xdotool for everything only when forced.
 * - tree: each app's own connection where it offers one (`direct`); all through the bus daemon
 *   only when forced (the per-app fallback of `direct` is the app's, not the display's).
 */
import { InfrastructureError } from '../../errors.ts';
import type { Display, ForcedProviders, ProviderChoice, ProviderChosen } from '../types.ts';
import { connectionTo, type XConnection, type XPixelFormat } from '../x11/connection.ts';
import { XTest } from '../x11/xtest.ts';
import { NutCapture } from './capture-nut.ts';
import { isBgrx, XProtocolCapture } from './capture-x.ts';
import { NutInput } from './input-nut.ts';
import { XdotoolInput } from './input-xdotool.ts';
import { XTestInput } from './input-xtest.ts';
import type { CaptureProvider, InputProvider } from './types.ts';

export interface Providers {
  readonly capture: CaptureProvider;
  readonly input: InputProvider;
  readonly choice: ProviderChoice;
}

const FORCED = 'forced';
const NO_XTEST_KEYS = 'keys through xdotool';

/** The own connection to `display`, or why there is none. */
const reach = async (connection: () => Promise<XConnection>): Promise<XConnection | string> =>
  connection().catch((error: unknown) => `no X connection of retrace's own (${(error as Error).message})`);

const pixelWords = (pixels: XPixelFormat): string =>
  `${pixels.bitsPerPixel}-bit ${pixels.byteOrder === 0 ? 'little' : 'big'}-endian pixels of depth ${pixels.depth}`;

const unusable = (display: Display, what: string, why: string): InfrastructureError =>
  new InfrastructureError('NO_DISPLAY', `${what} was forced, but on X display ${display.name} ${why}.`);

const chooseCapture = async (display: Display, forced: ForcedProviders['capture']): Promise<[CaptureProvider, string]> => {
  if (forced === 'nut-js') return [new NutCapture(display), FORCED];
  const connection = connectionTo(display.name, display.env);
  const x = await reach(connection);
  const unfit = typeof x === 'string' ? x : isBgrx(x.pixels) ? undefined : `${pixelWords(x.pixels)}, not 32-bit BGRX`;
  if (unfit === undefined)
    return [new XProtocolCapture(display, connection), forced === undefined ? 'own X connection, 32-bit BGRX pixels' : FORCED];
  if (typeof x !== 'string') x.close();
  if (forced === 'x-protocol') throw unusable(display, 'Capture through the X protocol', unfit);
  return [new NutCapture(display, typeof x === 'string' ? undefined : x.pixels.masks), `${unfit} → nut-js`];
};

const chooseInput = async (display: Display, forced: ForcedProviders['input']): Promise<[InputProvider, string]> => {
  if (forced === 'nut-js') return [new NutInput(display), `${FORCED}; ${NO_XTEST_KEYS}`];
  if (forced === 'xdotool') return [new XdotoolInput(display), FORCED];
  const connection = connectionTo(display.name, display.env);
  const x = await reach(connection);
  const xtest = typeof x === 'string' ? undefined : await XTest.open(x).catch(() => undefined);
  if (xtest !== undefined)
    return [new XTestInput(display, connection, xtest), forced === undefined ? 'XTEST on the own X connection' : FORCED];
  const why = typeof x === 'string' ? x : 'XTEST missing';
  if (typeof x !== 'string') x.close();
  if (forced === 'xtest') throw unusable(display, 'Input through XTEST', why);
  return [new NutInput(display), `${why} → nut-js; ${NO_XTEST_KEYS}`];
};

export const chooseProviders = async (display: Display, forced: ForcedProviders = {}): Promise<Providers> => {
  const [[capture, captureWhy], [input, inputWhy]] = await Promise.all([
    chooseCapture(display, forced.capture),
    chooseInput(display, forced.input),
  ]);
  const tree: ProviderChosen<'direct' | 'bus'> | undefined =
    display.sessionBus === undefined
      ? undefined
      : forced.tree !== undefined
        ? { name: forced.tree, reason: FORCED }
        : { name: 'direct', reason: "each app's own connection where it offers one (GTK, Chromium), the bus for the rest" };
  return {
    capture,
    input,
    choice: {
      capture: { name: capture.name, reason: captureWhy },
      input: { name: input.name, reason: inputWhy },
      ...(tree !== undefined && { tree }),
    },
  };
};

/** One line for --verbose and doctor: "capture x-protocol (…) · input xtest (…) · tree direct (…)". */
export const describeProviders = (choice: ProviderChoice): string =>
  (['capture', 'input', 'tree'] as const)
    .flatMap((kind) => {
      const chosen = choice[kind];
      return chosen === undefined ? [] : [`${kind} ${chosen.name} (${chosen.reason})`];
    })
    .join(' · ');
