/**
 * Where a goal's time goes (summary.json `phases`) and where the run's start-up went (`startup`).
 * The goal tells its clock what happens as it happens (the app launching, the first action, the
 * expectations judged); the clock turns those moments into the split. Moments are epoch ms
 * (Date.now()), so the worker's marks and the main process's line up.
 */
import type { GoalPhases, RunStartup } from '../domain.ts';

const KEY = Symbol.for('retrace.worker-clock');

/** What a worker remembers between its goals (test files share the process: isolate is off). */
interface WorkerMarks {
  /** When the worker's previous goal ended, report included. */
  lastEnd?: number;
  /** When the worker began and finished opening its display, once. */
  display?: { readonly from: number; readonly to: number };
  /** When the worker's first goal started. */
  firstGoal?: number;
}

/** A worker's display opening, and when its first goal started after it (epoch ms). */
export interface DisplayOpening {
  readonly from: number;
  readonly to: number;
  readonly goal?: number;
}

const worker = (): WorkerMarks => ((globalThis as { [KEY]?: WorkerMarks })[KEY] ??= {});

/** Notes the worker's display opening, the first time only (later goals reuse it). */
export function noteDisplayOpening(from: number, to: number): void {
  worker().display ??= { from, to };
}

/** The worker's display opening and its first goal's start, for the run's start-up split. */
export const displayOpening = (): DisplayOpening | undefined => {
  const { display, firstGoal } = worker();
  return display && { ...display, ...(firstGoal !== undefined && { goal: firstGoal }) };
};

export class GoalClock {
  private launchMs = 0;
  private firstAction: number | undefined;
  private checking: number | undefined;
  private judgeMs = 0;
  private ended: number | undefined;

  /**
   * @param runStart when the command started (the first goal of a worker counts from there)
   * @param started when the goal started
   */
  constructor(
    private readonly runStart: number,
    readonly started: number = Date.now(),
  ) {
    worker().firstGoal ??= started;
  }

  /** Runs the app's launch, counting it as launch time while no action has run yet. */
  async launch<T>(work: () => Promise<T>): Promise<T> {
    const from = Date.now();
    try {
      return await work();
    } finally {
      if (this.firstAction === undefined) this.launchMs += Date.now() - from;
    }
  }

  action(): void {
    this.firstAction ??= Date.now();
  }

  /** The final check began: what follows is holding still and judging. */
  check(): void {
    this.checking ??= Date.now();
  }

  /** Time spent judging expectations during the final check (the rest of it is the hold). */
  judged(ms: number): void {
    if (this.checking !== undefined) this.judgeMs += ms;
  }

  /** The verdict is known: the goal's `durationMs` ends here. */
  end(): number {
    this.ended ??= Date.now();
    return this.ended - this.started;
  }

  /** The split, once the goal's reports are written; marks the worker's goal as over. */
  phases(): GoalPhases {
    const now = Date.now();
    const ended = this.ended ?? now;
    const marks = worker();
    const startMs = Math.max(0, this.started - (marks.lastEnd ?? this.runStart));
    marks.lastEnd = now;
    const actionsFrom = this.firstAction ?? this.checking ?? ended;
    const checkFrom = this.checking ?? ended;
    const checkMs = Math.min(this.judgeMs, ended - checkFrom);
    return {
      startMs,
      launchMs: this.launchMs,
      // Whatever came before the first action and was not the launch: the phases add up to durationMs.
      readyMs: Math.max(0, actionsFrom - this.started - this.launchMs),
      actionsMs: Math.max(0, checkFrom - actionsFrom),
      holdMs: Math.max(0, ended - checkFrom - checkMs),
      checkMs,
      reportMs: now - ended,
    };
  }
}

/** A split as a console line: `start 4310 · launch 1210 · … · report 120 ms`, `cli 640 · engine 1830 · display 1450 ms`. */
export function splitLine(split: GoalPhases | RunStartup): string {
  return `${Object.entries(split)
    .map(([key, ms]: [string, number]) => `${key.replace(/Ms$/, '')} ${Math.round(ms)}`)
    .join(' · ')} ms`;
}

/**
 * The run's start-up split, from the command's start, the engine's start, the moments a worker
 * began and finished opening its display and its first goal started; undefined when no worker
 * opened one (nothing ran).
 */
export function runStartup(commandStart: number, engineStart: number, display: DisplayOpening | undefined): RunStartup | undefined {
  if (display === undefined) return undefined;
  return {
    cliMs: Math.max(0, Math.round(engineStart - commandStart)),
    engineMs: Math.max(0, Math.round(display.from - engineStart)),
    displayMs: Math.max(0, Math.round(display.to - display.from)),
    ...(display.goal !== undefined && { loadMs: Math.max(0, Math.round(display.goal - display.to)) }),
  };
}
