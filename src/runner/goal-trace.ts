/**
 * What a goal leaves for its trace while it runs — each action's full window before and after,
 * how its target and effects were found, the boxes of its problems, the goal's console lines —
 * and, once its verdict is known, the trace folder (`src/report/trace.ts`) when the run keeps it.
 * Frames come from the stage, which has already painted over every secret typed; text is masked.
 */
import type { ActionDetail, Frame, Region, Verdict } from '../domain.ts';
import type { Problem } from '../brain/outcome.ts';
import type { AssertionResult } from '../brain/assert/types.ts';
import type { TraceMode } from '../spec-file/defaults.ts';
import { decodePng } from '../vision/frame.ts';
import { pngOnce } from './png-once.ts';
import { keepsTrace, traceDir, writeTrace, type TraceAction, type TraceExpectation, type TraceImage } from '../report/trace.ts';

interface Seen {
  description?: string;
  before?: Frame;
  after?: Frame;
  detail?: ActionDetail;
  recorded?: Region;
  candidate?: Region;
}

export class GoalTrace {
  private readonly seen = new Map<number, Seen>();
  private readonly lines: string[] = [];

  constructor(private readonly mask: (text: string) => string) {}

  private at(index: number): Seen {
    const s = this.seen.get(index) ?? {};
    this.seen.set(index, s);
    return s;
  }

  readonly started = (index: number, description: string): void => {
    this.at(index).description = description;
  };

  readonly collect = (index: number, before: Frame, after: Frame): void => {
    Object.assign(this.at(index), { before, after });
  };

  /** What OCR and the app's elements said is masked: a secret the app shows may be in it. */
  readonly detail = (index: number, detail: ActionDetail): void => {
    const m = this.mask;
    this.at(index).detail = {
      rungs: detail.rungs,
      effects: detail.effects.map((e) => ({
        ...e,
        ...(e.text !== undefined && { text: m(e.text) }),
        ...(e.detail !== undefined && { detail: m(e.detail) }),
      })),
      ...(detail.elements && {
        elements: {
          ...detail.elements,
          expected: detail.elements.expected.map(m),
          ...(detail.elements.problem !== undefined && { problem: m(detail.elements.problem) }),
        },
      }),
    };
  };

  /** A target not found leaves no before/after: its window is the before, with the boxes looked at. */
  readonly problem = (index: number, problem: Problem): void => {
    if (problem.kind !== 'target-not-found') return;
    const s = this.at(index);
    s.before ??= problem.window;
    if (problem.recorded) s.recorded = problem.recorded;
    if (problem.candidate) s.candidate = problem.candidate;
  };

  /** A line the run printed about the goal. */
  readonly line = (text: string): void => {
    this.lines.push(this.mask(text));
  };

  /**
   * Writes the trace under `<reportsDir>/traces/<spec>/<goal>/` when `mode` keeps it for this
   * verdict; returns its folder, or undefined when none was written.
   */
  write(reportsDir: string, mode: TraceMode, verdict: Verdict, assertions: readonly AssertionResult[]): string | undefined {
    if (!keepsTrace(mode, verdict.status)) return undefined;
    const images = new Map<string, Uint8Array>();
    const image = (name: string, frame: Frame | undefined): TraceImage | undefined => {
      if (!frame) return undefined;
      images.set(name, pngOnce(frame));
      return { file: name, width: frame.width, height: frame.height };
    };
    const png = (name: string, bytes: Uint8Array): TraceImage => {
      images.set(name, bytes);
      const { width, height } = decodePng(bytes);
      return { file: name, width, height };
    };
    const count = Math.max(
      verdict.actions.length,
      ...[...this.seen.keys()].map((i) => i + 1),
      verdict.failedAction !== undefined ? verdict.failedAction + 1 : 0,
    );
    const actions: TraceAction[] = [];
    for (let index = 0; index < count; index++) {
      const s = this.seen.get(index) ?? {};
      const report = verdict.actions[index];
      const before = image(`action-${index + 1}-before.png`, s.before);
      const after = image(`action-${index + 1}-after.png`, s.after);
      actions.push({
        index,
        description: this.mask(report?.description ?? s.description ?? report?.kind ?? `action ${index + 1}`),
        ...(report && { report }),
        ...(before && { before }),
        ...(after && { after }),
        ...(s.recorded && { recorded: s.recorded }),
        ...(s.candidate && { candidate: s.candidate }),
        ...(s.detail && { detail: s.detail }),
        ...(verdict.failedAction === index && verdict.message && { failure: this.mask(verdict.message) }),
      });
    }
    const expectations = assertions.map((a, i): TraceExpectation => {
      const frame = a.judged ? image(`expect-${i + 1}-judged.png`, a.judged.frame) : undefined;
      return {
        description: a.description,
        passed: a.ok,
        message: this.mask(a.message),
        ...(frame && { frame, words: a.judged?.words ?? [] }),
        ...(a.judged?.region && { region: a.judged.region }),
        ...(a.images && {
          diff: {
            expected: png(`expect-${i + 1}-expected.png`, a.images.expected),
            actual: png(`expect-${i + 1}-actual.png`, a.images.actual),
            diff: png(`expect-${i + 1}-diff.png`, a.images.diff),
          },
        }),
      };
    });
    const dir = traceDir(reportsDir, verdict.spec, verdict.goal);
    writeTrace(
      dir,
      {
        spec: verdict.spec,
        goal: verdict.goal,
        status: verdict.status,
        mode: verdict.mode,
        durationMs: verdict.durationMs,
        ...(verdict.message && { message: this.mask(verdict.message) }),
        ...(verdict.category && { category: verdict.category }),
        ...(verdict.failedAction !== undefined && { failedAction: verdict.failedAction }),
        actions,
        expectations,
        console: this.lines,
      },
      images,
    );
    return dir;
  }
}
