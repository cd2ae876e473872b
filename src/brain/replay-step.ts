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
 * Effects must hold. Between two actions the window is looked at again: unchanged since the last
 * action was verified, the next one starts at once; changed, it is waited on until stable and the
 * change judged. After the last one, the window is watched for `holdMs`. An effect that changed
 * again on its own did not happen.
 *
 * No wait longer than the work: the wait after an action ends once its recorded effects show and
 * the window is quiet a moment (vision/settle.ts, `ready`), not after a whole quiet window.
 */
import {
  exitOf,
  type ActionReport,
  type DrawReport,
  type ElementEffect,
  type Frame,
  type Region,
  type UnexpectedChange,
} from '../domain.ts';
import { framesEqual } from '../vision/changes.ts';
import { crop, clampRegion, inflateRegion, offsetRegion, regionsIntersect } from '../vision/frame.ts';
import { containsSecret } from '../spec-file/interpolate.ts';
import { settle, type Settled } from './settle.ts';
import { snapshot, type Snapshot } from './elements.ts';
import { describeAction, describeElementEffect } from '../spec-file/describe.ts';
import { verifyEffects, kindOf, matches, presentAsRecorded, type EffectCheck } from './verify.ts';
import {
  elementColours,
  focusMoves,
  leafBoxes,
  sameBox,
  verifyElementEffects,
  type ElementVerdict,
  type FocusMoves,
} from './element-effects.ts';
import { effectBoxes, elementNews, newsRegions, treeHeld, type TreeHeld } from './element-news.ts';
import { describeChanges, describeUnexpected, isFocusFeedback, unexplainedChanges, watchCandidates } from './unexpected.ts';
import { continuingChanging } from './observe.ts';
import { CYCLE_LIMITS, EFFECT_THRESHOLDS, holdAfterLast } from './thresholds.ts';
import type { ActionFailure, ActionOutcome, Held } from './outcome.ts';
import type { ActionCycle, CycleStep, Resolved, Unresolved } from './cycle.ts';
import { awaitExit, exitMiss, unlessEnded } from './exit.ts';
import { actionDetail } from './action-detail.ts';

/** Milliseconds of each phase of one action, in the order they happen. */
export interface Phases {
  waitMs: number;
  resolveMs: number;
  actMs: number;
  settleMs: number;
  verifyMs: number;
}

type ReplayStepInput = Extract<CycleStep, { kind: 'replay' }>;
type MakeReport = (extra: Pick<ActionReport, 'verified' | 'resolvedBy' | 'retries'>) => ActionReport;

/** The last replayed action, as verified: looked at again before the next one. */
interface Previous {
  readonly index: number;
  readonly description: string;
  readonly report: ActionReport;
  readonly after: Frame;
  /** Where the window was then (screen-absolute). */
  readonly window: Region;
  /** The app's elements as read when its element effects were verified: that state's one read. */
  readonly elements?: Snapshot;
  /** Its element effects, checked again on the elements a moment later (recorded with format 3). */
  readonly elementEffects?: readonly ElementEffect[];
  /** Where its effects were found. */
  readonly effects: readonly Region[];
  readonly dynamic: readonly Region[];
  readonly secret: boolean;
  /** The display's reports of drawing in the window since `after` was grabbed. */
  readonly drawing?: DrawReport;
}

/** Polling gap while the last action's effects are held. */
const HOLD_POLL_MS = 50;

export class ReplayStep {
  /** Regions seen changing on their own during this replay, though not recorded as dynamic. */
  private readonly seen: Region[] = [];
  /** The settled window the last hold ended on: the next action starts from it. */
  private pending: Settled | undefined;
  /** How long that hold waited: the next action's wait before it. */
  private pendingMs = 0;
  private previous: Previous | undefined;
  /** The slowest reaction recorded on the path so far: the hold after the last action grows with it. */
  private slowestMs = 0;

  constructor(private readonly cycle: ActionCycle) {}

  private get stage() {
    return this.cycle.stage;
  }

  private get options() {
    return this.cycle.options;
  }

  /** Waiting steps end what the last action is held to. */
  forget(): void {
    this.previous = undefined;
    this.pending = undefined;
    this.pendingMs = 0;
  }

  /** The wait before the next action that the last hold already spent (counted in its report). */
  get waited(): number {
    return this.pending ? this.pendingMs : 0;
  }

