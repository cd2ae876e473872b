/**
 * What the main process hands every worker: the resolved options of the run. Vitest carries it
 * across the process boundary with `provide`/`inject`, so it is plain JSON.
 */
import type { ResolvedOptions } from '../spec-file/defaults.ts';
import type { CliOptions } from '../spec-file/options.ts';

export type Verbosity = 'quiet' | 'normal' | 'verbose';

export interface RunContext {
  /** Absolute project root; spec ids and default directories are relative to it. */
  readonly root: string;
  /** Run-wide options: CLI > config file > defaults. A spec's `options:` is merged per spec. */
  readonly options: ResolvedOptions;
  /** The CLI's own layer, so each spec can be merged under it. */
  readonly cli: CliOptions;
  /** Absolute `fixtures/baselines`. */
  readonly baselinesDir: string;
  readonly runId: string;
  /** When the command started (epoch ms): the first goal of each worker counts its start from here. */
  readonly startedAt: number;
  /**
   * Each worker runs on a virtual display of its own instead of sharing `$DISPLAY`: the one handed
   * over in `displays`, or, when none could be, one it starts.
   */
  readonly ownDisplays: boolean;
  /**
   * The displays the main process opens for the workers, one per worker, as the files it hands
   * each over in (display-handoff.ts): worker i (vitest pool id, 1-based) runs on the i-th, which a
   * live view serves as its screen i.
   */
  readonly displays?: readonly string[];
  /**
   * Every file of the run is a spec (`retrace run`): a worker opens its display as soon as it
   * starts, while it loads the spec module, instead of after. Off where ordinary test files may
   * share the run (a project's own vitest config), which must start no display.
   */
  readonly eagerDisplay?: boolean;
  /** Leave the app and its display running after a failed goal. */
  readonly keepOpen: boolean;
  readonly verbosity: Verbosity;
  /** Progress goes to a terminal: one line updated in place. */
  readonly tty: boolean;
  /** Goal ids to run (`--goal`); empty means all. */
  readonly goals: readonly string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    retrace: RunContext;
  }
}
