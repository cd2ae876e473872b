/**
 * One replayed action, and what replay remembers from one action to the next.
 *
 *   wait until stable (a path's first action with no target: until its recorded line before it
 *   shows) → resolve by the ladder → act → wait for the reaction → verify the effects → look for
 *   changes nobody recorded
 *
 * Done twice, never while it may still take effect. An action whose effects did not appear is
 * done again only when the window still shows exactly the state before it (dynamic regions
 * aside) after the action's whole time limit (timeouts.actionMs): an app that reacts later than
 * that has failed the action anyway, so a slow app is waited for and never acted on twice. The
 * retry is evidence: it is counted in the report, and fails the goal under --strict.
 *
 * Replay is a strategy of the action cycle (cycle-strategy.ts). Its parts: the target, found
 * and waited for (replay-target.ts); the wait for the effects (replay-effects.ts); the changes
 * nobody recorded (replay-news.ts); the effects held until the next action (replay-hold.ts); the
 * app's elements judged once more after the expectations (replay-end.ts).
 */
import { exitOf, type ActionReport, type Frame, type RecordedAction, type Region } from '../domain.ts';
import { framesEqual } from '../vision/changes.ts';
import { describeAction, describeElementEffect } from '../spec-file/describe.ts';
import { settle, type Settled } from './settle.ts';
import { snapshot, type Snapshot } from './elements.ts';
import { act } from './element-act.ts';
import { verifyEffects, kindOf, type EffectCheck } from './verify.ts';
import { regionsIntersect } from '../vision/frame.ts';
import { elementColours, elementEvidence, leafBoxes, sameBox, verifyElementEffects, type FocusMoves } from './element-effects.ts';
import { effectBoxes, elementNews, goneBoxes, newsRegions } from './element-news.ts';
import { describeUnexpected } from './unexpected.ts';
import { pointerMove } from './pointer-trail.ts';
import { CYCLE_LIMITS } from './thresholds.ts';
import { failOutcome, failure, type ActionFailure, type ActionOutcome, type Held } from './outcome.ts';
import type { PhaseClock } from './phases.ts';
import { awaitExit, exitMiss, unlessEnded, type Ended } from './exit.ts';
import { actionDetail } from './action-detail.ts';
import { observe } from './observe-action.ts';
import { ReplayNews } from './replay-news.ts';
import { ReplayHold } from './replay-hold.ts';
import { ReplayEnd } from './replay-end.ts';
import { ReplayTarget } from './replay-target.ts';
import { awaitEffects, drawnScale, effectProblem, feedbackPlaces, notVerified, targetBoxes } from './replay-effects.ts';
import {
  AGAIN,
  isSecret,
  type CycleContext,
  type CycleStrategy,
  type Done,
  type ReplayStepInput,
  type Resolved,
  type Unresolved,
} from './cycle-strategy.ts';

/** The action done: where, on which window, and when. */
interface Acted {
  readonly before: Settled;
  readonly resolved: Resolved;
  /** When it was done (Date.now()): the action's time limit counts from it. */
  readonly acted: number;
  /** The app ended under the action. */
  readonly ended?: Ended;
}

/** The window once it reacted, and its effects as last looked at. */
interface Reacted extends Acted {
  readonly after: Settled;
  readonly checks: EffectCheck[];
  /** The app's elements, read while the quiet after the action was confirmed. */
  readonly early: { frame: Frame; read: Promise<Snapshot>; done: boolean } | undefined;
}

export class ReplayStep implements CycleStrategy<ReplayStepInput, Acted, Reacted> {
  private readonly news: ReplayNews;
  private readonly holding: ReplayHold;
  private readonly target: ReplayTarget;
  private readonly end: ReplayEnd;

  constructor(private readonly context: CycleContext) {
    this.news = new ReplayNews(context);
    this.holding = new ReplayHold(context, this.news);
    this.target = new ReplayTarget(context);
    this.end = new ReplayEnd(context, this.news);
  }

