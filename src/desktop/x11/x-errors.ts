/**
 * How a request on retrace's own X connection fails, in words: an X error names the error and
 * the request ("BadWindow on GetProperty"), and is a fault of that request, the display alive;
 * only a connection that ended means the display may be gone.
 */
import { InfrastructureError } from '../../errors.ts';
import type { Display } from '../types.ts';

/** A failed request: the X error code (an X error), or none (the connection's end, a timeout). */
export class XProtocolError extends Error {
  constructor(
    message: string,
    readonly xCode?: number,
  ) {
    super(message);
    this.name = 'XProtocolError';
  }
}

/** The core protocol's error codes (X11 protocol, section "Errors"). */
const ERROR_NAMES: Readonly<Record<number, string>> = {
  1: 'BadRequest',
  2: 'BadValue',
  3: 'BadWindow',
  4: 'BadPixmap',
  5: 'BadAtom',
  6: 'BadCursor',
  7: 'BadFont',
  8: 'BadMatch',
  9: 'BadDrawable',
  10: 'BadAccess',
  11: 'BadAlloc',
  12: 'BadColormap',
  13: 'BadGContext',
  14: 'BadIDChoice',
  15: 'BadName',
  16: 'BadLength',
  17: 'BadImplementation',
};

/** "BadWindow on GetProperty": the error packet's code, for the request it answers. */
export const xErrorOf = (code: number, request: string): XProtocolError =>
  new XProtocolError(`${ERROR_NAMES[code] ?? `X error ${code}`} on ${request}`, code);

/**
 * What a failed request on `display` means for the run: an X error is that request's fault
 * (the display answers); anything else is the display's, DISPLAY_DIED once it is known gone.
 */
export const displayFailure = (display: Display, what: string, error: unknown): InfrastructureError => {
  const message = `${what} on X display ${display.name} failed: ${(error as Error)?.message ?? String(error)}`;
  if (error instanceof XProtocolError && error.xCode !== undefined) return new InfrastructureError('X_ERROR', message, { cause: error });
  display.assertAlive();
  return new InfrastructureError('DISPLAY_DIED', message, { cause: error });
};
