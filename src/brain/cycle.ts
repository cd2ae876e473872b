/**
 * The action cycle: the one way retrace does something to an application, shared by learning,
 * scripted steps and replay:
 *
 *   wait until stable → resolve the target → act → wait until stable → observe / verify
 *
 * Learning resolves a target by finding its text on screen and observes what the action changed
 * (the recording). Replay resolves it by the target ladder, verifies the recorded effects and
 * looks for changes nobody recorded (replay-step.ts); when it needed a rung below "recorded", or
 * found an effect elsewhere, it observes the action anew so a healed path can be proposed. A
 * target not found or an effect not verified is an outcome (a value), never an exception:
 * exceptions are infrastructure faults only.
 */
import type { Action, ActionReport, Frame, Point, RecordedAction, Region, ResolvedBy, RungTry } from '../domain.ts';
import { isElementTarget, isPointTarget } from '../domain.ts';
import type { Element } from '../desktop/types.ts';
import { fingerprint } from '../vision/fingerprint.ts';
import { crop } from '../vision/frame.ts';
import { containsSecret } from '../spec-file/interpolate.ts';
import type { Stage } from './stage.ts';
import { settle, type Settled } from './settle.ts';
import { locateText, centre } from './locate.ts';
import { act } from './element-act.ts';
import { locateElement, elementAnchorAt } from './element-target.ts';
import { asElementEvidence, elementChanges, focusMoves, readElements } from './element-effects.ts';
import { describeAction, describeElementEffect, targetsOf } from '../spec-file/describe.ts';
import { makeAnchor, makeEffects, withBeforeLine, type AssetSink } from './observe.ts';
import { resolveTarget, type ModelLocator } from './ladder.ts';
import { CYCLE_LIMITS } from './thresholds.ts';
import type { ActionFailure, ActionOutcome, DetailSink, Held, ProblemSink } from './outcome.ts';
import { ReplayStep, type Phases } from './replay-step.ts';
import { endedAction, hasEnded, unlessEnded } from './exit.ts';

export type { ActionFailure, ActionOutcome, Held } from './outcome.ts';

/** How often learning reads the elements again while a typed text is not in them yet. */
const TYPED_POLL_MS = 50;

/** Receives the window before and after each action, for the report (never for a secret action). */
export type Evidence = (index: number, before: Frame, after: Frame) => void;

export interface CycleOptions {
  /** The longest wait for the screen to settle. */
  readonly settleTimeoutMs: number;
  /** Turns `${env.X}` / `${secret.X}` placeholders into values, only when acting. */
  readonly resolveText: (template: string) => string;
  /**
   * One action's time limit (timeouts.actionMs): how long a text target may take to appear while
   * learning, a `wait for` text, and a replayed action to react before it may be done again.
   */
  readonly actionTimeoutMs: number;
  /** A retry fails the goal (--strict). */
  readonly strict?: boolean;
  /** What a change nobody recorded does to the goal. @default 'fail' */
  readonly unexpectedChanges?: 'fail' | 'warn';
  /** The model rung of the ladder (only with --heal-with-model). */
  readonly model?: ModelLocator;
  readonly onEvidence?: Evidence;
  /** Receives the images that show a failure or an unexpected change. */
  readonly onProblem?: ProblemSink;
  /** Receives every action's report as the action ends (a goal that breaks keeps what it did). */
  readonly onReport?: (report: ActionReport) => void;
  /** Receives how each replayed action found its target and effects (a trace). */
  readonly onDetail?: DetailSink;
}

