/** Builds the Claude planner (and the model locator for healing) when an API key is set. */
import type { ResolvedOptions } from '../spec/defaults.ts';
import type { GoalRunInput } from '../brain/run-goal.ts';

export function claudeFactories(
  options: ResolvedOptions,
  env: NodeJS.ProcessEnv,
): Pick<GoalRunInput, 'claude' | 'modelLocator'> {
  if (!env.ANTHROPIC_API_KEY || options.planner === 'rules') return {};
  return {};
}
