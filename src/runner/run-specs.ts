/** The spec files of a vitest run as the main process sees them: for those that load, their name, app and goals. */
import type { RunContext } from './context.ts';
import { loadSpec } from '../spec-file/load.ts';
import { describeForDisplay } from '../spec-file/interpolate.ts';

export interface RunSpec {
  /** The spec's path relative to the project root, as in summary.json. */
  readonly id: string;
  readonly name: string;
  /** The app's launch command, secrets masked. */
  readonly app: string;
  /** The ids of the goals this run runs (`--goal` applied). */
  readonly goals: readonly string[];
}

/** The spec in `file`; undefined when it does not load (the run reports that spec as broken). */
export function runSpecOf(file: string, context: RunContext): RunSpec | undefined {
  try {
    const spec = loadSpec(file, { root: context.root, env: process.env });
    const goals = spec.goals.map((g) => g.id).filter((id) => context.goals.length === 0 || context.goals.includes(id));
    return { id: spec.id, name: spec.name, app: describeForDisplay(spec.app.launch), goals };
  } catch {
    return undefined;
  }
}
