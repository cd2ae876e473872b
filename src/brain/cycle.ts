/**
 * The action cycle: the one way retrace does something to an application, shared by learning,
 * scripted steps and replay. One body runs its five phases and times them:
 *
 *   wait until stable → resolve the target → act → settle → verify (and keep what it did)
 *
 * Learning (learn-step.ts) resolves a target by finding its text on screen and observes what the
 * action changed (the recording). Replay (replay-step.ts) resolves it by the target ladder,
 * verifies the recorded effects and looks for changes nobody recorded; when it needed a rung
 * below "recorded", or found an effect elsewhere, it observes the action anew so a healed path
 * can be proposed. A target not found or an effect not verified is an outcome (a value), never
 * an exception: exceptions are infrastructure faults only.
 */
import type { Action, ActionReport, RecordedAction } from '../domain.ts';
import { fingerprint } from '../vision/fingerprint.ts';
import type { Stage } from './stage.ts';
import { settle } from './settle.ts';
import { locateText } from './locate.ts';
import { failOutcome, failure, type ActionFailure, type ActionOutcome, type Held } from './outcome.ts';
import { PhaseClock } from './phases.ts';
import { LearnStep } from './learn-step.ts';
import { ReplayStep } from './replay-step.ts';
import { AGAIN, type CycleOptions, type CycleStep, type CycleStrategy } from './cycle-strategy.ts';

export type { ActionFailure, ActionOutcome, Held } from './outcome.ts';
export type { CycleOptions, CycleStep, Evidence, Resolved, Unresolved } from './cycle-strategy.ts';

export class ActionCycle {
  private readonly learning: LearnStep;
  /** What replay remembers from one action to the next. */
  private readonly replaying: ReplayStep;

  constructor(
    readonly stage: Stage,
    readonly options: CycleOptions,
  ) {
    this.learning = new LearnStep(this);
    this.replaying = new ReplayStep(this);
  }

  async run(step: CycleStep): Promise<ActionOutcome> {
    const outcome = await this.cycle(step);
    this.options.onReport?.(outcome.report);
    return outcome;
  }

  /**
   * Looks at the last replayed action again before the next one (or, `final`, at the end of the
   * path, for as long as its effects must hold): an effect that reverted, or a late change nobody
   * recorded, amends its report.
   */
  hold(final = false): Promise<Held | undefined> {
    return this.replaying.hold(final);
  }

  /**
   * After the goal's expectations, on a replay: the app's elements against those before its first
   * action and the changes its path recorded (replay-end.ts). A change nobody recorded, or an
   * effect that did not hold, amends `last`, the report of the path's last action.
   */
  endTree(actions: readonly RecordedAction[], last: ActionReport): Promise<Held | undefined> {
    return this.replaying.endTree(actions, last);
  }

  private cycle(step: CycleStep): Promise<ActionOutcome> {
    const action = step.kind === 'learn' ? step.action : step.recorded.action;
    if (action.kind === 'wait' || action.kind === 'wait-for') return this.waitStep(step, action);
    return step.kind === 'learn' ? this.phases(this.learning, step, action) : this.phases(this.replaying, step, action);
  }

  /**
   * The five phases, with one strategy's parts. An action is done again only when its verify
   * phase says so (replay: the window still shows exactly the state before it).
   */
  private async phases<S extends CycleStep, A extends object, V extends object>(
    strategy: CycleStrategy<S, A, V>,
    step: S,
    action: Action,
  ): Promise<ActionOutcome> {
    // A replayed action's wait before it may have been spent looking at the last one (hold).
    const waited = step.kind === 'replay' ? this.replaying.waited : 0;
    this.stage.resetRetries();
    const clock = new PhaseClock(action, waited, () => this.stage.retriesNoted);
    for (let attempt = 0; ; attempt++) {
      clock.restart();
      const ready = await strategy.ready(step, attempt);
      clock.lap('waitMs');
      const { before, resolved } = await strategy.resolve(step, ready);
      clock.lap('resolveMs');
      if ('failure' in resolved) {
        strategy.lost(step, before, resolved);
        const report = clock.report({ verified: false, resolvedBy: 'recorded', retries: attempt });
        return failOutcome(report, failure('target-not-found', resolved.failure, step.index));
      }
      const acted = await strategy.act(step, before, resolved);
      clock.lap('actMs');
      if (typeof acted === 'string') {
        const report = clock.report({ verified: false, resolvedBy: resolved.resolvedBy, retries: attempt });
        return failOutcome(report, failure('target-not-found', `${strategy.name(step)}: ${acted}`, step.index));
      }
      const settled = await strategy.settle(step, acted, clock, attempt);
      clock.lap('settleMs');
      if ('outcome' in settled) return settled.outcome;
      const verdict = await strategy.verify(step, settled, clock, attempt);
      if (verdict !== AGAIN) return verdict;
    }
  }

  /** `wait N ms` and `wait for "T"`: nothing is done to the app, so nothing is verified. */
  private async waitStep(step: CycleStep, action: Extract<Action, { kind: 'wait' | 'wait-for' }>): Promise<ActionOutcome> {
    const clock = new PhaseClock(action, 0, () => 0);
    // The screen is meant to change while waiting: the last action is looked at no more.
    this.replaying.forget();
    let why: ActionFailure | undefined;
    if (action.kind === 'wait') {
      await this.stage.wait(action.ms);
    } else {
      const found = await locateText(this.stage, this.options.resolveText(action.text), {
        timeoutMs: action.timeoutMs ?? this.options.actionTimeoutMs,
      });
      if (!found.hit) {
        const where = step.kind === 'replay' ? this.replaying.name(step) : this.learning.name(step);
        why = failure('target-not-found', `${where}: the text never appeared (OCR read: "${found.read}")`, step.index);
      }
    }
    clock.lap('waitMs');
    const report: ActionReport = clock.report({ verified: why === undefined, resolvedBy: 'recorded', retries: 0 });
    if (why) return failOutcome(report, why);
    if (step.kind === 'replay') return { report, observed: step.recorded, changed: false, healed: false };
    const shot = await settle(this.stage, { timeoutMs: this.options.settleTimeoutMs, ignore: step.dynamic });
    const print = fingerprint(shot.frame, step.dynamic);
    const observed: RecordedAction = { action, before: print, after: print, effects: [], dynamic: step.dynamic, settleMs: 0 };
    return { report, observed, changed: false, healed: false };
  }
}
