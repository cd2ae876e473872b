/**
 * Launching or attaching the application a goal runs against. With `restart: goal` every goal
 * gets a fresh app; with `restart: spec` the goals of a spec share one, relaunched only when it
 * exited. A stage is the app plus the desktop, bound to the goal's abort signal.
 */
import { InfrastructureError } from '../errors.ts';
import type { Spec } from '../spec-file/types.ts';
import { interpolate, describeForDisplay } from '../spec-file/interpolate.ts';
import type { AppConfig, AppSession, Desktop } from '../desktop/types.ts';
import type { TextReader } from '../vision/types.ts';
import { Stage } from '../brain/stage.ts';
import type { ResolvedOptions } from '../spec-file/defaults.ts';
import type { GoalClock } from './goal-clock.ts';

const X_REFUSED = /Missing X server|cannot open display|Can't open display/i;

/** The app of a `restart: spec` suite, shared by its goals. */
export interface SharedApp {
  get(): AppSession | undefined;
  set(app: AppSession): void;
  /** Leave it running at the end (--keep-open after a failure). */
  keep(): void;
}

export interface GoalAppInput {
  readonly spec: Spec;
  readonly options: ResolvedOptions;
  readonly root: string;
  readonly desktop: Desktop;
  readonly reader: TextReader;
  readonly shared: SharedApp;
  /** Counts the launch in the goal's time split (a run's goal; recording has none). */
  readonly clock?: GoalClock;
  /** Says what is happening (launching, relaunching). */
  readonly say: { status(text: string): void; warn(text: string): void };
}

const resolveText = (template: string): string => interpolate(template, process.env);

/** The spec's `app:` with its `${env.X}` values resolved. */
export function appConfigOf(spec: Spec, options: ResolvedOptions, root: string): AppConfig {
  return {
    launch: resolveText(spec.app.launch),
    window: resolveText(spec.app.window),
    ...(spec.app.size ? { size: spec.app.size } : {}),
    env: Object.fromEntries(Object.entries(spec.app.env).map(([k, v]) => [k, resolveText(v)])),
    cwd: spec.app.cwd ?? root,
    ...(spec.app.setup ? { setup: spec.app.setup } : {}),
    ...(spec.app.teardown ? { teardown: spec.app.teardown } : {}),
    windowTimeoutMs: spec.app.windowTimeoutMs ?? options.timeouts.windowMs,
    animations: spec.app.animations,
    accessibility: spec.app.accessibility,
    isolate: spec.app.isolate,
  };
}

export class GoalApp {
  private app: AppSession | undefined;
  private readonly perGoal: boolean;
  private readonly config: AppConfig;

  constructor(private readonly input: GoalAppInput) {
    this.perGoal = input.spec.app.restart === 'goal';
    this.config = appConfigOf(input.spec, input.options, input.root);
  }

  /** The app the goal last ran against, if any. */
  get current(): AppSession | undefined {
    return this.app;
  }

  /** A stage factory for the goal: the app ready and focused, bound to `signal`. */
  stages(signal: AbortSignal): (fresh: boolean) => Promise<Stage> {
    return async (fresh) => {
      let current = this.perGoal ? this.app : this.input.shared.get();
      if (current && (fresh || current.exitInfo())) {
        await current.close();
        current = undefined;
      }
      if (!current) {
        current = await (this.input.clock ? this.input.clock.launch(() => this.launch()) : this.launch());
        if (!this.perGoal) this.input.shared.set(current);
      }
      this.app = current;
      await current.focus();
      return new Stage(this.input.desktop, current, this.input.reader, signal);
    };
  }

  /** Ends the goal's app (a shared one lives on), or keeps it for a look (`--keep-open`). */
  async end(keep: boolean): Promise<void> {
    if (keep) {
      this.input.shared.keep();
      this.app?.release();
    } else if (this.perGoal) {
      await this.app?.close();
    }
  }

  private async launch(): Promise<AppSession> {
    const { desktop, spec, say } = this.input;
    say.status(`launching ${describeForDisplay(spec.app.launch)}`);
    try {
      return await desktop.launch(this.config);
    } catch (error) {
      // Under load an X server can refuse a client's first connection; the app then dies at
      // start. That is the display's hiccup, not the app's fault: one more try tells them apart.
      if (!(error instanceof InfrastructureError) || !X_REFUSED.test(error.message)) throw error;
      say.warn('the app could not connect to the display at start; launching it again');
      return desktop.launch(this.config);
    }
  }
}
