/**
 * The action cycle: the one way retrace does something to an application, shared by learning,
 * scripted steps and replay:
 *
 *   wait until stable → resolve the target → act → wait until stable → observe / verify
 *
 * Learning resolves a target by finding its text on screen and observes what the action changed
 * (the recording). Replay resolves it by the target ladder and verifies the recorded effects;
 * when it needed a rung below "recorded", or found an effect elsewhere, it observes the action
 * anew so a healed path can be proposed. A target not found or an effect not verified is an
 * outcome (a value), never an exception: exceptions are infrastructure faults only.
 */
import type { Action, ActionReport, Frame, FailureCategory, Point, RecordedAction, Region, ResolvedBy } from '../domain.ts';
import { isElementTarget, isPointTarget } from '../domain.ts';
import type { Element } from '../desktop/types.ts';
import { fingerprint } from '../vision/fingerprint.ts';
import { framesEqual } from '../vision/changes.ts';
import { crop } from '../vision/frame.ts';
import { containsSecret } from '../spec-file/interpolate.ts';
import type { Stage } from './stage.ts';
import { settle, type Settled } from './settle.ts';
import { locateText, centre } from './locate.ts';
import { act } from './element-act.ts';
import { locateElement, elementAnchorAt } from './element-target.ts';
import { elementChanges, readElements, verifyElementEffects } from './element-effects.ts';
import { describeAction, targetsOf } from './describe.ts';
import { makeAnchor, makeEffects, type AssetSink } from './observe.ts';
import { resolveTarget, type ModelLocator } from './ladder.ts';
import { verifyEffects, type EffectCheck } from './verify.ts';
import { CYCLE_LIMITS } from './thresholds.ts';

/** Receives the window before and after each action, for the report (never for a secret action). */
export type Evidence = (index: number, before: Frame, after: Frame) => void;

export interface CycleOptions {
  /** The longest wait for the screen to settle. */
  readonly settleTimeoutMs: number;
  /** Turns `${env.X}` / `${secret.X}` placeholders into values, only when acting. */
  readonly resolveText: (template: string) => string;
  /** How long a text target may take to appear while learning, and a `wait for` text. */
  readonly findTimeoutMs: number;
  /** The model rung of the ladder (only with --heal-with-model). */
  readonly model?: ModelLocator;
  readonly onEvidence?: Evidence;
  /** Receives every action's report as the action ends (a goal that breaks keeps what it did). */
  readonly onReport?: (report: ActionReport) => void;
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
    };

export interface ActionFailure {
  readonly category: Extract<FailureCategory, 'target-not-found' | 'effect-not-verified'>;
  /** Secret-free, one paragraph: what was expected and what the screen showed. */
  readonly message: string;
  /** 0-based index of the action in its path. */
  readonly index: number;
}

export interface ActionOutcome {
  readonly report: ActionReport;
  /**
   * The action as it is to be kept: the new recording (learning), the recorded action when it
   * replayed exactly, or the action observed anew when replay healed. Absent on failure.
   */
  readonly observed?: RecordedAction;
  /** Whether the action visibly changed the window. */
  readonly changed: boolean;
  /** Replay only: a rung below "recorded" was needed, or an effect was found elsewhere. */
  readonly healed: boolean;
  readonly failure?: ActionFailure;
}

/** Milliseconds of each phase of one action, in the order they happen. */
interface Phases {
  waitMs: number;
  resolveMs: number;
  actMs: number;
  settleMs: number;
  verifyMs: number;
}

/** Where the targets of an action were found. */
interface Resolved {
  readonly points: Point[];
  readonly resolvedBy: ResolvedBy;
  readonly offset: Point;
  /** The text read under the first target, when learning (the anchor's OCR text). */
  readonly text?: string;
}

type Unresolved = { readonly failure: string };

export class ActionCycle {
  /** How far the last resolved target had moved since recording. */
  private lastOffset: Point = { x: 0, y: 0 };

  constructor(
    private readonly stage: Stage,
    private readonly options: CycleOptions,
  ) {}

  async run(step: CycleStep): Promise<ActionOutcome> {
    const outcome = await this.cycle(step);
    this.options.onReport?.(outcome.report);
    return outcome;
  }

