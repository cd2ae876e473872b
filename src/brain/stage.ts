/**
 * The stage: one running application on one desktop, as the brain sees it. Every wait and
 * every capture is raced against the app exiting and the display dying, so a crash ends the
 * goal at once as broken instead of after a timeout.
 */
import type { Frame, Region } from '../domain.ts';
import type { AppSession, Desktop, WindowInfo } from '../desktop/types.ts';
import type { TextReader } from '../vision/types.ts';
import { InfrastructureError } from '../errors.ts';
import { setTimeout as delay } from 'node:timers/promises';

/** How long a failed operation waits to learn whether the app died under it. */
const EXIT_GRACE_MS = 300;

export interface Shot {
  readonly frame: Frame;
  /** Screen-absolute region of the window when it was captured. */
  readonly window: Region;
}

export class Stage {
  private readonly fault: Promise<never>;

  constructor(
    readonly desktop: Desktop,
    readonly app: AppSession,
    readonly reader: TextReader,
  ) {
    this.fault = Promise.race([
      app.exited.then((exit) => {
        const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
        const tail = exit.stderrTail.trim();
        throw new InfrastructureError(
          'APP_EXITED',
          `The application ${how} during the goal.${tail ? `\nLast lines of its stderr:\n${tail}` : ''}`,
        );
      }),
      desktop.display.died.then(() => {
        throw new InfrastructureError('DISPLAY_DIED', `The X server ${desktop.display.name} died.`);
      }),
    ]);
    // The race is observed by every guarded call; this keeps an unobserved rejection quiet.
    this.fault.catch(() => undefined);
  }

  /**
   * Runs `work`, failing at once if the app exits or the display dies meanwhile. When `work`
   * fails first (its window vanished, an X call failed), the app may be dying: its exit, if it
   * comes within a moment, is the real story and is reported instead.
   */
  async guard<T>(work: Promise<T>): Promise<T> {
    try {
      return await Promise.race([work, this.fault]);
    } catch (error) {
      const fault = await Promise.race([
        this.fault.then(() => undefined, (reason: unknown) => reason),
        delay(EXIT_GRACE_MS).then(() => undefined),
      ]);
      throw fault ?? error;
    }
  }

  async window(): Promise<WindowInfo> {
    return this.guard(this.app.window());
  }

  /** Captures the app's main window. */
  async shoot(): Promise<Shot> {
    const info = await this.window();
    const frame = await this.guard(this.desktop.capture.grab(info.region));
    return { frame, window: info.region };
  }

  /** A capture function of a fixed window region, for settle polling. */
  grabber(window: Region): () => Promise<Frame> {
    return () => this.guard(this.desktop.capture.grab(window));
  }
}
