/**
 * The images a goal leaves behind: the window before and after each action, at full size, and
 * for every problem an action had — its target not found, its effect not verified, a change
 * nobody recorded — the images that show it, boxed. Problem images are written under
 * `<reports>/evidence/<spec>/<goal>/` and referenced from summary.json (`actions[i].evidence`);
 * all of them go to the goal's Allure steps.
 */
import { join } from 'node:path';
import type { EvidenceFile, Frame, Region, Verdict } from '../domain.ts';
import type { Problem } from '../brain/outcome.ts';
import type { Rgba } from '../vision/types.ts';
import { cloneFrame, createFrame, encodePng, strokeRegion } from '../vision/frame.ts';
import type { AssertionResult } from '../brain/assert/types.ts';
import { pngOnce } from './png-once.ts';
import { compareFrames, diffCanvasSize } from '../vision/compare.ts';
import { writeFileAtomic } from '../paths/atomic.ts';
import type { ActionEvidence, ActionImages } from '../report/allure-goal.ts';

/** Where the target was recorded, what changed unexpectedly: boxes a reader tells apart. */
const RECORDED_BOX: Rgba = [0, 110, 255, 255];
const CANDIDATE_BOX: Rgba = [255, 140, 0, 255];
const PROBLEM_BOX: Rgba = [230, 0, 40, 255];

interface Named {
  readonly name: string;
  readonly png: Uint8Array;
}

interface Rendered {
  readonly files: Named[];
  readonly diff?: { expected: Uint8Array; actual: Uint8Array; diff: Uint8Array };
}

const boxed = (frame: Frame, boxes: readonly (readonly [Region | undefined, Rgba])[]): Uint8Array => {
  const out = cloneFrame(frame);
  for (const [region, colour] of boxes) if (region) strokeRegion(out, region, colour);
  return encodePng(out);
};

function render(problem: Problem): Rendered {
  switch (problem.kind) {
    case 'target-not-found':
      return {
        files: [
          {
            name: 'target not found (blue: where it was recorded, orange: the best candidate)',
            png: boxed(problem.window, [
              [problem.recorded, RECORDED_BOX],
              [problem.candidate, CANDIDATE_BOX],
            ]),
          },
        ],
      };
    case 'unexpected-change':
      return {
        files: [
          {
            name: 'unexpected change (before)',
            png: boxed(
              problem.before,
              problem.regions.map((r) => [r, PROBLEM_BOX] as const),
            ),
          },
          {
            name: 'unexpected change (after)',
            png: boxed(
              problem.after,
              problem.regions.map((r) => [r, PROBLEM_BOX] as const),
            ),
          },
        ],
      };
    case 'effect-not-verified': {
      const after: Named = {
        name: 'effect not verified (where it was looked for)',
        png: boxed(problem.after, [[problem.region, PROBLEM_BOX]]),
      };
      if (!problem.expected) return { files: [after] };
      const size = diffCanvasSize(problem.expected, problem.actual);
      const diffOut = createFrame(size.width, size.height);
      const result = compareFrames(problem.expected, problem.actual, diffOut, { diffImage: 'always' });
      const images = { expected: encodePng(problem.expected), actual: encodePng(problem.actual), diff: encodePng(result.diff ?? diffOut) };
      return {
        files: [
          after,
          { name: 'effect expected', png: images.expected },
          { name: 'effect actual', png: images.actual },
          { name: 'effect diff', png: images.diff },
        ],
        diff: images,
      };
    }
  }
}

const slug = (name: string): string =>
  name
    .replace(/\(.*\)/, '')
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** What was seen of each action while a goal ran: when it started and ended, what it was, its images and problems. */
export class GoalEvidence {
  private readonly seen = new Map<number, { start?: number; end?: number; description?: string; before?: Frame; after?: Frame }>();
  private readonly problems = new Map<number, Rendered[]>();