  private get stage() {
    return this.context.stage;
  }

  private get options() {
    return this.context.options;
  }

  /** Waiting steps end what the last action is held to, and start the end's count again (replay-end.ts). */
  forget(): void {
    this.holding.forget();
    this.end.forget();
  }

  /** The wait before the next action that the last hold already spent (counted in its report). */
  get waited(): number {
    return this.holding.waited;
  }

  hold(final: boolean): Promise<Held | undefined> {
    return this.holding.hold(final);
  }

  /** After the expectations: the app's elements against the start and the path's recorded changes. */
  endTree(actions: readonly RecordedAction[], last: ActionReport): Promise<Held | undefined> {
    return this.end.check(actions, last);
  }

  name(step: ReplayStepInput): string {
    return `action ${step.index + 1} (${describeAction(step.recorded.action)})`;
  }

  /** What the action's comparisons leave out: its recorded dynamic regions and those seen changing since. */
  private ignore(step: ReplayStepInput): Region[] {
    return [...step.recorded.dynamic, ...this.news.seen];
  }

  async ready(step: ReplayStepInput, attempt: number): Promise<Settled> {
    const ignore = (): Region[] => this.ignore(step);
    const pending = this.holding.pending;
    this.holding.slowestMs = Math.max(this.holding.slowestMs, step.recorded.settleMs);
    const settled =
      attempt === 0 && pending ? pending : await settle(this.stage, { timeoutMs: this.options.settleTimeoutMs, ignore: ignore() });
    this.holding.forget();
    return attempt === 0 ? await this.target.awaitBeforeLine(step, settled, ignore) : settled;
  }

  async resolve(step: ReplayStepInput, first: Settled): Promise<{ before: Settled; resolved: Resolved | Unresolved }> {
    const found = await this.target.awaitTarget(step, first, () => this.ignore(step));
    this.end.begin(step.index, found.before, step.treeRecorded === true);
    return found;
  }

  lost(step: ReplayStepInput, before: Settled, resolved: Unresolved): void {
    if (isSecret(step.recorded)) return;
    this.options.onProblem?.(step.index, { kind: 'target-not-found', window: before.frame, ...pick(resolved) });
    this.options.onDetail?.(step.index, actionDetail(step.recorded, resolved.tried, []));
  }

  async act(step: ReplayStepInput, before: Settled, resolved: Resolved): Promise<Acted | string> {
    const { recorded } = step;
    const acting = act(this.stage, recorded.action, resolved.points, before.window, this.options.resolveText);
    // An action recorded as ending the app may end it while it is being done.
    const refused = exitOf(recorded) ? await unlessEnded(this.stage, acting) : await acting;
    if (typeof refused === 'string') return refused;
    return { before, resolved, acted: Date.now(), ...(refused && { ended: refused }) };
  }

