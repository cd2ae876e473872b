/**
 * The recorder performs actions on the live application and keeps, for each one, the evidence
 * a replay verifies against: the anchor of its target, the fingerprints before and after,
 * and the regions it changed with their images. Used for learning and for `steps:` goals.
 */
import type { Action, ActionReport, Frame, Point, RecordedAction, Region } from '../domain.ts';
import { isTextTarget } from '../domain.ts';
import { GoalFailure } from '../errors.ts';
import { fingerprint } from '../vision/fingerprint.ts';
import { crop } from '../vision/frame.ts';
import { containsSecret } from '../spec-file/interpolate.ts';
import type { Stage } from './stage.ts';
import { settle, type SettleOptions } from './settle.ts';
import { locateText, centre } from './locate.ts';
import { perform } from './perform.ts';
import { describeAction, targetsOf } from './describe.ts';
import { makeAnchor, makeEffects, type AssetSink } from './observe.ts';
import { setTimeout as delay } from 'node:timers/promises';

export interface RecorderOptions {
  readonly settle: SettleOptions;
  /** How long a learned action waits for the screen to start changing. @default 400 */
  readonly reactMs: number;
  /** How long a text target may take to appear. @default 3000 */
  readonly findTimeoutMs: number;
  readonly resolveText: (template: string) => string;
  /** Receives the window before and after each action, for the report (not for secret actions). */
  readonly onEvidence?: Evidence;
}

export type Evidence = (index: number, before: Frame, after: Frame) => void;

export interface RecordOutcome {
  readonly report: ActionReport;
  readonly changed: boolean;
}

export class Recorder {
  readonly actions: RecordedAction[] = [];
  /** Reports of the actions recorded so far, index-aligned with `actions`. */
  readonly reports: ActionReport[] = [];
  readonly assets: AssetSink = new Map();

  constructor(
    private readonly stage: Stage,
    private readonly options: RecorderOptions,
  ) {}

  /** Performs and records one action. A text target that is not on screen is a GoalFailure. */
  async record(action: Action): Promise<RecordOutcome> {
    const started = performance.now();
    const { ignore } = this.options.settle;
    const before = await settle(this.stage, this.options.settle);

    if (action.kind === 'wait' || action.kind === 'wait-for') {
      return this.recordWait(action, started);
    }

    const points: Point[] = [];
    const texts: (string | undefined)[] = [];
    for (const target of targetsOf(action)) {
      if (!isTextTarget(target)) {
        points.push(target);
        texts.push(undefined);
        continue;
      }
      const found = await locateText(this.stage, this.options.resolveText(target.text), {
        first: before,
        timeoutMs: this.options.findTimeoutMs,
      });
      if (!found.hit) {
        throw new GoalFailure(
          'target-not-found',
          `${describeAction(action)}: no such text on screen (OCR read: "${found.read}")`,
          { failedAction: this.actions.length },
        );
      }
      points.push(centre(found.hit.box));
      texts.push(target.text);
    }

    const secret = action.kind === 'type' && containsSecret(action.text);
    const anchorPoint = points[0];
    const anchor =
      anchorPoint === undefined
        ? undefined
        : makeAnchor(before.frame, anchorPoint, secret ? undefined : (texts[0] ?? (await this.readUnder(before.frame, anchorPoint))), this.assets);

    await this.stage.guard(perform(this.stage.desktop.input, action, points, before.window, this.options.resolveText));
    const after = await settle(this.stage, this.options.settle, {
      changeFrom: before.frame,
      reactMs: this.options.reactMs,
    });
    const effects = await this.stage.guard(makeEffects(before.frame, after.frame, ignore, secret, this.assets, this.stage.reader));
    const recorded: RecordedAction = {
      action,
      ...(anchor ? { anchor } : {}),
      before: fingerprint(before.frame, ignore),
      after: fingerprint(after.frame, ignore),
      effects,
      dynamic: ignore,
      settleMs: Math.round(after.settleMs),
      ...(secret ? { secret: true } : {}),
    };
    if (!secret) this.options.onEvidence?.(this.actions.length, before.frame, after.frame);
    this.actions.push(recorded);
    return this.done(action, started, Math.round(after.settleMs), effects.length > 0);
  }

  private async recordWait(action: Extract<Action, { kind: 'wait' | 'wait-for' }>, started: number): Promise<RecordOutcome> {
    if (action.kind === 'wait') {
      await this.stage.guard(delay(action.ms));
    } else {
      const found = await locateText(this.stage, this.options.resolveText(action.text), {
        timeoutMs: action.timeoutMs ?? this.options.findTimeoutMs,
      });
      if (!found.hit) {
        throw new GoalFailure('target-not-found', `${describeAction(action)}: the text never appeared (OCR read: "${found.read}")`, {
          failedAction: this.actions.length,
        });
      }
    }
    const shot = await settle(this.stage, this.options.settle);
    const print = fingerprint(shot.frame, this.options.settle.ignore);
    this.actions.push({ action, before: print, after: print, effects: [], dynamic: this.options.settle.ignore, settleMs: 0 });
    return this.done(action, started, 0, false);
  }

  private done(action: Action, started: number, settleMs: number, changed: boolean): RecordOutcome {
    const report: ActionReport = {
      kind: action.kind,
      ms: Math.round(performance.now() - started),
      settleMs,
      verifyMs: 0,
      verified: true,
      resolvedBy: 'recorded',
      description: describeAction(action),
    };
    this.reports.push(report);
    return { changed, report };
  }

  /** OCR text under a point, so a coordinate-only target still gets a text rung on replay. */
  private async readUnder(frame: Frame, point: Point): Promise<string | undefined> {
    const box: Region = { x: Math.max(0, point.x - 40), y: Math.max(0, point.y - 14), width: 80, height: 28 };
    const text = (await this.stage.guard(this.stage.reader.read(crop(frame, box), { layout: 'line' }))).text.trim();
    return text.length > 0 ? text : undefined;
  }
}
