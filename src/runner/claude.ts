/**
 * Builds the Claude planner (and the model locator that `--heal-with-model` uses) when an API key
 * is set. The model sees goals with their `${secret.X}` placeholders, never the values.
 */
import type { ResolvedOptions } from '../spec-file/defaults.ts';
import { placeholders, resolveTemplate } from '../spec-file/interpolate.ts';
import type { GoalRunInput } from '../brain/run-goal.ts';
import type { ClaudePlanner } from '../brain/planners/claude-planner.ts';
import { isPointTarget } from '../domain.ts';

export interface ClaudeFactories extends Pick<GoalRunInput, 'claude' | 'modelLocator'> {
  /** Model requests made so far by every planner these factories built. */
  calls(): number;
}

/** A request never waits past the goal's deadline, less this margin to report it. */
const REPORT_MARGIN_MS = 2000;

/**
 * @param deadlineAt when the goal's time runs out (epoch ms): no single model request may
 *   outlast it, so a model that never answers ends the goal with a clear message.
 * @param signal aborts a request in flight when the goal is stopped.
 */
export async function claudeFactories(
  options: ResolvedOptions,
  env: NodeJS.ProcessEnv,
  deadlineAt: number,
  signal?: AbortSignal,
): Promise<ClaudeFactories> {
  const planners: ClaudePlanner[] = [];
  const calls = (): number => planners.reduce((n, p) => n + p.modelCalls, 0);
  if (!env.ANTHROPIC_API_KEY || options.planner === 'rules') return { calls };
  // Anthropic's SDK is some 250 modules: a worker loads them only for a run that may ask the model.
  const { ClaudePlanner } = await import('../brain/planners/claude-planner.ts');
  const plannerFor = (goal: string, bounds = options.bounds): ClaudePlanner => {
    const secrets = placeholders(goal).filter((p) => p.namespace === 'secret');
    const resolved = resolveTemplate(goal, env);
    const planner = new ClaudePlanner({
      goal,
      model: options.model,
      secretNames: secrets.map((p) => p.name),
      secretValues: resolved.ok ? resolved.secrets : [],
      bounds,
      deadlineAt: deadlineAt - REPORT_MARGIN_MS,
      ...(signal ? { signal } : {}),
    });
    planners.push(planner);
    return planner;
  };
  return {
    calls,
    claude: (goal) => plannerFor(goal),
    modelLocator: () => {
      let located = 0;
      return {
        calls: () => located,
        // One click asked of the model; its coordinates are the answer, and nothing is performed.
        locate: async (frame, description) => {
          const planner = plannerFor(`Find the control this action was meant for: ${description}. Click it exactly once, then stop.`, {
            ...options.bounds,
            maxModelCalls: 2,
          });
          const decision = await planner.next({ frame, step: 0 });
          located += planner.modelCalls;
          if (decision.kind !== 'act' || decision.action.kind !== 'click' || !isPointTarget(decision.action.target)) return undefined;
          return decision.action.target;
        },
      };
    },
  };
}