  async settle(step: ReplayStepInput, acting: Acted, clock: PhaseClock, attempt: number): Promise<Reacted | Done> {
    const { recorded } = step;
    const { before, resolved, acted } = acting;
    const ignore = (): Region[] => this.ignore(step);
    const ends = exitOf(recorded);
    if (ends) {
      const exit = acting.ended?.ended ?? (await awaitExit(this.stage, this.options.actionTimeoutMs));
      clock.lap('settleMs');
      const made = clock.report({ verified: true, resolvedBy: resolved.resolvedBy, retries: attempt });
      const miss = exitMiss(ends, exit, this.options.actionTimeoutMs);
      if (miss === undefined) return { outcome: { report: made, observed: recorded, changed: true, healed: false } };
      const why = failure('effect-not-verified', `${this.name(step)}: its effect did not verify — ${miss}`, step.index);
      return { outcome: failOutcome({ ...made, verified: false }, why, exit !== undefined) };
    }
    let verifying = 0;
    const [target] = targetBoxes(step, resolved);
    const verify = async (shot: Settled): Promise<EffectCheck[]> => {
      const start = performance.now();
      const input = {
        reader: this.stage.reader,
        recorded,
        image: step.image,
        before: before.frame,
        after: shot.frame,
        offset: resolved.offset,
        ignore: ignore(),
        scale: drawnScale(step, resolved),
        ...(target && { target }),
        // A tree read and found wanting; one left unread (the action recorded nothing of it) keeps its evidence as it is.
        treeless: before.elements !== undefined && (!before.elements.ok || before.elements.elements.length === 0),
      };
      const checks = await this.stage.guard(verifyEffects(input));
      verifying += performance.now() - start;
      return checks;
    };
    // The app's elements are read as soon as the recorded effects show — or, for an action
    // whose pixels cannot tell (no decisive pixel effect), as soon as the window shows a new
    // state — while the quiet after it is still being confirmed, so the read costs no time of
    // its own. It stands only if the window stayed where it was and showed nothing new after
    // the frame it started on; otherwise they are read again once the window is stable.
    // One read at a time: the app answers it on the thread it paints with.
    const wantsElements = (recorded.elements?.length ?? 0) > 0;
    let early: { frame: Frame; read: Promise<Snapshot>; done: boolean } | undefined;
    const readEarly = (frame: Frame): void => {
      if (!wantsElements || (early !== undefined && (!early.done || framesEqual(early.frame, frame, ignore())))) return;
      const read = snapshot(this.stage, before.window);
      const started = { frame, read, done: false };
      // An early read that is not used fails with nobody waiting.
      read.then(
        () => (started.done = true),
        () => (started.done = true),
      );
      early = started;
    };
    const awaited = await awaitEffects(
      this.context,
      step,
      before,
      resolved,
      acted,
      verify,
      () => [...ignore(), ...feedbackPlaces(step, resolved)],
      ignore,
      readEarly,
    );
    // Waiting for the reaction is settling; looking at the effects is verifying.
    clock.lap('settleMs');
    clock.move(verifying, 'settleMs', 'verifyMs');
    return { ...acting, after: awaited.after, checks: awaited.checks, early };
  }

