/**
 * The offline planner: a goal written in the rules grammar is already a plan. Targets are found
 * by OCR when each action is performed, so the planner itself never looks at the screen.
 */
import type { Action } from '../../domain.ts';
import type { Decision, Observation, Planner } from './types.ts';

export class RulesPlanner implements Planner {
  readonly name = 'rules';
  readonly modelCalls = 0;
  readonly tokens = 0;
  private index = 0;

  constructor(private readonly plan: readonly Action[]) {}

  async next(observation: Observation): Promise<Decision> {
    if (observation.previous?.error) {
      return { kind: 'done', reason: 'error', message: observation.previous.error };
    }
    const action = this.plan[this.index++];
    return action ? { kind: 'act', action } : { kind: 'done', reason: 'goal_achieved' };
  }
}
