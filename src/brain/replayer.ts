/**
 * Deterministic replay of a recorded path, with zero model calls unless healing with the model
 * is allowed. Per action: wait until stable, resolve the target by the ladder, act, wait until
 * stable, verify the recorded effects. An action whose effects do not verify is retried only
 * while the screen still shows the state from before it, so nothing is ever done twice.
 */
import type { ActionReport, Frame, Path, Point, RecordedAction, ResolvedBy } from '../domain.ts';
import { GoalFailure } from '../errors.ts';
import { decodePng } from '../vision/frame.ts';
import { framesEqual } from '../vision/changes.ts';
import type { Stage } from './stage.ts';
import { settle, type SettleOptions, type Settled } from './settle.ts';
import { perform } from './perform.ts';
import { resolveTarget, type ModelLocator } from './resolve.ts';
import { checkEffect, checkEffectText, type EffectCheck } from './verify.ts';
import { describeAction, targetsOf } from './describe.ts';
import { locateText } from './locate.ts';
import { makeAnchor, makeEffects, type AssetSink } from './observe.ts';
import type { Evidence } from './recorder.ts';
import { fingerprint } from '../vision/fingerprint.ts';
import { setTimeout as delay } from 'node:timers/promises';

export interface ReplayOptions {
  readonly settle: Omit<SettleOptions, 'ignore'>;
  readonly resolveText: (template: string) => string;
  /** How long a `wait for` text may take to appear (timeouts.actionMs). */
  readonly findTimeoutMs: number;
  /** Reads an image of the path. */
  readonly asset: (name: string) => Uint8Array;
  readonly model?: ModelLocator;
  /** Receives the window before and after each action, for the report (not for secret actions). */
  readonly onEvidence?: Evidence;
  /** Called before each action, for progress. */
  readonly onAction?: (index: number, total: number, description: string) => void;
}

export interface ReplayResult {
  readonly reports: ActionReport[];
  /** True when any action needed a rung below "recorded" or found its effect elsewhere. */
  readonly healed: boolean;
  /** The path as seen in this replay: proposed beside the original when healed. */
  readonly observed: { readonly actions: RecordedAction[]; readonly assets: AssetSink };
  readonly modelCalls: number;
}

/** Evidence of a failed verification, for the report. */
export interface VerificationFailure {
  readonly expected?: Frame;
  readonly actual: Frame;
  readonly checks: readonly EffectCheck[];
}

/** How many times an action that left the screen untouched is tried again. */
const MAX_RETRIES = 1;

export class Replayer {
  private readonly images = new Map<string, Frame>();
  /** Reports of the actions replayed so far (all of them once `replay` returns). */
  readonly reports: ActionReport[] = [];
  /** How far the last resolved target had moved since recording. */
  private lastOffset: Point = { x: 0, y: 0 };

  constructor(
    private readonly stage: Stage,
    private readonly options: ReplayOptions,
  ) {}

  private image(name: string): Frame {
    let frame = this.images.get(name);
    if (!frame) {
      frame = decodePng(this.options.asset(name));
      this.images.set(name, frame);
    }
    return frame;
  }

  async replay(path: Path): Promise<ReplayResult> {
    const { reports } = this;
    const observed = { actions: [] as RecordedAction[], assets: new Map() as AssetSink };
    let healed = false;
    let modelCalls = 0;
    for (const [index, recorded] of path.actions.entries()) {
      this.options.onAction?.(index, path.actions.length, describeAction(recorded.action));
      const outcome = await this.replayAction(recorded, index, observed);
      reports.push(outcome.report);
      healed ||= outcome.healed;
      if (outcome.report.resolvedBy === 'model') modelCalls += 1;
    }
    return { reports, healed, observed, modelCalls };
  }