/** One action to do: learned (planned now) or replayed (from a recorded path). */
export type CycleStep =
  | {
      readonly kind: 'learn';
      readonly action: Action;
      readonly index: number;
      /** Regions seen changing on their own before learning began. */
      readonly dynamic: readonly Region[];
      /** Where the recording's images go. */
      readonly assets: AssetSink;
    }
  | {
      readonly kind: 'replay';
      readonly recorded: RecordedAction;
      readonly index: number;
      /** Decodes an image of the path. */
      readonly image: (name: string) => Frame;
      /** Where the images of a re-observed (healed) action go. */
      readonly assets: AssetSink;
      /**
       * The path records what appeared and went in the app's elements (format 3): any other
       * change of its elements is news. Older paths recorded only changed properties.
       */
      readonly treeRecorded?: boolean;
    };

/** Where the targets of an action were found. */
export interface Resolved {
  readonly points: Point[];
  readonly resolvedBy: ResolvedBy;
  readonly offset: Point;
  /** The text read under the first target, when learning (the anchor's OCR text). */
  readonly text?: string;
  /** Replay: what each rung of the ladder saw of the first target. */
  readonly tried?: readonly RungTry[];
}

export interface Unresolved {
  readonly failure: string;
  /** Where the target's anchor was recorded, and the best place a rung found: evidence. */
  readonly recorded?: Region;
  readonly candidate?: Region;
  readonly tried?: readonly RungTry[];
}

export class ActionCycle {
  /** How far the last resolved target had moved since recording. */
  private lastOffset: Point = { x: 0, y: 0 };
  /** What replay remembers from one action to the next. */
  private readonly replaying: ReplayStep;