  async verify(step: ReplayStepInput, reacted: Reacted, clock: PhaseClock, attempt: number): Promise<ActionOutcome | typeof AGAIN> {
    const { recorded, index } = step;
    const { action } = recorded;
    const ignore = (): Region[] => this.ignore(step);
    const secret = isSecret(recorded);
    const { before, resolved, acted, checks, early } = reacted;
    let after = reacted.after;
    const failed = checks.find((c) => !c.verified);
    // What the action changed in the app's elements must hold too, exactly.
    const current =
      early && sameBox(before.window, after.window) && framesEqual(early.frame, after.frame, ignore()) ? early.read : undefined;
    // Element effects are waited for as pixel ones are: while nothing but the target's own
    // feedback changed, for the rest of the action's time limit (an app still working on it).
    const untouched = framesEqual(before.frame, after.frame, [...ignore(), ...feedbackPlaces(step, resolved)]);
    const patienceMs = untouched
      ? Math.max(0, acted + this.options.actionTimeoutMs - Date.now())
      : Math.max(CYCLE_LIMITS.replayReactMinMs, recorded.settleMs * CYCLE_LIMITS.replayReactFactor);
    const elementCheck =
      failed || !recorded.elements?.length
        ? undefined
        : await verifyElementEffects(this.stage, recorded.elements, after.window, patienceMs, current);
    // Effects the tree showed only after the window looked settled: the window is looked at again.
    if (elementCheck && elementCheck.problem === undefined && current === undefined && untouched) {
      after = await settle(this.stage, { timeoutMs: this.options.settleTimeoutMs, ignore: ignore() });
    }
    const elementMiss =
      elementCheck?.problem ?? (elementCheck ? elementColours(recorded.effects, elementCheck.found, after.frame) : undefined);
    const changed = !framesEqual(before.frame, after.frame, ignore());
    if ((failed || elementMiss) && !changed && attempt < CYCLE_LIMITS.maxRetries) return AGAIN;
    // The window before and after is evidence for a failed action as much as for a passed one.
    if (!secret) this.options.onEvidence?.(index, before.frame, after.frame);
    if (!secret) this.options.onDetail?.(index, actionDetail(recorded, resolved.tried, checks, elementCheck));
    const fail = (category: ActionFailure['category'], message: string, verified = false): ActionOutcome =>
      failOutcome(
        clock.report({ verified, resolvedBy: resolved.resolvedBy, retries: attempt }),
        failure(category, message, index),
        changed,
      );
    const description = this.name(step);
    if (failed) {
      if (!secret) this.options.onProblem?.(index, effectProblem(failed, step, before.frame, after.frame));
      return fail('effect-not-verified', notVerified(description, failed, changed, attempt));
    }
    if (elementMiss) return fail('effect-not-verified', `${description}: its effect did not verify — ${elementMiss}`);
    if (attempt > 0 && this.options.strict) {
      return fail(
        'effect-not-verified',
        `${description}: its effect appeared only when it was done again (${attempt} ${attempt === 1 ? 'retry' : 'retries'}): the app ignored it the first time (--strict)`,
        true,
      );
    }
    // The app's elements after the action (read once): what changed in them unrecorded is told
    // by role and name; the pixels then look only where no element tells it.
    const elementsAfter = elementCheck?.read ?? (before.elements?.ok ? await snapshot(this.stage, after.window) : undefined);
    const news =
      step.treeRecorded && before.elements?.ok && elementsAfter?.ok
        ? await this.news.settledNews(
            elementNews(before.elements.elements, elementsAfter.elements, recorded.elements ?? [], {
              dynamic: ignore(),
              secret,
              ...(recorded.anchor?.element && { target: recorded.anchor.element }),
            }),
            after,
          )
        : [];
    // Where an element is, the tree told what changed: the pixels look only where none is.
    const told = step.treeRecorded && elementsAfter?.ok ? leafBoxes(elementsAfter.elements) : [];
    const targets = targetBoxes(step, resolved);
    const scale = drawnScale(step, resolved);
    // Where elements recorded as going went from: their going is the change there.
    const went = goneBoxes(
      elementCheck?.found ?? [],
      before.elements?.ok ? before.elements.elements : [],
      elementsAfter?.ok ? elementsAfter.elements : [],
      after.frame,
    );
    const accounted = [
      ...checks.flatMap((c) => [c.region, ...(c.covers ?? [])]),
      ...targets,
      ...effectBoxes(elementCheck?.found ?? [], elementsAfter?.ok ? elementsAfter.elements : [], after.frame),
      ...went,
      ...elementEvidence(recorded.effects, elementCheck?.found ?? []),
      ...newsRegions(news),
      ...told,
    ];
    const moves = (): Promise<FocusMoves | undefined> => this.news.focusMoves(before, elementsAfter, after.window);
    const move = pointerMove(action);
    const [target] = move === 'target' ? targets : [];
    const point = move === 'target' ? resolved.points[0] : undefined;
    this.news.pointer.acted(move !== 'none', point);
    // Where no element tells what changed, the whole control the pointer came to, lit by its
    // hover look, is the target's own look (learning recorded only what the action drew on it):
    // beyond the target's box and slack (a larger font lights a wider button), it is no news.
    const rest = target && point && this.news.pointer.restingOn({ box: target, point }, before.frame, after.frame, ignore());
    if (rest && told.length === 0) accounted.push(rest);
    // Learned, the action took the focus off a field other than its target (its ring recorded apart).
    const { anchor } = recorded;
    const focusLeft = recorded.effects.some((e) => kindOf(e) === 'feedback' && !(anchor && regionsIntersect(e.region, anchor.box)));
    const unexpected = [
      ...news,
      ...(await this.news.unexpected(index, before.frame, after, accounted, ignore(), secret, scale, moves, focusLeft)),
    ];
    clock.lap('verifyMs');
    if (unexpected.length > 0 && this.options.unexpectedChanges !== 'warn') {
      return {
        ...fail(
          'unexpected-change',
          `${description}: it also changed what its path did not record: ${describeUnexpected(unexpected)}`,
          true,
        ),
        report: { ...clock.report({ verified: true, resolvedBy: resolved.resolvedBy, retries: attempt }), unexpected },
      };
    }
    // The element rung finding its element where it was recorded is a clean replay, not a heal.
    const inPlace =
      resolved.resolvedBy === 'recorded' || (resolved.resolvedBy === 'element' && resolved.offset.x === 0 && resolved.offset.y === 0);
    const healed = !inPlace || checks.some((c) => c.moved);
    // An action that replayed exactly keeps its recorded evidence (and images) in a proposal.
    const observed = healed
      ? await observe(this.stage, action, before, after, resolved, recorded.dynamic, secret, step.assets, recorded)
      : recorded;
    clock.lap('verifyMs');
    const done = {
      ...clock.report({ verified: true, resolvedBy: resolved.resolvedBy, retries: attempt }),
      ...(recorded.elements?.length && { elements: recorded.elements.map(describeElementEffect) }),
      ...(unexpected.length > 0 ? { unexpected } : {}),
      ...(healed ? { healed: healReason(resolved, checks, secret) } : {}),
    };
    const content = checks.filter((c) => c.verified && !c.skipped && kindOf(c.effect) !== 'feedback').map((c) => c.region);
    this.news.pointer.rested(move !== 'none', rest, before.frame, content);
    this.holding.previous = {
      index,
      description,
      report: done,
      after: after.frame,
      window: after.window,
      ...(elementsAfter && { elements: elementsAfter }),
      ...(step.treeRecorded && elementsAfter?.ok && { elementEffects: recorded.elements ?? [] }),
      effects: [
        ...checks.filter((c) => c.verified && !c.skipped).map((c) => c.region),
        ...effectBoxes(elementCheck?.found ?? [], elementsAfter?.ok ? elementsAfter.elements : [], after.frame),
        ...went,
      ],
      dynamic: recorded.dynamic,
      secret,
      scale,
      ...(after.drawing && { drawing: after.drawing }),
    };
    return { report: done, observed, changed, healed };
  }
}