  async run(step: ReplayStepInput, phases: Phases, report: MakeReport): Promise<ActionOutcome> {
    const { recorded, index } = step;
    const { action } = recorded;
    this.slowestMs = Math.max(this.slowestMs, recorded.settleMs);
    const ignore = (): Region[] => [...recorded.dynamic, ...this.seen];
    const secret = recorded.secret === true || (action.kind === 'type' && containsSecret(action.text));
    for (let attempt = 0; ; attempt++) {
      let mark = performance.now();
      const lap = (phase: keyof Phases): void => {
        const now = performance.now();
        phases[phase] += now - mark;
        mark = now;
      };
      const settled =
        attempt === 0 && this.pending
          ? this.pending
          : await settle(this.stage, { timeoutMs: this.options.settleTimeoutMs, ignore: ignore() });
      this.forget();
      const first = attempt === 0 ? await this.awaitBeforeLine(step, settled, ignore) : settled;
      lap('waitMs');
      const { before, resolved } = await this.awaitTarget(step, first, ignore);
      lap('resolveMs');
      if ('failure' in resolved) {
        if (!secret) this.options.onProblem?.(index, { kind: 'target-not-found', window: before.frame, ...pick(resolved) });
        if (!secret) this.options.onDetail?.(index, actionDetail(recorded, resolved.tried, []));
        const failure: ActionFailure = { category: 'target-not-found', message: resolved.failure, index };
        return { report: report({ verified: false, resolvedBy: 'recorded', retries: attempt }), changed: false, healed: false, failure };
      }
      const ends = exitOf(recorded);
      const acting = this.cycle.act(action, resolved, before);
      // An action recorded as ending the app may end it while it is being done.
      const refused = ends ? await unlessEnded(this.stage, acting) : await acting;
      const acted = Date.now();
      lap('actMs');
      if (typeof refused === 'string') {
        const failure: ActionFailure = {
          category: 'target-not-found',
          message: `action ${index + 1} (${describeAction(action)}): ${refused}`,
          index,
        };
        return {
          report: report({ verified: false, resolvedBy: resolved.resolvedBy, retries: attempt }),
          changed: false,
          healed: false,
          failure,
        };
      }
      if (ends) {
        const exit = refused?.ended ?? (await awaitExit(this.stage, this.options.actionTimeoutMs));
        lap('settleMs');
        const made = report({ verified: true, resolvedBy: resolved.resolvedBy, retries: attempt });
        const miss = exitMiss(ends, exit, this.options.actionTimeoutMs);
        if (miss === undefined) return { report: made, observed: recorded, changed: true, healed: false };
        const failure: ActionFailure = {
          category: 'effect-not-verified',
          message: `action ${index + 1} (${describeAction(action)}): its effect did not verify — ${miss}`,
          index,
        };
        return { report: { ...made, verified: false }, changed: exit !== undefined, healed: false, failure };
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
          ...(target && { target }),
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
      const awaited = await this.awaitEffects(
        step,
        before,
        resolved,
        acted,
        verify,
        () => [...ignore(), ...feedbackPlaces(step, resolved)],
        ignore,
        readEarly,
      );
      const { checks } = awaited;
      let after = awaited.after;
      // Waiting for the reaction is settling; looking at the effects is verifying.
      lap('settleMs');
      phases.settleMs -= verifying;
      phases.verifyMs += verifying;
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
      if ((failed || elementMiss) && !changed && attempt < CYCLE_LIMITS.maxRetries) continue;
      // The window before and after is evidence for a failed action as much as for a passed one.
      if (!secret) this.options.onEvidence?.(index, before.frame, after.frame);
      if (!secret) this.options.onDetail?.(index, actionDetail(recorded, resolved.tried, checks, elementCheck));
      const fail = (category: ActionFailure['category'], message: string, verified = false): ActionOutcome => ({
        report: report({ verified, resolvedBy: resolved.resolvedBy, retries: attempt }),
        changed,
        healed: false,
        failure: { category, message, index },
      });
      const description = `action ${index + 1} (${describeAction(action)})`;
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
          ? await this.settledNews(
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
      const accounted = [
        ...checks.flatMap((c) => [c.region, ...(c.covers ?? [])]),
        ...targetBoxes(step, resolved),
        ...effectBoxes(elementCheck?.found ?? [], elementsAfter?.ok ? elementsAfter.elements : [], after.frame),
        ...newsRegions(news),
        ...told,
      ];
      const moves = (): Promise<FocusMoves | undefined> => this.focusMoves(before, elementsAfter, after.window);
      const unexpected = [...news, ...(await this.unexpected(index, before.frame, after, accounted, ignore(), secret, moves))];
      lap('verifyMs');
      if (unexpected.length > 0 && this.options.unexpectedChanges !== 'warn') {
        return {
          ...fail(
            'unexpected-change',
            `${description}: it also changed what its path did not record: ${describeUnexpected(unexpected)}`,
            true,
          ),
          report: { ...report({ verified: true, resolvedBy: resolved.resolvedBy, retries: attempt }), unexpected },
        };
      }
      // The element rung finding its element where it was recorded is a clean replay, not a heal.
      const inPlace =
        resolved.resolvedBy === 'recorded' || (resolved.resolvedBy === 'element' && resolved.offset.x === 0 && resolved.offset.y === 0);
      const healed = !inPlace || checks.some((c) => c.moved);
      // An action that replayed exactly keeps its recorded evidence (and images) in a proposal.
      const observed = healed
        ? await this.cycle.observe(action, before, after, resolved, recorded.dynamic, secret, step.assets, recorded)
        : recorded;
      lap('verifyMs');
      const done = {
        ...report({ verified: true, resolvedBy: resolved.resolvedBy, retries: attempt }),
        ...(recorded.elements?.length && { elements: recorded.elements.map(describeElementEffect) }),
        ...(unexpected.length > 0 ? { unexpected } : {}),
        ...(healed ? { healed: healReason(resolved, checks, secret) } : {}),
      };
      this.previous = {
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
        ],
        dynamic: recorded.dynamic,
        secret,
        ...(after.drawing && { drawing: after.drawing }),
      };
      return { report: done, observed, changed, healed };
    }
  }

  /**
   * The window a path's first action with no target acts on: once its recorded line before it
   * shows (a shell's prompt that comes late — typed before it, the text lands around it), waited
   * for while the window changes, up to the action's time limit. A line that never shows as
   * recorded (another theme, a moved layout) costs that wait once; the action then goes ahead,
   * and its effects decide. Already there, it costs one comparison.
   */
  private async awaitBeforeLine(step: ReplayStepInput, first: Settled, ignore: () => Region[]): Promise<Settled> {
    const line = step.recorded.beforeLine;
    if (!line) return first;
    const image = step.image(line.image);
    const giveUp = Date.now() + this.options.actionTimeoutMs;
    let now = first;
    while (!matches(now.frame, line.region, image).ok && Date.now() < giveUp) {
      now = await settle(
        this.stage,
        { timeoutMs: this.options.settleTimeoutMs, ignore: ignore() },
        { changeFrom: now.frame, reactMs: giveUp - Date.now() },
      );
    }
    return now;
  }

  /**
   * How the app's elements changed across the action, when it publishes them: read before it
   * (with its target) and when its effects were verified, or now.
   */
  private async focusMoves(before: Settled, read: Snapshot | undefined, window: Region): Promise<FocusMoves | undefined> {
    if (!before.elements?.ok) return undefined;
    const after = read ?? (await snapshot(this.stage, window));
    return after.ok ? focusMoves(before.elements.elements, after.elements) : undefined;
  }

  /**
   * Finds the target, waiting for it while it is not there yet (a loading screen, another window
   * on top, a prompt still to come): each time the window changes the ladder looks again — all
   * but the model rung — up to the action's time limit; the model, when allowed, is asked once at
   * the end. A target that never shows is not found.
   */
  private async awaitTarget(
    step: ReplayStepInput,
    first: Settled,
    ignore: () => Region[],
  ): Promise<{ before: Settled; resolved: Resolved | Unresolved }> {
    const giveUp = Date.now() + this.options.actionTimeoutMs;
    // An action on an app that publishes its elements has them read before it (the element rung
    // reads them anyway): what changed in them tells the focus moving from news.
    const { recorded } = step;
    const published = recorded.anchor?.element !== undefined || (recorded.elements?.length ?? 0) > 0;
    const withElements = async (shot: Settled): Promise<Settled> =>
      published && !shot.elements ? { ...shot, elements: await snapshot(this.stage, shot.window) } : shot;
    let before = await withElements(first);
    let resolved = await this.cycle.ladder(step, before, false);
    while ('failure' in resolved && Date.now() < giveUp) {
      const later = await settle(
        this.stage,
        { timeoutMs: this.options.settleTimeoutMs, ignore: ignore() },
        { changeFrom: before.frame, reactMs: giveUp - Date.now() },
      );
      if (framesEqual(later.frame, before.frame, ignore())) continue;
      before = await withElements(later);
      resolved = await this.cycle.ladder(step, before, false);
    }
    if ('failure' in resolved && this.options.model) resolved = await this.cycle.ladder(step, before);
    return { before, resolved };
  }

  /**
   * Waits for the action's effects: for the window to react (up to the recorded settle time,
   * scaled), then — when what it shows is not the effect yet — for as long as it keeps changing
   * (an app that stalls mid-change), or, while nothing but the target's own feedback (its pressed
   * or focus look) changed, for the rest of the action's time limit: an app that is still working
   * on the action is waited for, however slow. Only then may the action be done again.
   */
  private async awaitEffects(
    step: ReplayStepInput,
    before: Settled,
    resolved: Resolved,
    acted: number,
    verify: (shot: Settled) => Promise<EffectCheck[]>,
    feedback: () => Region[],
    ignore: () => Region[],
    readEarly: (frame: Frame) => void,
  ): Promise<{ after: Settled; checks: EffectCheck[] }> {
    const { recorded } = step;
    const reactMs = Math.max(CYCLE_LIMITS.replayReactMinMs, recorded.settleMs * CYCLE_LIMITS.replayReactFactor);
    // The wait ends once the recorded effects show and the window is quiet a moment, not after a
    // whole quiet window: what is verified is what was awaited.
    const shows = presentAsRecorded(recorded, step.image, resolved.offset);
    const ready =
      shows &&
      ((frame: Frame): boolean => {
        if (!shows(frame)) return false;
        readEarly(frame);
        return true;
      });
    const settleOptions = { timeoutMs: this.options.settleTimeoutMs, ignore: ignore(), ...(ready ? { ready } : { onState: readEarly }) };
    const decisive = recorded.effects.some((e) => kindOf(e) !== 'feedback');
    let after = await settle(this.stage, settleOptions, decisive ? { changeFrom: before.frame, reactMs } : undefined);
    let checks = await verify(after);
    const patience = Date.now() + reactMs;
    const limit = acted + this.options.actionTimeoutMs;
    while (checks.some((c) => !c.verified)) {
      const untouched = framesEqual(before.frame, after.frame, feedback());
      const until = untouched ? limit : patience;
      if (Date.now() >= until) break;
      const later = await settle(this.stage, settleOptions, { changeFrom: after.frame, reactMs: Math.max(0, until - Date.now()) });
      // One wait for a change ends at the settle timeout; an untouched window is waited on to the limit.
      if (framesEqual(later.frame, after.frame, ignore())) {
        if (untouched) continue;
        break;
      }
      after = later;
      checks = await verify(after);
    }
    return { after, checks };
  }

  /**
   * Changes from `before` to `after` that nothing accounts for and that do not change on their
   * own: described (text read), with their evidence sent.
   */
  private async unexpected(
    index: number,
    before: Frame,
    after: Settled,
    accounted: readonly Region[],
    ignore: readonly Region[],
    secret: boolean,
    moves?: () => Promise<FocusMoves | undefined>,
  ): Promise<UnexpectedChange[]> {
    let candidates = unexplainedChanges(before, after.frame, accounted, ignore);
    if (candidates.length === 0) return [];
    // The field the focus left redraws its frame: that is the focus moving, not news.
    const focus = moves && (await moves());
    if (focus) candidates = candidates.filter((c) => !isFocusFeedback(c, focus, before, after.frame));
    if (candidates.length === 0) return [];
    const watched = await watchCandidates(this.stage, after.window, after.frame, candidates);
    this.seen.push(...watched.dynamic);
    // Beside what was recorded or seen changing on its own, on its line, it is more of the same.
    const own = continuingChanging(watched.still, [...ignore, ...this.seen]);
    this.seen.push(...own);
    const still = watched.still.filter((c) => !own.includes(c));
    if (still.length === 0) return [];
    if (!secret) this.options.onProblem?.(index, { kind: 'unexpected-change', before, after: after.frame, regions: still });
    return describeChanges(this.stage, after.frame, still);
  }

  async hold(final: boolean): Promise<Held | undefined> {
    const previous = this.previous;
    if (!previous) return undefined;
    this.previous = undefined;
    const ignore = [...previous.dynamic, ...this.seen];
    const started = performance.now();
    const now = final ? await this.watchHeld(previous, ignore) : await this.sinceVerified(previous, ignore);
    if (!final) {
      this.pending = now;
      this.pendingMs = performance.now() - started;
    }
    const pixels = unexplainedChanges(previous.after, now.frame, [], ignore);
    // The tree first: the effects must still hold in it, and what else changed in it is late news.
    // At the end of the path it is read whatever the pixels say: the goal ends on a checked tree.
    const tree =
      previous.elementEffects && previous.elements?.ok && (final || pixels.length > 0)
        ? await this.treeHeld(previous, now, ignore)
        : undefined;
    if (tree?.problem !== undefined) {
      return {
        index: previous.index,
        report: { ...previous.report, verified: false },
        failure: {
          category: 'effect-not-verified',
          message: `${previous.description}: its effect did not hold — ${tree.problem}, a moment after it was verified`,
          index: previous.index,
        },
      };
    }
    const onTree = [
      ...effectBoxes(tree?.found ?? [], tree?.elements ?? [], now.frame),
      ...newsRegions(tree?.late ?? []),
      ...(tree?.told ?? []),
    ];
    const changes = pixels.filter((c) => !onTree.some((r) => regionsIntersect(c, r)));
    if (changes.length === 0 && (tree?.late.length ?? 0) === 0) return undefined;
    const reverted = changes.filter((c) => previous.effects.some((e) => regionsIntersect(c, e)));
    if (reverted.length > 0) {
      const region = clampRegion(reverted[0]!, now.frame.width, now.frame.height);
      if (!previous.secret) {
        this.options.onProblem?.(previous.index, {
          kind: 'effect-not-verified',
          expected: crop(previous.after, region),
          actual: crop(now.frame, region),
          region,
          before: previous.after,
          after: now.frame,
        });
      }
      const where = reverted.map((r) => `[${r.x}, ${r.y}, ${r.width}, ${r.height}]`).join(', ');
      return {
        index: previous.index,
        report: { ...previous.report, verified: false },
        failure: {
          category: 'effect-not-verified',
          message: `${previous.description}: its effect did not hold — ${where} changed again on its own after it was verified`,
          index: previous.index,
        },
      };
    }
    const late = [
      ...(tree ? await this.settledNews(tree.late, now) : []),
      ...(changes.length > 0 ? await this.unexpected(previous.index, previous.after, now, onTree, ignore, previous.secret) : []),
    ];
    if (late.length === 0) return undefined;
    const report = { ...previous.report, unexpected: [...(previous.report.unexpected ?? []), ...late] };
    if (this.options.unexpectedChanges === 'warn') return { index: previous.index, report };
    return {
      index: previous.index,
      report,
      failure: {
        category: 'unexpected-change',
        message: `${previous.description}: it also changed, a moment later, what its path did not record: ${describeUnexpected(late)}`,
        index: previous.index,
      },
    };
  }

  /**
   * News of the tree less what changes on its own: where it is, the window is watched a moment
   * like a pixel change (a clock's label nobody recorded ticks again), and a place that changes
   * again joins the regions ignored for the rest of the replay.
   */
  private async settledNews(news: readonly UnexpectedChange[], after: Settled): Promise<UnexpectedChange[]> {
    if (news.length === 0) return [];
    const watched = await watchCandidates(
      this.stage,
      after.window,
      after.frame,
      news.map((n) => n.region),
    );
    this.seen.push(...watched.dynamic);
    return news.filter((n) => !watched.dynamic.includes(n.region));
  }

  /** The app's elements now, against those the last action verified on. */
  private async treeHeld(previous: Previous, now: Settled, ignore: readonly Region[]): Promise<TreeHeld | undefined> {
    const read = await snapshot(this.stage, now.window);
    if (!read.ok || read.elements.length === 0 || !previous.elements?.ok) return undefined;
    return treeHeld(previous.elements.elements, read.elements, previous.elementEffects ?? [], { dynamic: ignore, secret: previous.secret });
  }

  /**
   * The window before the next action. One that still shows exactly what the last action was
   * verified on is as settled as it was then, its elements as read then: waiting for quiet again
   * would only cost time. A change that comes later still shows, in the next action's comparison.
   * The look is one capture where the window was (none when the display reports that nothing
   * was drawn there since): a window that moved since shows other pixels there, and is waited on
   * from where it is now. Only an action whose effects showed is known
   * to be done: after one with nothing to show (a click that only focuses a field) the app may
   * still be painting, so the window is waited on as usual.
   */
  private async sinceVerified(previous: Previous, ignore: readonly Region[]): Promise<Settled> {
    if (previous.effects.length > 0) {
      const unchanged = (frame: Frame): Settled => ({
        frame,
        window: previous.window,
        settleMs: 0,
        stable: true,
        ...(previous.elements && { elements: previous.elements }),
      });
      // Told that nothing was drawn there since, the window shows that frame still.
      if (previous.drawing && !(await previous.drawing.drawn(performance.now()))) return unchanged(previous.after);
      const frame = await this.stage.grabber(previous.window)();
      if (framesEqual(previous.after, frame, ignore)) return unchanged(frame);
    }
    return settle(this.stage, { timeoutMs: this.options.settleTimeoutMs, ignore });
  }

  /**
   * The window for `holdMs` after the last action, ending early when one of its effects changes.
   * Told of drawing, a look with nothing drawn since the last one is no grab.
   */
  private async watchHeld(previous: Previous, ignore: readonly Region[]): Promise<Settled> {
    const window = (await this.stage.window()).region;
    const grab = this.stage.grabber(window);
    const started = Date.now();
    const drawing = previous.drawing;
    let frame = previous.after;
    const holdMs = holdAfterLast(this.slowestMs);
    while (Date.now() - started < holdMs) {
      await this.stage.wait(HOLD_POLL_MS);
      if (drawing && !(await drawing.drawn(performance.now()))) continue;
      drawing?.mark();
      frame = await grab();
      if (frame.width !== previous.after.width || frame.height !== previous.after.height) break;
      const changes = unexplainedChanges(previous.after, frame, [], ignore);
      if (changes.some((c) => previous.effects.some((e) => regionsIntersect(c, e)))) break;
    }
    return { frame, window, settleMs: Date.now() - started, stable: true };
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

/** Where the target's own feedback shows: its recorded feedback effects and its box, with a margin for a focus ring. */
function feedbackPlaces(step: ReplayStepInput, resolved: Resolved): Region[] {
  const { x, y } = resolved.offset;
  const effects = step.recorded.effects.filter((e) => kindOf(e) === 'feedback').flatMap((e) => [e.region, offsetRegion(e.region, x, y)]);
  return [...effects, ...targetBoxes(step, resolved)].map((r) => inflateRegion(r, EFFECT_THRESHOLDS.feedbackReachPx));
}

/** Where the action's target is now: its own look (hover, focus, pressed) is never unexpected. */
function targetBoxes(step: ReplayStepInput, resolved: Resolved): Region[] {
  const anchor = step.recorded.anchor;
  if (anchor) return [offsetRegion(anchor.box, resolved.offset.x, resolved.offset.y)];
  const point = resolved.points[0];
  return point ? [{ x: point.x - 28, y: point.y - 18, width: 56, height: 36 }] : [];
}

function effectProblem(check: EffectCheck, step: ReplayStepInput, before: Frame, after: Frame) {
  const region = clampRegion(check.region, after.width, after.height);
  const image = check.effect.image;
  return {
    kind: 'effect-not-verified' as const,
    ...(image ? { expected: step.image(image) } : {}),
    actual: crop(after, region),
    region,
    before,
    after,
  };
}

function notVerified(description: string, check: EffectCheck, changed: boolean, attempt: number): string {
  const { x, y, width, height } = check.effect.region;
  if (!changed)
    return `${description}: its effect did not verify — the screen did not change at all${attempt > 0 ? ', also when it was done again' : ''}`;
  return (
    `${description}: its effect did not verify — the region [${x}, ${y}, ${width}, ${height}] ` +
    (check.detail ?? `does not show what was recorded (${check.diffPixels} pixels differ)`)
  );
}
