/**
 * The Claude planner: Anthropic's computer-use tool drives the application, one Action per
 * `next()`. When the app publishes its elements, each request lists them with refs, and a custom
 * tool, `click_element`, clicks one by its ref: the action then names the element by role and
 * name, so the path replays by the element rung.
 *
 * Turn structure. The model answers with zero or more tool calls. Each call that maps to
 * Actions is handed out as decisions, one per `next()`; the observation that follows carries
 * the call's outcome. Calls that need no action (a screenshot, a pointer move) and calls that
 * are refused (a point outside the window, an unsupported action) are answered on the spot,
 * without a step. Once every call of the turn has its tool_result, they go back in one user
 * message, the last one carrying the new screenshot, and the model is asked again. A turn
 * without tool calls ends the goal. After a failed call the rest of its turn is answered as
 * not performed, so the model never acts on a screen it did not expect.
 */
import Anthropic, { APIConnectionTimeoutError, type Middleware } from '@anthropic-ai/sdk';
import type {
  BetaContentBlockParam,
  BetaTextBlockParam,
  BetaMessageParam,
  BetaToolUnion,
  BetaToolResultBlockParam,
  BetaToolUseBlock,
  MessageCreateParamsNonStreaming,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { Action, Frame, Point } from '../../domain.ts';
import { InfrastructureError } from '../../errors.ts';
import { CLICK_ELEMENT, clickElementDeclaration, planComputerCall, planElementClick, type CallPlan } from './claude-actions.ts';
import {
  assertMessage,
  assertNoSecrets,
  assistantContent,
  imageBlock,
  pruneScreenshots,
  responseText,
  textBlock,
  toolResult,
  usedTokens,
} from './claude-conversation.ts';
import { toModelError } from './claude-errors.ts';
import { elementsMessage, goalMessage, IMPOSSIBLE_MARKER, systemPrompt } from './claude-prompt.ts';
import { takeScreenshot, type ShotGeometry } from './claude-screenshot.ts';
import { computerToolDeclaration, resolveComputerTool, resolveModel, type ResolvedComputerTool } from './computer-tools.ts';
import type { Decision, LearningBounds, Observation, OfferedElement, Planner } from './types.ts';

export interface ClaudePlannerOptions {
  /** The goal, with `${secret.NAME}` placeholders: never resolved values. */
  readonly goal: string;
  /** Names the model may type as `${secret.NAME}`. */
  readonly secretNames: readonly string[];
  /**
   * Resolved secret values, used only to check that no request carries one (defensive).
   * @default []
   */
  readonly secretValues?: readonly string[];
  /** @default process.env.ANTHROPIC_API_KEY (read by the SDK) */
  readonly apiKey?: string;
  /** @default process.env.ANTHROPIC_BASE_URL, else https://api.anthropic.com (read by the SDK) */
  readonly baseURL?: string;
  /** @default RETRACE_MODEL, else DEFAULT_MODEL of computer-tools.ts */
  readonly model?: string;
  /** A computer-use tool type, forcing the version. @default RETRACE_COMPUTER_TOOL */
  readonly computerTool?: string;
  /** Model calls and tokens allowed for this goal. */
  readonly bounds: Pick<LearningBounds, 'maxModelCalls' | 'maxTokens'>;
  /** Screenshots kept in the conversation; older ones become "[screenshot omitted]". @default 3 */
  readonly keepScreenshots?: number;
  /** `max_tokens` of each response. @default 2048 */
  readonly maxOutputTokens?: number;
  /** Retries of a request on 408/409/429/5xx and connection faults, with the SDK's backoff. @default 4 */
  readonly maxRetries?: number;
  /** Time limit of one HTTP attempt, in ms. @default 60000 */
  readonly timeoutMs?: number;
  /**
   * When the goal's time runs out (epoch ms). A request never outlasts it, and is not retried
   * when it is the deadline that limits it.
   */
  readonly deadlineAt?: number;
  /** Aborts a request in flight when the goal is stopped (its deadline). */
  readonly signal?: AbortSignal;
  /** A client to use instead of building one (tests, custom transports). */
  readonly client?: Anthropic;
}

export const CLAUDE_PLANNER_DEFAULTS = Object.freeze({
  keepScreenshots: 3,
  maxOutputTokens: 2048,
  maxRetries: 4,
  timeoutMs: 60_000,
});

/** The call whose actions are being performed. */
interface CallInFlight {
  readonly call: BetaToolUseBlock;
  readonly remaining: Action[];
  readonly ack: string;
}

const COMPUTER = 'computer';
const OLD_LIST = '[element list omitted: the newest one describes the screen]';

export class ClaudePlanner implements Planner {
  readonly name = 'claude';
  readonly seesElements = true;
  readonly model: string;
  /** The computer-use tool version in use, with a note when it was not straight from the table. */
  readonly computerTool: ResolvedComputerTool;

  private readonly client: Anthropic;
  private readonly goal: string;
  private readonly secretNames: readonly string[];
  private readonly secretValues: readonly string[];
  private readonly bounds: Pick<LearningBounds, 'maxModelCalls' | 'maxTokens'>;
  private readonly keepScreenshots: number;
  private readonly maxOutputTokens: number;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;
  private readonly deadlineAt: number | undefined;
  private readonly signal: AbortSignal | undefined;
  private readonly system: string;

  private readonly messages: BetaMessageParam[] = [];
  /** Calls of the last assistant turn not yet started. */
  private queue: BetaToolUseBlock[] = [];
  /** Answers to the calls of the last assistant turn, sent with the next request. */
  private results: BetaToolResultBlockParam[] = [];
  private current: CallInFlight | undefined;
  /** The screenshot the model saw last: its coordinates refer to it. */
  private geometry: ShotGeometry | undefined;
  /** Where the last move or click left the pointer, window-relative. */
  private cursor: Point | undefined;
  private finished: Decision | undefined;
  /** The element list of the newest request that had one. */
  private list: BetaTextBlockParam | undefined;
  /** The elements listed with the newest screenshot, which refs name; undefined when it came without a list. */
  private offered: readonly OfferedElement[] | undefined;
  private calls = 0;
  private used = 0;

  constructor(options: ClaudePlannerOptions) {
    this.goal = options.goal;
    this.secretNames = [...options.secretNames];
    this.secretValues = [...(options.secretValues ?? [])];
    this.bounds = options.bounds;
    this.keepScreenshots = options.keepScreenshots ?? CLAUDE_PLANNER_DEFAULTS.keepScreenshots;
    this.maxOutputTokens = options.maxOutputTokens ?? CLAUDE_PLANNER_DEFAULTS.maxOutputTokens;
    this.maxRetries = options.maxRetries ?? CLAUDE_PLANNER_DEFAULTS.maxRetries;
    this.timeoutMs = options.timeoutMs ?? CLAUDE_PLANNER_DEFAULTS.timeoutMs;
    this.deadlineAt = options.deadlineAt;
    this.signal = options.signal;
    if (!Number.isInteger(this.keepScreenshots) || this.keepScreenshots < 1) {
      throw new RangeError(`keepScreenshots must be a whole number ≥ 1. Got ${this.keepScreenshots}`);
    }
    this.model = resolveModel(options.model);
    this.computerTool = resolveComputerTool(this.model, options.computerTool);
    this.system = systemPrompt({ secretNames: this.secretNames });
    this.client = options.client ?? ClaudePlanner.buildClient(options);
  }

  private static buildClient(options: ClaudePlannerOptions): Anthropic {
    const apiKey = options.apiKey ?? process.env.ANTHROPIC_API_KEY;
    if (!apiKey) {
      throw new InfrastructureError(
        'MODEL',
        'ANTHROPIC_API_KEY is not set: the Claude planner needs it. Set it, or run with --planner rules.',
      );
    }
    return new Anthropic({
      apiKey,
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      maxRetries: options.maxRetries ?? CLAUDE_PLANNER_DEFAULTS.maxRetries,
      timeout: options.timeoutMs ?? CLAUDE_PLANNER_DEFAULTS.timeoutMs,
    });
  }

  /** HTTP requests made to the API so far, retries included. */
  get modelCalls(): number {
    return this.calls;
  }

  /** Input + output tokens reported by the API so far. */
  get tokens(): number {
    return this.used;
  }

  async next(observation: Observation): Promise<Decision> {
    if (this.finished) return this.finished;
    const settled = this.settleCurrent(observation);
    if (settled) return settled;
    for (;;) {
      while (this.queue.length > 0) {
        const decision = this.startCall(this.queue.shift()!);
        if (decision) return decision;
      }
      const stop = await this.ask(observation.frame, observation.elements ?? []);
      if (stop) {
        this.finished = stop;
        return stop;
      }
    }
  }

  /** Answers the call in flight from what its last action did, or hands out its next action. */
  private settleCurrent(observation: Observation): Decision | undefined {
    const current = this.current;
    if (!current) return undefined;
    const previous = observation.previous;
    const toolsetName = this.toolsetName(current.call);
    if (previous?.error) {
      this.current = undefined;
      this.results.push(toolResult(current.call.id, `The action failed: ${previous.error}`, { isError: true, toolsetName }));
      this.skipRest('an earlier action of this turn failed');
      return undefined;
    }
    const action = current.remaining.shift();
    if (action) return { kind: 'act', action };
    this.current = undefined;
    const effect = previous === undefined ? '' : previous.changed ? ' The screen changed.' : ' The screen did not change.';
    this.results.push(toolResult(current.call.id, [textBlock(current.ack + effect)], { toolsetName }));
    return undefined;
  }

  /** Starts one call: a decision when it needs an action, undefined when it was answered at once. */
  private startCall(call: BetaToolUseBlock): Decision | undefined {
    const toolsetName = this.toolsetName(call);
    const input = (typeof call.input === 'object' && call.input !== null ? call.input : {}) as Record<string, unknown>;
    if (isElementClick(call)) return this.startPlan(call, planElementClick(input, this.offered, this.geometry!), CLICK_ELEMENT);
    let actionName: string | undefined;
    if (this.computerTool.shape === 'toolset') {
      if (call.toolset_name === COMPUTER || call.toolset_name == null) actionName = call.name;
    } else if (call.name === COMPUTER) {
      actionName = typeof input.action === 'string' ? input.action : undefined;
      if (!actionName) {
        this.refuse(call, 'the computer tool needs an action', toolsetName);
        return undefined;
      }
    }
    if (actionName === undefined) {
      this.refuse(call, `there is no tool named ${JSON.stringify(call.name)}; use the computer tool`, toolsetName);
      return undefined;
    }
    const plan = planComputerCall(actionName, input, {
      geometry: this.geometry!,
      ...(this.cursor ? { cursor: this.cursor } : {}),
      secretNames: this.secretNames,
    });
    return this.startPlan(call, plan, actionName);
  }

  /** Answers a planned call at once, or hands out its first action. */
  private startPlan(call: BetaToolUseBlock, plan: CallPlan, actionName: string): Decision | undefined {
    const toolsetName = this.toolsetName(call);
    switch (plan.kind) {
      case 'reject':
        this.refuse(call, plan.error, toolsetName);
        return undefined;
      case 'observe':
        if (plan.cursor) this.cursor = plan.cursor;
        this.results.push(toolResult(call.id, [textBlock(plan.text)], { toolsetName }));
        return undefined;
      case 'act': {
        if (plan.cursor) this.cursor = plan.cursor;
        const [first, ...rest] = plan.actions;
        this.current = { call, remaining: rest, ack: plan.ack };
        return { kind: 'act', action: first!, note: `${actionName} (${call.id})` };
      }
    }
  }

  /** Answers a call with an error, and the rest of the turn as not performed. */
  private refuse(call: BetaToolUseBlock, error: string, toolsetName: string | undefined): void {
    this.results.push(toolResult(call.id, `Refused: ${error}.`, { isError: true, toolsetName }));
    this.skipRest('an earlier action of this turn was refused');
  }

  private skipRest(reason: string): void {
    for (const call of this.queue) {
      this.results.push(toolResult(call.id, `Not performed: ${reason}.`, { isError: true, toolsetName: this.toolsetName(call) }));
    }
    this.queue = [];
  }

  private toolsetName(call: BetaToolUseBlock): string | undefined {
    return this.computerTool.shape === 'toolset' && !isElementClick(call) ? (call.toolset_name ?? COMPUTER) : undefined;
  }

  /**
   * Sends the answers gathered so far with a fresh screenshot and reads the model's next turn.
   * Returns a final decision when the goal ends here (budget, no more tool calls).
   */
  private async ask(frame: Frame, elements: readonly OfferedElement[]): Promise<Decision | undefined> {
    const { maxModelCalls, maxTokens } = this.bounds;
    if (this.calls >= maxModelCalls || this.used >= maxTokens) {
      return {
        kind: 'done',
        reason: 'budget',
        message: `model budget reached: ${this.calls}/${maxModelCalls} calls, ${this.used}/${maxTokens} tokens`,
      };
    }
    const shot = takeScreenshot(frame);
    const resized =
      this.geometry !== undefined &&
      (this.geometry.shotWidth !== shot.geometry.shotWidth || this.geometry.shotHeight !== shot.geometry.shotHeight);
    this.geometry = shot.geometry;
    const g = shot.geometry;
    const list = elements.length > 0 ? textBlock(elementsMessage(elements, g)) : undefined;
    // Only the newest list is of use (older ones describe screens gone): they are not sent again.
    if (this.list !== undefined && list !== undefined) this.list.text = OLD_LIST;
    this.list = list ?? this.list;
    this.offered = list === undefined ? undefined : elements;
    const note = [...(resized ? [textBlock(`The window is now ${g.shotWidth}×${g.shotHeight} pixels.`)] : []), ...(list ? [list] : [])];
    this.messages.push({ role: 'user', content: this.userContent(shot, note) });
    this.results = [];
    pruneScreenshots(this.messages, this.keepScreenshots);

    const tool = this.computerTool;
    const declaration = computerToolDeclaration(tool, { width: shot.geometry.shotWidth, height: shot.geometry.shotHeight });
    const params: MessageCreateParamsNonStreaming = {
      model: this.model,
      max_tokens: this.maxOutputTokens,
      system: this.system,
      // Once the model has seen a list it may click by ref, and the tool stays declared: the
      // conversation holds its calls.
      tools: [declaration as unknown as BetaToolUnion, ...(this.list ? [clickElementDeclaration() as unknown as BetaToolUnion] : [])],
      messages: this.messages,
      ...(tool.beta ? { betas: [tool.beta] } : {}),
    };
    assertNoSecrets(params, this.secretValues);

    let attempts = 0;
    const count: Middleware = (request, next) => {
      attempts++;
      this.calls++;
      return next(request);
    };
    // Near the goal's deadline a request gets only the time that is left, and a retry would
    // have none: a model that does not answer then ends the goal with that message. Retries
    // never run past the deadline either: it aborts the request, attempts and backoff included.
    const left = this.deadlineAt === undefined ? Infinity : this.deadlineAt - Date.now();
    const bounded = left < this.timeoutMs;
    const timeoutMs = bounded ? Math.max(1, Math.floor(left)) : this.timeoutMs;
    const deadline = Number.isFinite(left) ? AbortSignal.timeout(Math.max(1, Math.floor(left))) : undefined;
    // The goal's own abort (the runner's deadline) ends the request too, and is reported as itself.
    const signals = [deadline, this.signal].filter((signal): signal is AbortSignal => signal !== undefined);
    let raw: unknown;
    try {
      raw = await this.client.beta.messages.create(params, {
        maxRetries: bounded ? 0 : this.maxRetries,
        timeout: timeoutMs,
        middleware: [count],
        ...(signals.length > 0 && { signal: AbortSignal.any(signals) }),
      });
    } catch (err) {
      if (this.signal?.aborted) throw this.signal.reason;
      const context = { model: this.model, baseURL: this.client.baseURL, attempts, timeoutMs };
      if (deadline?.aborted) throw toModelError(new APIConnectionTimeoutError(), { ...context, timeoutMs: Math.floor(left) });
      throw toModelError(err, context);
    }
    assertMessage(raw, this.model);
    const message = raw;
    this.used += usedTokens(message);

    const content = assistantContent(message.content);
    if (content.length > 0) this.messages.push({ role: 'assistant', content });
    const calls = message.content.filter((b): b is BetaToolUseBlock => b.type === 'tool_use');
    if (calls.length > 0) {
      this.queue = calls;
      return undefined;
    }
    const text = responseText(message);
    switch (message.stop_reason) {
      case 'refusal':
        return { kind: 'done', reason: 'error', message: `the model refused to continue${text ? `: ${text}` : ''}` };
      case 'max_tokens':
        return {
          kind: 'done',
          reason: 'error',
          message: `the model's answer was cut off at ${this.maxOutputTokens} tokens without an action`,
        };
      case 'model_context_window_exceeded':
        return { kind: 'done', reason: 'budget', message: 'the conversation outgrew the model context window' };
      default:
        break;
    }
    const impossible = text.indexOf(IMPOSSIBLE_MARKER);
    if (impossible >= 0) {
      const why = text.slice(impossible + IMPOSSIBLE_MARKER.length).trim();
      return { kind: 'done', reason: 'no_progress', message: `the model found the goal unreachable: ${why}` };
    }
    return { kind: 'done', reason: 'goal_achieved', ...(text ? { message: text } : {}) };
  }

  /** The next user message: the opening one, or the tool results with the new screenshot; `note` goes before the screenshot. */
  private userContent(shot: ReturnType<typeof takeScreenshot>, note: readonly BetaTextBlockParam[]): BetaContentBlockParam[] {
    if (this.messages.length === 0) return [textBlock(goalMessage(this.goal, shot.geometry)), ...note, imageBlock(shot)];
    const results = this.results;
    const last = [...results].reverse().find((r) => !r.is_error);
    if (last) {
      const existing = typeof last.content === 'string' ? [textBlock(last.content)] : [...(last.content ?? [])];
      last.content = [...existing, ...note, imageBlock(shot)];
      return [...results];
    }
    return [...results, textBlock('The current screen:'), ...note, imageBlock(shot)];
  }
}

/** A call of the custom tool that clicks by ref (never a member of the computer toolset). */
const isElementClick = (call: BetaToolUseBlock): boolean => call.name === CLICK_ELEMENT && call.toolset_name == null;
