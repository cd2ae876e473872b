/**
 * Replaying one goal's recorded path: walk to its start when the app is shared, replay every
 * action through the cycle, check the expectations, and propose a healed path beside the
 * original (never over it).
 */
import type { Path, RecordedAction, Region } from '../domain.ts';
import { clampRegion, isEmptyRegion } from '../vision/frame.ts';
import type { PathStore } from '../paths/store.ts';
import { fingerprint, sameState } from '../vision/fingerprint.ts';
import type { Stage } from './stage.ts';
import { ActionCycle } from './cycle.ts';
import { placePointer } from './pointer.ts';
import { replay, type Replay } from './replayer.ts';
import { NavigationGraph } from './graph.ts';
import { checkGoal, cycleOptions, expectationsBefore, type GoalOutcome, type GoalRunInput } from './goal.ts';

/** The replay of a goal and its outcome; `replay.failure` set when an action failed. */
export interface ReplayedGoal {
  readonly outcome: GoalOutcome;
  readonly replay: Replay;
}

export async function replayGoal(input: GoalRunInput, store: PathStore, stage: Stage, path: Path): Promise<ReplayedGoal> {
  const { spec, goal, options } = input;
  if (spec.app.restart === 'spec') await navigateToStart(input, store, stage, path);
  await placePointer(stage, path.pointer);
  const model = options.healWithModel ? input.modelLocator?.() : undefined;
  const before = await expectationsBefore(input, stage);
  input.hooks?.phase?.('replaying');
  const cycle = new ActionCycle(stage, { ...cycleOptions(input), ...(model ? { model: model.locate } : {}) });
  const done = await replay({
    cycle,
    path,
    asset: (name) => store.asset(spec.id, goal.id, name),
    onAction: (i, n, d) => input.hooks?.action?.(i, n, d),
  });
  const mode = done.healed ? 'healed' : 'replayed';
  const modelCalls = model?.calls() ?? 0;
  if (done.failure) {
    const { category, message, index } = done.failure;
    return {
      replay: done,
      outcome: { mode, actions: done.reports, assertions: [], modelCalls, mismatch: { category, message, failedAction: index } },
    };
  }
  const checked = await checkGoal(input, stage, path.actions, before);
  const { assertions } = checked;
  const warnings = [...checked.warnings];
  const reports = [...done.reports];
  // The goal ends on a checked tree: what changed late, after the expectations, is judged too.
  const last = reports.at(-1);
  const end = checked.mismatch || !last ? undefined : await cycle.endTree(path.actions, last);
  if (end) reports[end.index] = end.report;
  const mismatch =
    checked.mismatch ?? (end?.failure && { category: end.failure.category, message: end.failure.message, failedAction: end.failure.index });
  if (!mismatch && done.healed) {
    input.hooks?.phase?.('saving', 'proposing the healed path');
    // A goal that ends the app keeps the size its window had.
    const window = stage.app.exitInfo() ? path.window : (await stage.window()).region;
    try {
      await store.propose(inWindow(path, done.observed.actions, window), done.observed.assets);
    } catch (error) {
      // --learn off only reads its paths, from a folder that may be read-only: the heal is told, not kept.
      const code = refusedWrite(error);
      if (input.options.learn !== 'off' || code === undefined) throw error;
      warnings.push(`the healed path was not proposed: the paths folder cannot be written (${code}) and --learn is off`);
    }
  }
  return {
    replay: done,
    outcome: {
      mode,
      actions: reports,
      assertions,
      modelCalls,
      ...(mismatch ? { mismatch } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
    },
  };
}

/**
 * With one app for the whole spec, the screen may not be where this goal's path starts (an
 * earlier goal failed, or goals run in another order). Walks there along the paths of the spec's
 * other goals, when the graph knows a way; otherwise the replay itself reports the mismatch.
 */
async function navigateToStart(input: GoalRunInput, store: PathStore, stage: Stage, path: Path): Promise<void> {
  const first = path.actions[0];
  if (!first) return;
  const here = fingerprint((await stage.shoot()).frame, first.dynamic);
  if (sameState(here, first.before)) return;
  const others = input.spec.goals
    .filter((g) => g.id !== input.goal.id)
    .map((g) => store.read(input.spec.id, g.id))
    .filter((p): p is Path => p !== undefined);
  const route = new NavigationGraph([...others, path]).route(here, first.before);
  if (!route || route.length === 0) return;
  for (const edge of route) {
    input.hooks?.phase?.('navigating', `along "${edge.goal}"`);
    const walked = await replay({
      cycle: new ActionCycle(stage, cycleOptions(input, false)),
      path: edge.path,
      asset: (name) => store.asset(input.spec.id, edge.goal, name),
    });
    // A walk that went wrong leaves the screen elsewhere; the goal's own replay then says where.
    if (walked.failure) return;
  }
}

/**
 * The healed path in the window it was replayed in: what was found again in a window of another
 * size lies where that window put it, maybe past the recorded one. What replayed in place keeps
 * its recorded evidence, clipped to a smaller window (a region left wholly outside it is dropped).
 */
export function inWindow(
  path: Path,
  actions: readonly RecordedAction[],
  window: { readonly width: number; readonly height: number },
): Path {
  const size = { width: window.width, height: window.height };
  const inside = (r: Region): Region | undefined => {
    const clipped = clampRegion(r, size);
    return isEmptyRegion(clipped) ? undefined : clipped;
  };
  const fitted = actions.map((a) => ({
    ...a,
    ...(a.anchor && { anchor: { ...a.anchor, box: inside(a.anchor.box) ?? a.anchor.box } }),
    effects: a.effects.flatMap((e) => {
      const region = inside(e.region);
      return region ? [{ ...e, region }] : [];
    }),
    dynamic: a.dynamic.flatMap((r) => inside(r) ?? []),
  }));
  return { ...path, window: size, actions: fitted };
}

/** The code of a write the file system refused by its permissions (the error or one of its causes), if it is one. */
function refusedWrite(error: unknown): string | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return code;
  }
  return undefined;
}