  private async replayAction(
    recorded: RecordedAction,
    index: number,
    observed: ReplayResult['observed'],
  ): Promise<{ report: ActionReport; healed: boolean }> {
    const started = performance.now();
    const { action } = recorded;
    const settleOptions = { ...this.options.settle, ignore: recorded.dynamic };
    const description = describeAction(action);

    if (action.kind === 'wait') {
      await this.stage.guard(delay(action.ms));
    } else if (action.kind === 'wait-for') {
      const found = await locateText(this.stage, this.options.resolveText(action.text), {
        timeoutMs: action.timeoutMs ?? this.options.findTimeoutMs,
      });
      if (!found.hit) {
        throw new GoalFailure('target-not-found', `action ${index + 1} (${description}): the text never appeared (OCR read: "${found.read}")`, { failedAction: index });
      }
    }
    if (action.kind === 'wait' || action.kind === 'wait-for') {
      observed.actions.push(recorded);
      const report: ActionReport = { kind: action.kind, ms: Math.round(performance.now() - started), settleMs: 0, verifyMs: 0, verified: true, resolvedBy: 'recorded', description };
      return { report, healed: false };
    }

    for (let attempt = 0; ; attempt++) {
      const before = await settle(this.stage, settleOptions);
      const targets = targetsOf(action);
      const points: Point[] = [];
      let resolvedBy: ResolvedBy = 'recorded';
      // An action with no target (a key, typing) acts where the last target was: if the layout
      // moved, its effects moved with it.
      let offset: Point = targets.length === 0 ? this.lastOffset : { x: 0, y: 0 };
      for (const [i, target] of targets.entries()) {
        // Only the first target has a recorded anchor; a drag's end moves with its start.
        const anchor = i === 0 ? recorded.anchor : undefined;
        if (i > 0 && 'x' in target) {
          points.push({ x: target.x + offset.x, y: target.y + offset.y });
          continue;
        }
        const resolution = await resolveTarget({
          stage: this.stage,
          shot: before,
          anchor,
          anchorImage: anchor ? this.image(anchor.image) : undefined,
          target,
          resolveText: this.options.resolveText,
          description,
          ...(this.options.model ? { model: this.options.model } : {}),
        });
        if (resolution.point === undefined) {
          throw new GoalFailure(
            'target-not-found',
            `action ${index + 1} (${description}): target not found — best template score ${resolution.bestScore.toFixed(2)}` +
              (resolution.ocrRead ? `; OCR read: "${resolution.ocrRead}"` : ''),
            { failedAction: index },
          );
        }
        points.push(resolution.point);
        if (i === 0) {
          resolvedBy = resolution.resolvedBy;
          offset = resolution.offset;
          this.lastOffset = offset;
        }
      }

      await this.stage.guard(perform(this.stage.desktop.input, action, points, before.window, this.options.resolveText));
      const reactMs = Math.max(1500, recorded.settleMs * 3);
      let after = await settle(this.stage, settleOptions, recorded.effects.length > 0 ? { changeFrom: before.frame, reactMs } : undefined);
      const verifyStarted = performance.now();
      let checks = await this.verify(recorded, before, after, offset);
      // An app that stalls mid-change (a spinner that skips frames) can look settled too soon.
      // While the screen keeps changing within the reaction window, wait and look again.
      const patience = Date.now() + reactMs;
      while (checks.some((c) => !c.verified) && Date.now() < patience) {
        const later = await settle(this.stage, settleOptions, { changeFrom: after.frame, reactMs: Math.max(0, patience - Date.now()) });
        if (framesEqual(later.frame, after.frame, recorded.dynamic)) break;
        after = later;
        checks = await this.verify(recorded, before, after, offset);
      }
      const verifyMs = Math.round(performance.now() - verifyStarted);
      const failed = checks.find((c) => !c.verified);
      if (failed) {
        const untouched = framesEqual(before.frame, after.frame, recorded.dynamic);
        if (untouched && attempt < MAX_RETRIES) continue;
        // The failed action is reported too, unverified, with the screen it left behind.
        if (!recorded.secret) this.options.onEvidence?.(index, before.frame, after.frame);
        this.reports.push({
          kind: action.kind,
          ms: Math.round(performance.now() - started),
          settleMs: Math.round(after.settleMs),
          verifyMs,
          verified: false,
          resolvedBy,
          description,
        });
        throw new EffectNotVerified(index, description, failed, untouched, after, failed.effect.image ? this.image(failed.effect.image) : undefined);
      }

      if (!recorded.secret) this.options.onEvidence?.(index, before.frame, after.frame);
      const healed = resolvedBy !== 'recorded' || checks.some((c) => c.moved);
      // An action that replayed exactly keeps its recorded evidence (and images) in a proposal.
      if (healed) await this.observe(recorded, before, after, points[0], observed);
      else observed.actions.push(recorded);
      return {
        healed,
        report: {
          kind: action.kind,
          ms: Math.round(performance.now() - started),
          settleMs: Math.round(after.settleMs),
          verifyMs,
          verified: true,
          resolvedBy,
          description,
        },
      };
    }
  }

  /** Checks every recorded effect: by image first, then by its words where the layout moved. */
  private async verify(recorded: RecordedAction, before: Settled, after: Settled, offset: Point): Promise<EffectCheck[]> {
    const checks: EffectCheck[] = [];
    for (const effect of recorded.effects) {
      const check = checkEffect(effect, effect.image ? this.image(effect.image) : undefined, before.frame, after.frame, offset);
      checks.push(check.verified ? check : await this.stage.guard(checkEffectText(this.stage.reader, check, before.frame, after.frame, recorded.dynamic)));
    }
    return checks;
  }

  /** Records the action as it happened now, so a healed replay can propose an updated path. */
  private async observe(recorded: RecordedAction, before: Settled, after: Settled, point: Point | undefined, observed: ReplayResult['observed']): Promise<void> {
    const anchor = point && recorded.anchor
      ? makeAnchor(before.frame, point, recorded.anchor.text, observed.assets)
      : undefined;
    observed.actions.push({
      ...recorded,
      ...(anchor ? { anchor } : {}),
      before: fingerprint(before.frame, recorded.dynamic),
      after: fingerprint(after.frame, recorded.dynamic),
      effects: await this.stage.guard(makeEffects(before.frame, after.frame, recorded.dynamic, recorded.secret === true, observed.assets, this.stage.reader)),
      settleMs: Math.round(after.settleMs),
    });
  }
}

/** A recorded effect did not happen: a product mismatch, carrying the images that show it. */
export class EffectNotVerified extends GoalFailure {
  constructor(
    readonly actionIndex: number,
    description: string,
    readonly check: EffectCheck,
    readonly untouched: boolean,
    readonly after: Settled,
    readonly expected: Frame | undefined,
  ) {
    const { x, y, width, height } = check.effect.region;
    super(
      'effect-not-verified',
      `action ${actionIndex + 1} (${description}): its effect did not verify — ` +
        (untouched
          ? 'the screen did not change at all'
          : `the region [${x}, ${y}, ${width}, ${height}] does not show what was recorded (${check.diffPixels} pixels differ)`),
      { failedAction: actionIndex },
    );
  }
}
