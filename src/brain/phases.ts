/**
 * The one clock of the action cycle: each phase's milliseconds, and the action's report built
 * from them. summary.json's time split (issue 28) adds these up per goal, so a phase's time is
 * counted here and nowhere else.
 */
import type { Action, ActionReport } from '../domain.ts';
import { describeAction } from '../spec-file/describe.ts';

/** Milliseconds of each phase of one action, in the order they happen. */
export interface Phases {
  waitMs: number;
  resolveMs: number;
  actMs: number;
  settleMs: number;
  verifyMs: number;
}

/** What a phase of the cycle decides of the report; the clock adds the times. */
export type ReportParts = Pick<ActionReport, 'verified' | 'resolvedBy' | 'retries'>;

export class PhaseClock {
  readonly phases: Phases;
  private readonly started: number;
  private mark = performance.now();

  /**
   * @param waitedMs the wait before the action already spent elsewhere (replay's hold of the
   *   last action looked at the window the next one starts from): counted as this one's wait.
   * @param retriesNoted the stage's retries of this action so far (a flaky read done again).
   */
  constructor(
    private readonly action: Action,
    waitedMs: number,
    private readonly retriesNoted: () => number,
  ) {
    this.started = this.mark - waitedMs;
    this.phases = { waitMs: waitedMs, resolveMs: 0, actMs: 0, settleMs: 0, verifyMs: 0 };
  }

  /** A new attempt at the action starts its phases' laps anew. */
  restart(): void {
    this.mark = performance.now();
  }

  /** Ends the running phase: the time since the last lap is its. */
  lap(phase: keyof Phases): void {
    const now = performance.now();
    this.phases[phase] += now - this.mark;
    this.mark = now;
  }

  /** Counts time spent inside one phase as another's (looking at effects while waiting for them). */
  move(ms: number, from: keyof Phases, to: keyof Phases): void {
    this.phases[from] -= ms;
    this.phases[to] += ms;
  }

  report(parts: ReportParts): ActionReport {
    const { phases } = this;
    return {
      kind: this.action.kind,
      ms: Math.round(performance.now() - this.started),
      settleMs: Math.round(phases.settleMs),
      verifyMs: Math.round(phases.verifyMs),
      waitMs: Math.round(phases.waitMs),
      resolveMs: Math.round(phases.resolveMs),
      actMs: Math.round(phases.actMs),
      retries: parts.retries + this.retriesNoted(),
      verified: parts.verified,
      resolvedBy: parts.resolvedBy,
      description: describeAction(this.action),
    };
  }
}