  constructor(
    readonly stage: Stage,
    readonly options: CycleOptions,
  ) {
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

  private async cycle(step: CycleStep): Promise<ActionOutcome> {
    const action = step.kind === 'learn' ? step.action : step.recorded.action;
    if (action.kind === 'wait' || action.kind === 'wait-for') return this.waitStep(step, action);
    // A replayed action's wait before it may have been spent looking at the last one (hold).
    const waited = step.kind === 'replay' ? this.replaying.waited : 0;
    const started = performance.now() - waited;
    const phases: Phases = { waitMs: waited, resolveMs: 0, actMs: 0, settleMs: 0, verifyMs: 0 };
    this.stage.resetRetries();
    const report = (extra: Pick<ActionReport, 'verified' | 'resolvedBy' | 'retries'>): ActionReport => ({
      kind: action.kind,
      ms: Math.round(performance.now() - started),
      settleMs: Math.round(phases.settleMs),
      verifyMs: Math.round(phases.verifyMs),
      waitMs: Math.round(phases.waitMs),
      resolveMs: Math.round(phases.resolveMs),
      actMs: Math.round(phases.actMs),
      retries: extra.retries + this.stage.retriesNoted,
      verified: extra.verified,
      resolvedBy: extra.resolvedBy,
      description: describeAction(action),
    });
    if (step.kind === 'replay') return this.replaying.run(step, phases, report);

    let mark = performance.now();
    const lap = (phase: keyof Phases): void => {
      const now = performance.now();
      phases[phase] += now - mark;
      mark = now;
    };
    const { dynamic } = step;
    const before = await settle(this.stage, { timeoutMs: this.options.settleTimeoutMs, ignore: dynamic });
    lap('waitMs');
    const resolved = await this.find(action, before);
    lap('resolveMs');
    if ('failure' in resolved) {
      const failure: ActionFailure = { category: 'target-not-found', message: resolved.failure, index: step.index };
      return { report: report({ verified: false, resolvedBy: 'recorded', retries: 0 }), changed: false, healed: false, failure };
    }
    // Elements before the action, to see what it changed in them.
    const elementsBefore = await readElements(this.stage, before.window);
    const refused = await unlessEnded(this.stage, this.act(action, resolved, before));
    lap('actMs');
    if (typeof refused === 'string') {
      const failure: ActionFailure = { category: 'target-not-found', message: `${describeAction(action)}: ${refused}`, index: step.index };
      return { report: report({ verified: false, resolvedBy: 'recorded', retries: 0 }), changed: false, healed: false, failure };
    }
    // An app that ends under the action never settles again: its end is what the action did.
    const after =
      refused ??
      (await unlessEnded(
        this.stage,
        settle(
          this.stage,
          { timeoutMs: this.options.settleTimeoutMs, ignore: dynamic, quietMs: CYCLE_LIMITS.recordQuietMs },
          {
            changeFrom: before.frame,
            reactMs: CYCLE_LIMITS.learnReactMs,
          },
        ),
      ));
    const secret = action.kind === 'type' && containsSecret(action.text);
    const settled = hasEnded(after) || secret || !elementsBefore ? after : await this.awaitTyped(action, after, dynamic);
    lap('settleMs');
    if (hasEnded(settled)) {
      const point = resolved.points[0];
      const anchor = point ? makeAnchor(before.frame, point, secret ? undefined : resolved.text, step.assets) : undefined;
      const observed = endedAction(action, before, dynamic, settled.ended, phases.settleMs, anchor);
      return { report: report({ verified: true, resolvedBy: 'recorded', retries: 0 }), observed, changed: true, healed: false };
    }
    const seen = await this.observe(action, before, settled, resolved, dynamic, secret, step.assets, undefined, elementsBefore);
    const observed = step.index === 0 ? withBeforeLine(seen, before.frame, step.assets) : seen;
    lap('verifyMs');
    if (!secret) this.options.onEvidence?.(step.index, before.frame, settled.frame);
    return {
      report: {
        ...report({ verified: true, resolvedBy: 'recorded', retries: 0 }),
        ...(observed.elements?.length && { elements: observed.elements.map(describeElementEffect) }),
      },
      observed,
      changed: observed.effects.length > 0,
      healed: false,
    };
  }

  /**
   * Learning: text typed into an app that publishes its elements is recorded once its elements
   * show it — a toolkit may take the keys while its window is still being activated, and paint
   * them after the window looked quiet — waiting up to the action's time limit, then for the
   * window to settle. A text no element ever shows (a field that reformats it) costs that wait once.
   */
  private async awaitTyped(action: Action, after: Settled, dynamic: readonly Region[]): Promise<Settled> {
    if (action.kind !== 'type') return after;
    const typed = this.options.resolveText(action.text);
    const deadline = Date.now() + this.options.actionTimeoutMs;
    for (let waited = false; ; waited = true) {
      const elements = await readElements(this.stage, after.window);
      if (elements === undefined) return after;
      if (elements.some((e) => (e.text ?? '').includes(typed))) {
        return waited
          ? settle(this.stage, { timeoutMs: this.options.settleTimeoutMs, ignore: dynamic, quietMs: CYCLE_LIMITS.recordQuietMs })
          : after;
      }
      if (Date.now() >= deadline) return after;
      await this.stage.wait(TYPED_POLL_MS);
    }
  }

  /**
   * Does the action at its resolved targets.
   * @returns undefined when done, else why it could not be done (a `select` without its option).
   */
  act(action: Action, resolved: Resolved, before: Settled): Promise<string | undefined> {
    return act(this.stage, action, resolved.points, before.window, this.options.resolveText);
  }

  /** Learning: each text target is looked for on screen, waiting for it to appear. */
  private async find(action: Action, before: Settled): Promise<Resolved | Unresolved> {
    const points: Point[] = [];
    let text: string | undefined;
    for (const [i, target] of targetsOf(action).entries()) {
      if (isPointTarget(target)) {
        points.push(target);
        continue;
      }
      if (isElementTarget(target)) {
        const hit = await locateElement(this.stage, target, this.options.resolveText, {
          window: before.window,
          timeoutMs: this.options.actionTimeoutMs,
        });
        if ('failure' in hit) return { failure: `${describeAction(action)}: ${hit.failure}` };
        points.push(hit.point);
        continue;
      }
      const found = await locateText(this.stage, this.options.resolveText(target.text), {
        first: before,
        timeoutMs: this.options.actionTimeoutMs,
      });
      if (!found.hit) return { failure: `${describeAction(action)}: no such text on screen (OCR read: "${found.read}")` };
      points.push(centre(found.hit.box));
      if (i === 0) text = target.text;
    }
    return { points, resolvedBy: 'recorded', offset: { x: 0, y: 0 }, ...(text !== undefined ? { text } : {}) };
  }

  /** Replay: each target by the ladder; an action without a target acts where the last one moved. */
  /** `withModel: false` leaves out the model rung: a look again while waiting costs no request. */
  async ladder(step: Extract<CycleStep, { kind: 'replay' }>, before: Settled, withModel = true): Promise<Resolved | Unresolved> {
    const { recorded, index } = step;
    const description = describeAction(recorded.action);
    const targets = targetsOf(recorded.action);
    const points: Point[] = [];
    let resolvedBy: ResolvedBy = 'recorded';
    let tried: readonly RungTry[] | undefined;
    // An action with no target (a key, typing) acts where the last target was: if the layout
    // moved, its effects moved with it.
    let offset: Point = targets.length === 0 ? this.lastOffset : { x: 0, y: 0 };
    for (const [i, target] of targets.entries()) {
      // Only the first target has a recorded anchor; a drag's end moves with its start.
      if (i > 0 && isPointTarget(target)) {
        points.push({ x: target.x + offset.x, y: target.y + offset.y });
        continue;
      }
      const anchor = i === 0 ? recorded.anchor : undefined;
      const resolution = await resolveTarget({
        stage: this.stage,
        shot: before,
        anchor,
        anchorImage: anchor ? step.image(anchor.image) : undefined,
        target,
        resolveText: this.options.resolveText,
        description,
        ...(this.options.model && withModel ? { model: this.options.model } : {}),
      });
      if (resolution.point === undefined) {
        return {
          failure:
            `action ${index + 1} (${description}): target not found — best template score ${resolution.bestScore.toFixed(2)}` +
            (resolution.ocrRead ? `; OCR read: "${resolution.ocrRead}"` : ''),
          ...(anchor ? { recorded: anchor.box } : {}),
          ...(resolution.candidate ? { candidate: resolution.candidate } : {}),
          ...(i === 0 ? { tried: resolution.tried } : {}),
        };
      }
      points.push(resolution.point);
      if (i === 0) {
        resolvedBy = resolution.resolvedBy;
        tried = resolution.tried;
        offset = resolution.offset;
        this.lastOffset = offset;
      }
    }
    return { points, resolvedBy, offset, ...(tried ? { tried } : {}) };
  }

  /** What the action did, as a path keeps it: the anchor of its target and the regions it changed. */
  async observe(
    action: Action,
    before: Settled,
    after: Settled,
    resolved: Resolved,
    dynamic: readonly Region[],
    secret: boolean,
    assets: AssetSink,
    recorded?: RecordedAction,
    elementsBefore?: readonly Element[],
  ): Promise<RecordedAction> {
    const point = resolved.points[0];
    // A healed action keeps the text it was recorded with; a learned one reads what is under it.
    const text = secret
      ? undefined
      : recorded
        ? recorded.anchor?.text
        : (resolved.text ?? (point ? await this.readUnder(before.frame, point) : undefined));
    const pixelAnchor = point && (!recorded || recorded.anchor) ? makeAnchor(before.frame, point, text, assets) : undefined;
    // The element under the target, as the app publishes it (read now when healing a replay).
    const elementsNow = elementsBefore ?? (recorded && point ? await readElements(this.stage, after.window) : undefined);
    const element = point && elementsNow ? elementAnchorAt(elementsNow, point) : undefined;
    const anchor = pixelAnchor && element ? { ...pixelAnchor, element } : pixelAnchor;
    const elementsAfter = elementsBefore ? await readElements(this.stage, after.window) : undefined;
    const focusOnly = elementsBefore && elementsAfter ? focusMoves(elementsBefore, elementsAfter).focusOnly : undefined;
    const pixels = await this.stage.guard(
      makeEffects({
        before: before.frame,
        after: after.frame,
        dynamic,
        secret,
        sink: assets,
        reader: this.stage.reader,
        ...(anchor ? { target: anchor.box } : {}),
        ...(focusOnly?.length ? { focusOnly } : {}),
        known: {
          ...(action.kind === 'type' && !secret && { typed: this.options.resolveText(action.text) }),
          ...(elementsAfter && { elements: elementsAfter }),
        },
      }),
    );
    const elements = recorded
      ? recorded.elements
      : elementsBefore && elementsAfter
        ? elementChanges(elementsBefore, elementsAfter, { dynamic, secret, ...(element && { target: element }) })
        : undefined;
    // Where the app's elements tell what changed, they decide; the pixels there are evidence.
    const effects = elementsBefore && elementsAfter && !secret ? asElementEvidence(pixels, elements ?? [], elementsAfter, element) : pixels;
    return {
      action,
      ...(anchor ? { anchor } : {}),
      before: fingerprint(before.frame, dynamic),
      after: fingerprint(after.frame, dynamic),
      effects,
      ...(elements?.length ? { elements } : {}),
      dynamic,
      settleMs: Math.round(after.settleMs),
      ...(secret ? { secret: true } : {}),
      // A healed proposal keeps what the path waits for before its first action.
      ...(recorded?.beforeLine && { beforeLine: recorded.beforeLine }),
    };
  }

  /** `wait N ms` and `wait for "T"`: nothing is done to the app, so nothing is verified. */
  private async waitStep(step: CycleStep, action: Extract<Action, { kind: 'wait' | 'wait-for' }>): Promise<ActionOutcome> {
    const started = performance.now();
    // The screen is meant to change while waiting: the last action is looked at no more.
    this.replaying.forget();
    let failure: ActionFailure | undefined;
    if (action.kind === 'wait') {
      await this.stage.wait(action.ms);
    } else {
      const found = await locateText(this.stage, this.options.resolveText(action.text), {
        timeoutMs: action.timeoutMs ?? this.options.actionTimeoutMs,
      });
      if (!found.hit) {
        const where = step.kind === 'replay' ? `action ${step.index + 1} (${describeAction(action)})` : describeAction(action);
        failure = {
          category: 'target-not-found',
          message: `${where}: the text never appeared (OCR read: "${found.read}")`,
          index: step.index,
        };
      }
    }
    const ms = Math.round(performance.now() - started);
    const report: ActionReport = {
      kind: action.kind,
      ms,
      settleMs: 0,
      verifyMs: 0,
      waitMs: ms,
      resolveMs: 0,
      actMs: 0,
      retries: 0,
      verified: failure === undefined,
      resolvedBy: 'recorded',
      description: describeAction(action),
    };
    if (failure) return { report, changed: false, healed: false, failure };
    if (step.kind === 'replay') return { report, observed: step.recorded, changed: false, healed: false };
    const shot = await settle(this.stage, { timeoutMs: this.options.settleTimeoutMs, ignore: step.dynamic });
    const print = fingerprint(shot.frame, step.dynamic);
    const observed: RecordedAction = { action, before: print, after: print, effects: [], dynamic: step.dynamic, settleMs: 0 };
    return { report, observed, changed: false, healed: false };
  }

  /** OCR text under a point, so a coordinate-only target still gets a text rung on replay. */
  private async readUnder(frame: Frame, point: Point): Promise<string | undefined> {
    const box: Region = { x: Math.max(0, point.x - 40), y: Math.max(0, point.y - 14), width: 80, height: 28 };
    const text = (await this.stage.guard(this.stage.reader.read(crop(frame, box), { layout: 'line' }))).text.trim();
    return text.length > 0 ? text : undefined;
  }
}