  private async cycle(step: CycleStep): Promise<ActionOutcome> {
    const action = step.kind === 'learn' ? step.action : step.recorded.action;
    if (action.kind === 'wait' || action.kind === 'wait-for') return this.waitStep(step, action);
    const started = performance.now();
    const phases: Phases = { waitMs: 0, resolveMs: 0, actMs: 0, settleMs: 0, verifyMs: 0 };
    const dynamic = step.kind === 'learn' ? step.dynamic : step.recorded.dynamic;
    const secret = action.kind === 'type' && containsSecret(action.text);
    const report = (extra: Pick<ActionReport, 'verified' | 'resolvedBy' | 'retries'>): ActionReport => ({
      kind: action.kind,
      ms: Math.round(performance.now() - started),
      settleMs: Math.round(phases.settleMs),
      verifyMs: Math.round(phases.verifyMs),
      waitMs: Math.round(phases.waitMs),
      resolveMs: Math.round(phases.resolveMs),
      actMs: Math.round(phases.actMs),
      retries: extra.retries,
      verified: extra.verified,
      resolvedBy: extra.resolvedBy,
      description: describeAction(action),
    });

    for (let attempt = 0; ; attempt++) {
      let mark = performance.now();
      const lap = (phase: keyof Phases): void => {
        const now = performance.now();
        phases[phase] += now - mark;
        mark = now;
      };
      const before = await settle(this.stage, { timeoutMs: this.options.settleTimeoutMs, ignore: dynamic });
      lap('waitMs');
      const resolved = step.kind === 'learn' ? await this.find(action, before) : await this.ladder(step, before);
      lap('resolveMs');
      if ('failure' in resolved) {
        const failure: ActionFailure = { category: 'target-not-found', message: resolved.failure, index: step.index };
        return { report: report({ verified: false, resolvedBy: 'recorded', retries: attempt }), changed: false, healed: false, failure };
      }
      // Elements before the action, to see what it changed in them (learning only).
      const elementsBefore = step.kind === 'learn' ? await readElements(this.stage, before.window) : undefined;
      const refused = await act(this.stage, action, resolved.points, before.window, this.options.resolveText);
      lap('actMs');
      if (refused !== undefined) {
        const where = step.kind === 'replay' ? `action ${step.index + 1} (${describeAction(action)})` : describeAction(action);
        const failure: ActionFailure = { category: 'target-not-found', message: `${where}: ${refused}`, index: step.index };
        return { report: report({ verified: false, resolvedBy: resolved.resolvedBy, retries: attempt }), changed: false, healed: false, failure };
      }

      if (step.kind === 'learn') {
        const after = await settle(this.stage, { timeoutMs: this.options.settleTimeoutMs, ignore: dynamic }, {
          changeFrom: before.frame,
          reactMs: CYCLE_LIMITS.learnReactMs,
        });
        lap('settleMs');
        const observed = await this.observe(action, before, after, resolved, dynamic, secret, step.assets, undefined, elementsBefore);
        lap('verifyMs');
        if (!secret) this.options.onEvidence?.(step.index, before.frame, after.frame);
        return {
          report: report({ verified: true, resolvedBy: 'recorded', retries: 0 }),
          observed,
          changed: observed.effects.length > 0,
          healed: false,
        };
      }

      const { recorded } = step;
      const reactMs = Math.max(CYCLE_LIMITS.replayReactMinMs, recorded.settleMs * CYCLE_LIMITS.replayReactFactor);
      const settleOptions = { timeoutMs: this.options.settleTimeoutMs, ignore: dynamic };
      let after = await settle(this.stage, settleOptions, recorded.effects.length > 0 ? { changeFrom: before.frame, reactMs } : undefined);
      lap('settleMs');
      const verify = (shot: Settled): Promise<EffectCheck[]> =>
        this.stage.guard(verifyEffects(this.stage.reader, recorded, step.image, before.frame, shot.frame, resolved.offset));
      let checks = await verify(after);
      // An app that stalls mid-change (a spinner that skips frames) can look settled too soon.
      // While the screen keeps changing within the reaction window, wait and look again.
      const patience = Date.now() + reactMs;
      while (checks.some((c) => !c.verified) && Date.now() < patience) {
        const later = await settle(this.stage, settleOptions, { changeFrom: after.frame, reactMs: Math.max(0, patience - Date.now()) });
        if (framesEqual(later.frame, after.frame, dynamic)) break;
        after = later;
        checks = await verify(after);
      }
      const failed = checks.find((c) => !c.verified);
      // What the action changed in the app's elements must hold too, exactly.
      const elementMiss = failed || !recorded.elements?.length ? undefined : await verifyElementEffects(this.stage, recorded.elements, after.window, reactMs);
      lap('verifyMs');
      const changed = !framesEqual(before.frame, after.frame, dynamic);
      if ((failed || elementMiss) && !changed && attempt < CYCLE_LIMITS.maxRetries) continue;
      // The window before and after is evidence for a failed action as much as for a passed one.
      if (!recorded.secret) this.options.onEvidence?.(step.index, before.frame, after.frame);
      if (failed || elementMiss) {
        const message = failed ? notVerified(step.index, action, failed, changed) : `action ${step.index + 1} (${describeAction(action)}): its effect did not verify — ${elementMiss}`;
        const failure: ActionFailure = { category: 'effect-not-verified', message, index: step.index };
        return { report: report({ verified: false, resolvedBy: resolved.resolvedBy, retries: attempt }), changed, healed: false, failure };
      }
      // The element rung finding its element where it was recorded is a clean replay, not a heal.
      const inPlace = resolved.resolvedBy === 'recorded' || (resolved.resolvedBy === 'element' && resolved.offset.x === 0 && resolved.offset.y === 0);
      const healed = !inPlace || checks.some((c) => c.moved);
      // An action that replayed exactly keeps its recorded evidence (and images) in a proposal.
      const observed = healed ? await this.observe(action, before, after, resolved, dynamic, recorded.secret === true, step.assets, recorded) : recorded;
      return {
        report: report({ verified: true, resolvedBy: resolved.resolvedBy, retries: attempt }),
        observed,
        changed,
        healed,
      };
    }
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
        const hit = await locateElement(this.stage, target, this.options.resolveText, { window: before.window, timeoutMs: this.options.findTimeoutMs });
        if ('failure' in hit) return { failure: `${describeAction(action)}: ${hit.failure}` };
        points.push(hit.point);
        continue;
      }
      const found = await locateText(this.stage, this.options.resolveText(target.text), { first: before, timeoutMs: this.options.findTimeoutMs });
      if (!found.hit) return { failure: `${describeAction(action)}: no such text on screen (OCR read: "${found.read}")` };
      points.push(centre(found.hit.box));
      if (i === 0) text = target.text;
    }
    return { points, resolvedBy: 'recorded', offset: { x: 0, y: 0 }, ...(text !== undefined ? { text } : {}) };
  }

  /** Replay: each target by the ladder; an action without a target acts where the last one moved. */
  private async ladder(step: Extract<CycleStep, { kind: 'replay' }>, before: Settled): Promise<Resolved | Unresolved> {
    const { recorded, index } = step;
    const description = describeAction(recorded.action);
    const targets = targetsOf(recorded.action);
    const points: Point[] = [];
    let resolvedBy: ResolvedBy = 'recorded';
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
        ...(this.options.model ? { model: this.options.model } : {}),
      });
      if (resolution.point === undefined) {
        return {
          failure:
            `action ${index + 1} (${description}): target not found — best template score ${resolution.bestScore.toFixed(2)}` +
            (resolution.ocrRead ? `; OCR read: "${resolution.ocrRead}"` : ''),
        };
      }
      points.push(resolution.point);
      if (i === 0) {
        resolvedBy = resolution.resolvedBy;
        offset = resolution.offset;
        this.lastOffset = offset;
      }
    }
    return { points, resolvedBy, offset };
  }

  /** What the action did, as a path keeps it: the anchor of its target and the regions it changed. */
  private async observe(
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
    const text = secret ? undefined : recorded ? recorded.anchor?.text : (resolved.text ?? (point ? await this.readUnder(before.frame, point) : undefined));
    const pixelAnchor = point && (!recorded || recorded.anchor) ? makeAnchor(before.frame, point, text, assets) : undefined;
    // The element under the target, as the app publishes it (read now when healing a replay).
    const elementsNow = elementsBefore ?? (recorded && point ? await readElements(this.stage, after.window) : undefined);
    const element = point && elementsNow ? elementAnchorAt(elementsNow, point) : undefined;
    const anchor = pixelAnchor && element ? { ...pixelAnchor, element } : pixelAnchor;
    const effects = await this.stage.guard(makeEffects(before.frame, after.frame, dynamic, secret, assets, this.stage.reader));
    const elementsAfter = elementsBefore ? await readElements(this.stage, after.window) : undefined;
    const elements = recorded ? recorded.elements : elementsBefore && elementsAfter ? elementChanges(elementsBefore, elementsAfter, { dynamic, secret, ...(element && { target: element }) }) : undefined;
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
    };
  }

  /** `wait N ms` and `wait for "T"`: nothing is done to the app, so nothing is verified. */
  private async waitStep(step: CycleStep, action: Extract<Action, { kind: 'wait' | 'wait-for' }>): Promise<ActionOutcome> {
    const started = performance.now();
    let failure: ActionFailure | undefined;
    if (action.kind === 'wait') {
      await this.stage.wait(action.ms);
    } else {
      const found = await locateText(this.stage, this.options.resolveText(action.text), {
        timeoutMs: action.timeoutMs ?? this.options.findTimeoutMs,
      });
      if (!found.hit) {
        const where = step.kind === 'replay' ? `action ${step.index + 1} (${describeAction(action)})` : describeAction(action);
        failure = { category: 'target-not-found', message: `${where}: the text never appeared (OCR read: "${found.read}")`, index: step.index };
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

function notVerified(index: number, action: Action, check: EffectCheck, changed: boolean): string {
  const { x, y, width, height } = check.effect.region;
  return (
    `action ${index + 1} (${describeAction(action)}): its effect did not verify — ` +
    (changed
      ? `the region [${x}, ${y}, ${width}, ${height}] does not show what was recorded (${check.diffPixels} pixels differ)`
      : 'the screen did not change at all')
  );
}
