/**
 * Everything `retrace run` checks before it runs anything: every spec, every path file of the
 * goals to run, the goal filter, and goals that cannot be learned as configured. Any problem is
 * invalid input (exit 2), reported all at once, and nothing has been written.
 */
import type { GoalSpec, Spec } from '../spec-file/types.ts';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { specDirName } from '../paths/location.ts';
import type { ResolvedOptions } from '../spec-file/defaults.ts';
import { loadSpec } from '../spec-file/load.ts';
import { parseRulesGoal } from '../brain/rules-grammar.ts';
import { noPathToLearn } from '../brain/goal.ts';
import { PathStore } from '../paths/store.ts';
import { goalSource, isStale } from '../paths/source.ts';
import { InvalidInputError, InvalidInputErrors } from '../errors.ts';

export interface Preflight {
  readonly specs: readonly Spec[];
}

const collect = (errors: InvalidInputError[], error: unknown): void => {
  if (error instanceof InvalidInputErrors) errors.push(...error.errors);
  else if (error instanceof InvalidInputError) errors.push(error);
  else throw error;
};

/**
 * Under `--update-baselines none` no baseline can be written, so a screenshot expectation with
 * none at all (for any size) cannot pass: say so before running anything.
 */
function missingBaselines(baselinesDir: string, spec: Spec, goal: GoalSpec): InvalidInputError[] {
  const dir = join(baselinesDir, specDirName(spec.id));
  const present = existsSync(dir) ? readdirSync(dir) : [];
  return goal.expect.flatMap((e) =>
    e.kind === 'screenshot' && !present.some((f) => f.startsWith(`${e.name}-${process.platform}-`))
      ? [new InvalidInputError({ file: spec.id, line: e.line }, `screenshot "${e.name}" has no baseline in ${relative(process.cwd(), dir) || dir} and --update-baselines none writes none; create it with a run that may (--update-baselines missing)`)]
      : [],
  );
}

export function preflight(
  root: string,
  files: readonly string[],
  options: ResolvedOptions,
  goals: readonly string[],
  env: NodeJS.ProcessEnv,
  baselinesDir: string,
): Preflight {
  const errors: InvalidInputError[] = [];
  const specs: Spec[] = [];
  for (const file of files) {
    try {
      specs.push(loadSpec(file, { root, env }));
    } catch (error) {
      collect(errors, error);
    }
  }
  const known = new Set(specs.flatMap((s) => s.goals.map((g) => g.id)));
  for (const id of goals) {
    if (!known.has(id) && errors.length === 0) {
      errors.push(new InvalidInputError({ file: 'command line' }, `--goal ${id}: no goal with this id in ${files.length} spec file(s)`));
    }
  }
  const store = new PathStore(options.paths);
  const claude = options.planner === 'claude' || (options.planner === 'auto' && Boolean(env.ANTHROPIC_API_KEY));
  if (options.planner === 'claude' && !env.ANTHROPIC_API_KEY) {
    errors.push(new InvalidInputError({ file: 'command line' }, '--planner claude needs ANTHROPIC_API_KEY to be set (or use --planner rules)'));
  }
  for (const spec of specs) {
    for (const goal of spec.goals) {
      if (goals.length > 0 && !goals.includes(goal.id)) continue;
      let path;
      try {
        path = store.read(spec.id, goal.id);
      } catch (error) {
        collect(errors, error);
        continue;
      }
      if (options.updateBaselines === 'none') errors.push(...missingBaselines(baselinesDir, spec, goal));
      const needsLearning = options.learn === 'force' || !path || isStale(path.source, goalSource(goal));
      if (needsLearning && !goal.goal && !goal.steps && options.learn !== 'off') {
        errors.push(new InvalidInputError({ file: spec.id, line: goal.line }, noPathToLearn(spec.id, goal.id, Boolean(path))));
        continue;
      }
      if (!needsLearning || goal.steps || claude || options.learn === 'off') continue;
      const parsed = parseRulesGoal(goal.goal ?? '');
      if (!parsed.ok) {
        errors.push(
          new InvalidInputError(
            { file: spec.id, line: goal.line },
            `goal "${goal.id}" must be learned, but it is outside the rules grammar (${parsed.error}) and no ANTHROPIC_API_KEY is set. Set the key to learn it with Claude, or write it in the grammar:\n${parsed.grammar}`,
          ),
        );
      }
    }
  }
  if (errors.length > 0) throw new InvalidInputErrors(errors);
  return { specs };
}