  /** The runner's action hook: action `index` begins now. */
  readonly started = (index: number, description: string): void => {
    this.seen.set(index, { start: Date.now(), description });
  };

  /** The brain's evidence hook: action `index` verified (or failed to), leaving these frames. */
  readonly collect = (index: number, before: Frame, after: Frame): void => {
    this.seen.set(index, { ...this.seen.get(index), end: Date.now(), before, after });
  };

  /** The brain's problem hook: what went wrong with action `index`, rendered as images at once. */
  readonly problem = (index: number, problem: Problem): void => {
    this.problems.set(index, [...(this.problems.get(index) ?? []), render(problem)]);
  };

  /**
   * Encodes the windows seen so far while the goal holds still for its final check, one a turn of
   * the event loop (tens of milliseconds each), so writing the reports after the verdict need not.
   */
  encodeAhead(): void {
    const frames = [...this.seen.values()].flatMap((s) => (s.before && s.after ? [s.before, s.after] : []));
    const next = (): void => {
      const frame = frames.shift();
      if (frame === undefined) return;
      pngOnce(frame);
      setImmediate(next);
    };
    setImmediate(next);
  }

  /** The full window before and after each action that left them, as PNG: the storyboard's last run. */
  windows(): Map<number, { readonly before: Uint8Array; readonly after: Uint8Array }> {
    const out = new Map<number, { before: Uint8Array; after: Uint8Array }>();
    for (const [index, s] of this.seen) if (s.before && s.after) out.set(index, { before: pngOnce(s.before), after: pngOnce(s.after) });
    return out;
  }

  actions(): Map<number, ActionEvidence> {
    const indices = new Set([...this.seen.keys(), ...this.problems.keys()]);
    return new Map(
      [...indices].map((index) => {
        const s = this.seen.get(index) ?? {};
        const rendered = this.problems.get(index) ?? [];
        const diff = rendered.find((r) => r.diff)?.diff;
        const files = rendered.flatMap((r) => r.files);
        const images: ActionImages = {
          // Full size: on a 1200-pixel window a thumbnail cannot tell which of two check boxes changed.
          ...(s.before && s.after && { before: pngOnce(s.before), after: pngOnce(s.after) }),
          ...(files.length > 0 && { evidence: files }),
          ...(diff && { diff }),
        };
        return [
          index,
          {
            ...(s.start !== undefined && { start: s.start }),
            ...(s.end !== undefined && { end: s.end }),
            ...(s.description !== undefined && { description: s.description }),
            ...(Object.keys(images).length > 0 && { images }),
          },
        ];
      }),
    );
  }

  /**
   * Writes the problem images under `<reportsDir>/evidence/<spec>/<goal>/` and returns the
   * verdict with each action's `evidence` pointing at them (paths relative to `reportsDir`).
   */
  write(reportsDir: string, verdict: Verdict): Verdict {
    if (this.problems.size === 0) return verdict;
    const dir = join('evidence', verdict.spec.replace(/\.ya?ml$/, ''), verdict.goal);
    const actions = verdict.actions.map((action, i) => {
      const rendered = this.problems.get(i);
      if (!rendered) return action;
      const evidence: EvidenceFile[] = rendered
        .flatMap((r) => r.files)
        .map((f, k) => {
          const file = join(dir, `action-${i + 1}-${k + 1}-${slug(f.name)}.png`);
          writeFileAtomic(join(reportsDir, file), f.png);
          return { name: f.name, file };
        });
      return { ...action, evidence: [...(action.evidence ?? []), ...evidence] };
    });
    return { ...verdict, actions };
  }
}

/** The window a failed text expectation was judged on: where it read boxed in blue, each word read in red. */
export function judgedImage(judged: NonNullable<AssertionResult['judged']>): Uint8Array {
  return boxed(judged.frame, [[judged.region, RECORDED_BOX], ...judged.words.map((w) => [w, PROBLEM_BOX] as const)]);
}
