/**
 * Builds the Claude planner (and the model locator that `--heal-with-model` uses) when an API key
 * is set. The model sees goals with their `${secret.X}` placeholders, never the values.
 */
import type { ResolvedOptions } from '../spec/defaults.ts';
import { placeholders, resolveTemplate } from '../spec/interpolate.ts';
import type { GoalRunInput } from '../brain/run-goal.ts';
import { ClaudePlanner } from '../brain/planners/claude-planner.ts';
import { isTextTarget } from '../domain.ts';

export function claudeFactories(options: ResolvedOptions, env: NodeJS.ProcessEnv): Pick<GoalRunInput, 'claude' | 'modelLocator'> {
  if (!env.ANTHROPIC_API_KEY || options.planner === 'rules') return {};
  const plannerFor = (goal: string, bounds = options.bounds): ClaudePlanner => {
    const secrets = placeholders(goal).filter((p) => p.namespace === 'secret');
    const resolved = resolveTemplate(goal, env);
    return new ClaudePlanner({
      goal,
      model: options.model,
      secretNames: secrets.map((p) => p.name),
      secretValues: resolved.ok ? resolved.secrets : [],
      bounds,
    });
  };
  return {
    claude: (goal) => plannerFor(goal),
    modelLocator: () => {
      let calls = 0;
      return {
        calls: () => calls,
        // One click asked of the model; its coordinates are the answer, and nothing is performed.
        locate: async (frame, description) => {
          const planner = plannerFor(`Find the control this action was meant for: ${description}. Click it exactly once, then stop.`, { ...options.bounds, maxModelCalls: 2 });
          const decision = await planner.next({ frame, step: 0 });
          calls += planner.modelCalls;
          if (decision.kind !== 'act' || decision.action.kind !== 'click' || isTextTarget(decision.action.target)) return undefined;
          return decision.action.target;
        },
      };
    },
  };
}
