/**
 * Everything `retrace run` checks before it runs anything: every spec, every path file of the
 * goals to run, the goal filter, and goals that cannot be learned as configured. Any problem is
 * invalid input (exit 2), reported all at once, and nothing has been written.
 */
import type { GoalSpec, Spec } from '../spec-file/types.ts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Path } from '../domain.ts';
import { specDirName } from '../paths/location.ts';
import type { ResolvedOptions } from '../spec-file/defaults.ts';
import { loadSpec } from '../spec-file/load.ts';
import { parseRulesGoal } from '../brain/rules-grammar.ts';
import { noPathToLearn } from '../brain/no-path.ts';
import { PathStore } from '../paths/store.ts';
import { goalSource, isStale } from '../paths/source.ts';
import { InvalidInputError, InvalidInputErrors } from '../errors.ts';
import { decodePng } from '../vision/frame.ts';
import { outsideWindow, stepTargets } from '../spec-file/window-bounds.ts';
import { closest } from '../spec-file/suggest.ts';
import { ELEMENT_ROLE_NAMES } from '../desktop/index.ts';
import { ELEMENT_ROLES, isElementTarget } from '../domain.ts';
import { keyComboProblems } from '../spec-file/format.ts';

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
      ? [
          new InvalidInputError(
            { file: spec.id, line: e.line },
            `screenshot "${e.name}" has no baseline in ${relative(process.cwd(), dir) || dir} and --update-baselines none writes none; create it with a run that may (--update-baselines missing)`,
          ),
        ]
      : [],
  );
}

const shown = (file: string): string => relative(process.cwd(), file) || file;

/**
 * The baselines a goal's screenshot expectations compare with must decode: a corrupt one is
 * invalid input naming the file, not a decoder crash in the middle of a run.
 */
function corruptBaselines(baselinesDir: string, spec: Spec, goal: GoalSpec, checked: Set<string>): InvalidInputError[] {
  const dir = join(baselinesDir, specDirName(spec.id));
  if (!existsSync(dir)) return [];
  const names = goal.expect.flatMap((e) => (e.kind === 'screenshot' ? [`${e.name}-${process.platform}-`] : []));
  const files = readdirSync(dir).filter((f) => f.endsWith('.png') && names.some((n) => f.startsWith(n)));
  return files.flatMap((f) => {
    const file = join(dir, f);
    if (checked.has(file)) return [];
    checked.add(file);
    try {
      decodePng(readFileSync(file));
      return [];
    } catch (error) {
      return [
        new InvalidInputError(
          { file: shown(file) },
          `this baseline is not a readable PNG image (${(error as Error).message}); delete it to take a new one with --update-baselines missing`,
        ),
      ];
    }
  });
}

/** Without app.size, the window a goal's path was recorded in bounds its steps' points and its regions. */
const outsideRecordedWindow = (spec: Spec, goal: GoalSpec, path: Path, pathFile: string): InvalidInputError[] =>
  spec.app.size
    ? []
    : outsideWindow(goal, path.window).map((o) => {
        const expectation = o.expect === undefined ? undefined : goal.expect[o.expect];
        const at = o.step !== undefined ? `goal "${goal.id}", steps[${o.step}]` : `goal "${goal.id}", expect[${o.expect ?? 0}]`;
        return new InvalidInputError(
          { file: spec.id, line: expectation?.line ?? goal.line },
          `${at}: ${o.detail} that ${shown(pathFile)} was recorded in`,
        );
      });

/** Element targets and `element:` expectations name roles an app can publish: a misspelt one would only ever find nothing. */
const unknownRoles = (spec: Spec, goal: GoalSpec): InvalidInputError[] => {
  const problem = (role: string, at: string, line: number): InvalidInputError[] => {
    if (ELEMENT_ROLE_NAMES.has(role)) return [];
    const guess = closest(role, [...ELEMENT_ROLE_NAMES]);
    const hint = guess ? ` (did you mean "${guess}"?)` : '';
    return [
      new InvalidInputError(
        { file: spec.id, line },
        `goal "${goal.id}", ${at}: unknown role "${role}"${hint}; a role is retrace's (${ELEMENT_ROLES.join(', ')}) or the toolkit's own ("push button")`,
      ),
    ];
  };
  return [
    ...(goal.steps ?? []).flatMap((action, i) =>
      stepTargets(action).flatMap(({ target }) =>
        target && isElementTarget(target) ? problem(target.role, `steps[${i}]`, goal.line) : [],
      ),
    ),
    ...goal.expect.flatMap((e, i) => (e.kind === 'element' ? problem(e.role, `expect[${i}]`, e.line ?? goal.line) : [])),
  ];
};

/** `press <combo>` clauses of a rules goal hold combos the desktop can press. */
const badPressCombos = (spec: Spec, goal: GoalSpec): InvalidInputError[] => {
  const parsed = goal.steps || !goal.goal ? undefined : parseRulesGoal(goal.goal);
  if (!parsed?.ok) return [];
  return parsed.actions.flatMap((action) =>
    action.kind === 'key'
      ? keyComboProblems(action.combo).map(
          (p) => new InvalidInputError({ file: spec.id, line: goal.line }, `goal "${goal.id}": press ${p.detail}`),
        )
      : [],
  );
};

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
    errors.push(
      new InvalidInputError({ file: 'command line' }, '--planner claude needs ANTHROPIC_API_KEY to be set (or use --planner rules)'),
    );
  }
  const checkedBaselines = new Set<string>();
  for (const spec of specs) {
    for (const goal of spec.goals) {
      if (goals.length > 0 && !goals.includes(goal.id)) continue;
      let path: Path | undefined;
      try {
        path = store.read(spec.id, goal.id);
      } catch (error) {
        collect(errors, error);
        continue;
      }
      if (path) errors.push(...outsideRecordedWindow(spec, goal, path, store.locate(spec.id, goal.id).file));
      errors.push(
        ...corruptBaselines(baselinesDir, spec, goal, checkedBaselines),
        ...badPressCombos(spec, goal),
        ...unknownRoles(spec, goal),
      );
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