const pick = (u: { readonly recorded?: Region; readonly candidate?: Region }): { recorded?: Region; candidate?: Region } => ({
  ...(u.recorded ? { recorded: u.recorded } : {}),
  ...(u.candidate ? { candidate: u.candidate } : {}),
});

/** Why an action healed, in words: the rung below `recorded` that found its target, and each effect found other than as recorded. */
export function healReason(resolved: Pick<Resolved, 'resolvedBy' | 'offset'>, checks: readonly EffectCheck[], secret: boolean): string {
  const { x, y } = resolved.offset;
  const moved = x !== 0 || y !== 0 ? `, moved by ${x}, ${y} px` : '';
  const target = resolved.resolvedBy === 'recorded' ? [] : [`target found by ${resolved.resolvedBy}${moved}`];
  const effects = checks
    .filter((c) => c.moved)
    .map((c) => {
      const said = c.effect.text && !secret ? ` "${c.effect.text}"` : '';
      const { region: was } = c.effect;
      const where =
        c.region.x === was.x && c.region.y === was.y
          ? 'at its place, repainted'
          : `found at ${c.region.x}, ${c.region.y} (recorded at ${was.x}, ${was.y})`;
      return `${kindOf(c.effect)}${said} ${where}`;
    });
  return [...target, ...effects].join('; ');
}
