/**
 * The Claude planner against a local server that speaks the Messages API: the real SDK, real
 * HTTP, real retries. The server is the fixture; everything else is the code under test.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Action, Frame } from '../../src/domain.ts';
import { InfrastructureError, InvalidInputError } from '../../src/errors.ts';
import { ClaudePlanner, type ClaudePlannerOptions } from '../../src/brain/planners/claude-planner.ts';
import { DEFAULT_MODEL, modelFamily, resolveComputerTool, resolveModel } from '../../src/brain/planners/computer-tools.ts';
import type { Decision, Observation } from '../../src/brain/planners/types.ts';
import { createFrame } from '../../src/vision/frame.ts';
import { requestImages, startMessagesServer, type MessagesServer, type ScriptedReply } from '../support/messages-server.ts';

const API_KEY = 'sk-ant-test-0123456789abcdef';
const BIG = createFrame(2560, 1600, [40, 80, 160, 255]);
const SMALL = createFrame(400, 360, [240, 240, 240, 255]);

let server: MessagesServer | undefined;

beforeEach(() => {
  vi.stubEnv('RETRACE_COMPUTER_TOOL', '');
  vi.stubEnv('RETRACE_MODEL', '');
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

async function serve(script: ScriptedReply[]): Promise<MessagesServer> {
  server = await startMessagesServer(script);
  return server;
}

function planner(s: MessagesServer, options: Partial<ClaudePlannerOptions> = {}): ClaudePlanner {
  return new ClaudePlanner({
    goal: 'Save the document',
    secretNames: [],
    apiKey: API_KEY,
    baseURL: s.url,
    model: 'claude-opus-4-6',
    bounds: { maxModelCalls: 30, maxTokens: 1_000_000 },
    maxRetries: 2,
    timeoutMs: 5_000,
    ...options,
  });
}

const observe = (frame: Frame, step: number, previous?: Observation['previous']): Observation => ({
  frame,
  step,
  ...(previous ? { previous } : {}),
});

/** Drives a planner like the learning loop does: every action "works" and changes the screen. */
async function run(p: ClaudePlanner, frame: Frame, maxSteps = 20): Promise<Decision[]> {
  const decisions: Decision[] = [];
  let previous: Observation['previous'];
  for (let step = 0; step < maxSteps; step++) {
    const d = await p.next(observe(frame, step, previous));
    decisions.push(d);
    if (d.kind === 'done') break;
    previous = { action: d.action, changed: true };
  }
  return decisions;
}

const actions = (ds: Decision[]): Action[] => ds.flatMap((d) => (d.kind === 'act' ? [d.action] : []));

/** Tool_use ids of the assistant turns of a request body, and tool_result ids of its user turns. */
function toolIds(body: any): { uses: string[]; results: string[] } {
  const uses: string[] = [];
  const results: string[] = [];
  for (const m of body.messages) {
    for (const b of Array.isArray(m.content) ? m.content : []) {
      if (b.type === 'tool_use') uses.push(b.id);
      if (b.type === 'tool_result') results.push(b.tool_use_id);
    }
  }
  return { uses, results };
}

const lastUserBlocks = (body: any): any[] => body.messages.at(-1).content;

describe('ClaudePlanner: a learning session', () => {
  it('plays a 3-action session, scaling screenshots down and coordinates back', async () => {
    const s = await serve([
      { kind: 'tools', text: 'I will click Save.', calls: [{ action: 'left_click', coordinate: [640, 400] }] },
      { kind: 'tools', calls: [{ action: 'type', text: 'notes.txt' }] },
      { kind: 'tools', calls: [{ action: 'key', text: 'ctrl+s' }] },
      { kind: 'end', text: 'DONE: the document is saved.' },
    ]);
    const p = planner(s);
    const decisions = await run(p, BIG);

    expect(actions(decisions)).toEqual([
      { kind: 'click', target: { x: 1280, y: 800 } },
      { kind: 'type', text: 'notes.txt' },
      { kind: 'key', combo: 'ctrl+s' },
    ]);
    expect(decisions.at(-1)).toEqual({ kind: 'done', reason: 'goal_achieved', message: 'DONE: the document is saved.' });

    expect(s.requests).toHaveLength(4);
    for (const r of s.requests) {
      expect(r.url).toMatch(/^\/v1\/messages/);
      // The SDK sends the key as a bearer token (1.x) or as x-api-key (0.x).
      expect([r.headers['x-api-key'], r.headers.authorization]).toContain(
        r.headers['x-api-key'] === undefined ? `Bearer ${API_KEY}` : API_KEY,
      );
      expect(r.headers['anthropic-beta']).toBe('computer-use-2025-11-24');
      expect(r.body.model).toBe('claude-opus-4-6');
      expect(r.body.tools).toEqual([{ type: 'computer_20251124', name: 'computer', display_width_px: 1280, display_height_px: 800 }]);
      for (const img of requestImages(r.body)) expect([img.width, img.height]).toEqual([1280, 800]);
    }
    const first = s.requests[0]!.body;
    expect(first.messages).toHaveLength(1);
    expect(first.messages[0].content[0].text).toContain('Goal: Save the document');
    expect(requestImages(first)).toHaveLength(1);

    // Every tool_use is answered by a tool_result in the next request, in order.
    for (let i = 1; i < s.requests.length; i++) {
      const { uses, results } = toolIds(s.requests[i]!.body);
      expect(results).toEqual(uses);
      expect(uses).toHaveLength(i);
    }
    const answer = lastUserBlocks(s.requests[1]!.body)[0];
    expect(answer.type).toBe('tool_result');
    expect(answer.content[0].text).toContain('Clicked at [640, 400]. The screen changed.');
    expect(answer.content.at(-1).type).toBe('image');

    expect(p.modelCalls).toBe(4);
    expect(p.tokens).toBeGreaterThan(4 * 1365); // each request carries at least one 1280×800 image
  });

  it('speaks the computer toolset for the default model: members, toolset_name, no beta header', async () => {
    const s = await serve([
      {
        kind: 'tools',
        calls: [
          { action: 'left_click', coordinate: [100, 50] },
          { action: 'type', text: 'hello' },
          { action: 'scroll', coordinate: [200, 100], scroll_direction: 'down', scroll_amount: 3 },
        ],
      },
      { kind: 'end', text: 'DONE' },
    ]);
    const p = planner(s, { model: undefined });
    expect(p.model).toBe(DEFAULT_MODEL);
    const decisions = await run(p, SMALL);

    expect(actions(decisions)).toEqual([
      { kind: 'click', target: { x: 100, y: 50 } },
      { kind: 'type', text: 'hello' },
      { kind: 'scroll', direction: 'down', amount: 3, target: { x: 200, y: 100 } },
    ]);
    expect(s.requests).toHaveLength(2);
    const [r1, r2] = s.requests.map((r) => r.body);
    expect(s.requests[0]!.headers['anthropic-beta']).toBeUndefined();
    expect(r1.tools).toHaveLength(1);
    expect(r1.tools[0].type).toBe('computer_toolset_20260801');
    expect(r1.tools[0].configs.zoom).toEqual({ enabled: false });
    expect(r1.tools[0].display_width_px).toBeUndefined();
    expect(requestImages(r1)).toEqual([expect.objectContaining({ width: 400, height: 360 })]);

    const results = lastUserBlocks(r2);
    expect(results.map((b: any) => b.type)).toEqual(['tool_result', 'tool_result', 'tool_result']);
    expect(results.every((b: any) => b.toolset_name === 'computer')).toBe(true);
    const { uses, results: answered } = toolIds(r2);
    expect(answered).toEqual(uses);
    // One screenshot for the whole batch, on its last answer.
    expect(requestImages({ messages: [{ content: results.slice(0, 2) }] })).toHaveLength(0);
    expect(results[2].content.at(-1).type).toBe('image');
  });

  it('maps every supported action, and refuses the ones retrace cannot perform', async () => {
    const s = await serve([
      { kind: 'tools', calls: [{ action: 'double_click', coordinate: [10, 20] }] },
      { kind: 'tools', calls: [{ action: 'right_click', coordinate: [30, 40] }] },
      { kind: 'tools', calls: [{ action: 'left_click_drag', start_coordinate: [100, 100], coordinate: [300, 200] }] },
      {
        kind: 'tools',
        calls: [
          { action: 'wait', duration: 0.5 },
          { action: 'key', text: 'Tab', repeat: 2 },
        ],
      },
      {
        kind: 'tools',
        calls: [
          { action: 'triple_click', coordinate: [5, 5] },
          { action: 'key', text: 'Return' },
        ],
      },
      { kind: 'end', text: 'DONE' },
    ]);
    const decisions = await run(planner(s), BIG);

    expect(actions(decisions)).toEqual([
      { kind: 'double-click', target: { x: 20, y: 40 } },
      { kind: 'right-click', target: { x: 60, y: 80 } },
      { kind: 'drag', from: { x: 200, y: 200 }, to: { x: 600, y: 400 } },
      { kind: 'wait', ms: 500 },
      { kind: 'key', combo: 'Tab' },
      { kind: 'key', combo: 'Tab' },
    ]);
    const refused = lastUserBlocks(s.requests[5]!.body);
    expect(refused[0]).toMatchObject({ is_error: true });
    expect(refused[0].content).toMatch(/triple_click is not available/);
    expect(refused[1].content).toMatch(/Not performed/);
  });

  it('answers each action with the screenshot of the next observation', async () => {
    const s = await serve([
      { kind: 'tools', calls: [{ action: 'left_click', coordinate: [10, 10] }] },
      { kind: 'tools', calls: [{ action: 'left_click', coordinate: [640, 320] }] },
      { kind: 'end', text: 'DONE' },
    ]);
    const p = planner(s);
    const d1 = await p.next(observe(SMALL, 0));
    expect(d1).toMatchObject({ kind: 'act', action: { target: { x: 10, y: 10 } } });
    // The action opened a bigger window: 2000×1000 is shown at 1280×640.
    const d2 = await p.next(observe(createFrame(2000, 1000), 1, { action: (d1 as { action: Action }).action, changed: true }));

    expect(d2).toMatchObject({ kind: 'act', action: { kind: 'click', target: { x: 1000, y: 500 } } });
    const second = s.requests[1]!.body;
    expect(requestImages(second).map((i) => [i.width, i.height])).toEqual([
      [400, 360],
      [1280, 640],
    ]);
    expect(second.tools[0]).toMatchObject({ display_width_px: 1280, display_height_px: 640 });
    expect(JSON.stringify(lastUserBlocks(second))).toContain('The window is now 1280×640 pixels.');
  });

  it('keeps only the last N screenshots in the conversation', async () => {
    const click = (x: number): ScriptedReply => ({ kind: 'tools', calls: [{ action: 'left_click', coordinate: [x, 10] }] });
    const s = await serve([click(10), click(20), click(30), click(40), { kind: 'end', text: 'DONE' }]);
    await run(planner(s, { keepScreenshots: 2 }), SMALL);

    expect(s.requests).toHaveLength(5);
    s.requests.forEach((r, i) => {
      expect(requestImages(r.body)).toHaveLength(Math.min(i + 1, 2));
      expect(r.raw.split('[screenshot omitted]').length - 1).toBe(Math.max(0, i + 1 - 2));
    });
    // The kept ones are the newest: the last user message carries an image.
    expect(JSON.stringify(lastUserBlocks(s.requests[4]!.body))).toContain('"type":"image"');
  });

  it('answers screenshot and mouse_move without spending a step, but counts the calls', async () => {
    const s = await serve([
      { kind: 'tools', calls: [{ action: 'screenshot' }] },
      { kind: 'tools', calls: [{ action: 'mouse_move', coordinate: [10, 20] }] },
      { kind: 'tools', calls: [{ action: 'left_click' }] }, // at the pointer
      { kind: 'end', text: 'DONE' },
    ]);
    const p = planner(s);
    const first = await p.next(observe(BIG, 0));

    expect(first).toEqual({ kind: 'act', action: { kind: 'click', target: { x: 20, y: 40 } }, note: expect.any(String) });
    expect(s.requests).toHaveLength(3);
    expect(p.modelCalls).toBe(3);
    const shotAnswer = lastUserBlocks(s.requests[1]!.body)[0];
    expect(shotAnswer.is_error).toBeUndefined();
    expect(shotAnswer.content.at(-1).type).toBe('image');
  });

  it('refuses coordinates outside the window and tells the model, without acting', async () => {
    const s = await serve([
      {
        kind: 'tools',
        calls: [
          { action: 'left_click', coordinate: [2000, 100] },
          { action: 'type', text: 'x' },
        ],
      },
      { kind: 'tools', calls: [{ action: 'double_click', coordinate: [1280, 800] }] },
      { kind: 'end', text: 'DONE' },
    ]);
    const p = planner(s);
    const decisions = await run(p, BIG);

    // The edge itself is inside: clamped to the last pixel of the window.
    expect(actions(decisions)).toEqual([{ kind: 'double-click', target: { x: 2559, y: 1599 } }]);
    const answers = lastUserBlocks(s.requests[1]!.body);
    expect(answers[0]).toMatchObject({ type: 'tool_result', is_error: true });
    expect(answers[0].content).toMatch(/outside the screen \(1280×800\)/);
    expect(answers[1]).toMatchObject({ type: 'tool_result', is_error: true });
    expect(answers[1].content).toMatch(/Not performed/);
    expect(requestImages(s.requests[1]!.body).length).toBeGreaterThan(0);
  });

  it('answers a failed action as an error and skips the rest of its turn', async () => {
    const s = await serve([
      {
        kind: 'tools',
        calls: [
          { action: 'left_click', coordinate: [5, 5] },
          { action: 'key', text: 'Return' },
        ],
      },
      { kind: 'end', text: 'IMPOSSIBLE: the button does not react' },
    ]);
    const p = planner(s);
    const d1 = await p.next(observe(SMALL, 0));
    expect(d1.kind).toBe('act');
    const d2 = await p.next(observe(SMALL, 1, { action: (d1 as { action: Action }).action, changed: false, error: 'window lost focus' }));

    expect(d2).toEqual({
      kind: 'done',
      reason: 'no_progress',
      message: 'the model found the goal unreachable: the button does not react',
    });
    const answers = lastUserBlocks(s.requests[1]!.body);
    expect(answers[0]).toMatchObject({ is_error: true, content: 'The action failed: window lost focus' });
    expect(answers[1]).toMatchObject({ is_error: true });
    expect(answers[1].content).toMatch(/Not performed/);
  });
});

describe('ClaudePlanner: budget', () => {
  it('stops with reason budget when the model calls are used up', async () => {
    const click: ScriptedReply = { kind: 'tools', calls: [{ action: 'left_click', coordinate: [1, 1] }] };
    const s = await serve([click, click, click]);
    const p = planner(s, { bounds: { maxModelCalls: 2, maxTokens: 1_000_000 } });
    const decisions = await run(p, SMALL);

    expect(decisions.map((d) => d.kind)).toEqual(['act', 'act', 'done']);
    expect(decisions[2]).toMatchObject({ kind: 'done', reason: 'budget' });
    expect(s.requests).toHaveLength(2);
    expect(p.modelCalls).toBe(2);
  });

  it('stops with reason budget when the tokens are used up', async () => {
    const click: ScriptedReply = {
      kind: 'tools',
      calls: [{ action: 'left_click', coordinate: [1, 1] }],
      usage: { input_tokens: 600, output_tokens: 150 },
    };
    const s = await serve([click, click, click]);
    const p = planner(s, { bounds: { maxModelCalls: 30, maxTokens: 1500 } });
    const decisions = await run(p, SMALL);

    expect(decisions.at(-1)).toMatchObject({ kind: 'done', reason: 'budget' });
    expect(s.requests).toHaveLength(2);
    expect(p.tokens).toBe(1500);
  });
});

describe('ClaudePlanner: API faults', () => {
  it('turns a 401 into a clear error that never shows the key, without retrying', async () => {
    const s = await serve([{ kind: 'error', status: 401, message: 'invalid x-api-key' }]);
    const p = planner(s);
    const err = await p.next(observe(SMALL, 0)).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(InfrastructureError);
    expect((err as InfrastructureError).code).toBe('MODEL');
    expect((err as Error).message).toMatch(/^ANTHROPIC_API_KEY was rejected \(401/);
    expect((err as Error).message).toMatch(/check the key/);
    expect((err as Error).message).not.toContain(API_KEY);
    expect((err as Error).cause).toBeUndefined();
    expect(s.requests).toHaveLength(1);
  });

  it('retries a 429 and then succeeds', async () => {
    const s = await serve([
      { kind: 'error', status: 429, retryAfterMs: 5 },
      { kind: 'tools', calls: [{ action: 'key', text: 'Return' }] },
    ]);
    const p = planner(s);
    const d = await p.next(observe(SMALL, 0));

    expect(d).toMatchObject({ kind: 'act', action: { kind: 'key', combo: 'Return' } });
    expect(s.requests).toHaveLength(2);
    expect(s.requests[1]!.raw).toBe(s.requests[0]!.raw);
    expect(p.modelCalls).toBe(2);
  });

  it('gives up on repeated 500s after the retries, with an InfrastructureError', async () => {
    const boom: ScriptedReply = { kind: 'error', status: 500, message: 'internal', retryAfterMs: 1 };
    const s = await serve([boom, boom, boom, boom]);
    const p = planner(s, { maxRetries: 2 });
    const err = await p.next(observe(SMALL, 0)).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(InfrastructureError);
    expect((err as Error).message).toMatch(/failed \(500 after 3 attempts: internal\)/);
    expect(s.requests).toHaveLength(3);
    expect(p.modelCalls).toBe(3);
  });

  it('reports a body that is not JSON as a malformed response', async () => {
    const s = await serve([{ kind: 'malformed' }]);
    const err = await planner(s)
      .next(observe(SMALL, 0))
      .catch((e: unknown) => e);

    expect(err).toBeInstanceOf(InfrastructureError);
    expect((err as Error).message).toMatch(/malformed response/);
  });

  it('reports JSON of the wrong shape as a malformed response', async () => {
    const s = await serve([{ kind: 'json', body: { type: 'message', content: 'nope' } }]);
    const err = await planner(s)
      .next(observe(SMALL, 0))
      .catch((e: unknown) => e);

    expect(err).toBeInstanceOf(InfrastructureError);
    expect((err as Error).message).toMatch(/malformed response for claude-opus-4-6: it has no content array/);
  });

  it('reports a timeout', async () => {
    const s = await serve([{ kind: 'delay', ms: 5_000, then: { kind: 'end', text: 'DONE' } }]);
    const err = await planner(s, { timeoutMs: 50, maxRetries: 0 })
      .next(observe(SMALL, 0))
      .catch((e: unknown) => e);

    expect(err).toBeInstanceOf(InfrastructureError);
    expect((err as Error).message).toMatch(/did not answer within 50 ms/);
  });

  it('needs an API key', () => {
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    expect(() => new ClaudePlanner({ goal: 'g', secretNames: [], bounds: { maxModelCalls: 1, maxTokens: 1 } })).toThrow(
      /ANTHROPIC_API_KEY is not set/,
    );
  });

  it('honours ANTHROPIC_BASE_URL', async () => {
    const s = await serve([{ kind: 'end', text: 'DONE' }]);
    vi.stubEnv('ANTHROPIC_BASE_URL', s.url);
    const p = planner(s, { baseURL: undefined });
    expect(await p.next(observe(SMALL, 0))).toMatchObject({ kind: 'done', reason: 'goal_achieved' });
    expect(s.requests).toHaveLength(1);
  });
});

describe('ClaudePlanner: secrets', () => {
  const VALUE = 'hunter2-Zq9!vault';

  it('lets the model type a placeholder and never sends the value', async () => {
    const s = await serve([
      {
        kind: 'tools',
        calls: [
          { action: 'left_click', coordinate: [50, 60] },
          { action: 'type', text: '${secret.PASSWORD}' },
        ],
      },
      { kind: 'tools', calls: [{ action: 'type', text: '${secret.TOKEN}' }] },
      { kind: 'end', text: 'DONE' },
    ]);
    const p = planner(s, {
      goal: 'Log in as admin with password ${secret.PASSWORD}',
      secretNames: ['PASSWORD'],
      secretValues: [VALUE],
    });
    const decisions = await run(p, SMALL);

    expect(actions(decisions)).toEqual([
      { kind: 'click', target: { x: 50, y: 60 } },
      { kind: 'type', text: '${secret.PASSWORD}' },
    ]);
    expect(s.requests[0]!.body.system).toContain('${secret.PASSWORD}');
    expect(s.requests[0]!.raw).toContain('Log in as admin with password ${secret.PASSWORD}');
    for (const r of s.requests) expect(r.raw).not.toContain(VALUE);
    // An unknown secret name is refused, not typed.
    const refused = lastUserBlocks(s.requests[2]!.body)[0];
    expect(refused.is_error).toBe(true);
    expect(refused.content).toMatch(/\$\{secret\.TOKEN\} is not a known secret/);
  });

  it('refuses to send a request that would carry a secret value', async () => {
    const s = await serve([{ kind: 'end', text: 'DONE' }]);
    const p = planner(s, { goal: `Log in with ${VALUE}`, secretNames: ['PASSWORD'], secretValues: [VALUE] });
    const err = await p.next(observe(SMALL, 0)).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(InfrastructureError);
    expect((err as Error).message).toMatch(/contains the value of 1 secret/);
    expect((err as Error).message).not.toContain(VALUE);
    expect(s.requests).toHaveLength(0);
  });
});

describe('computer-use tool versions', () => {
  it('follows the model family', () => {
    expect(resolveComputerTool('claude-sonnet-5-5', '')).toMatchObject({ type: 'computer_toolset_20260801', shape: 'toolset' });
    expect(resolveComputerTool('claude-sonnet-5-5', '').beta).toBeUndefined();
    expect(resolveComputerTool('claude-opus-4-8', '')).toMatchObject({ type: 'computer_toolset_20260801' });
    expect(resolveComputerTool('claude-opus-4-5-20251101', '')).toMatchObject({
      type: 'computer_20251124',
      beta: 'computer-use-2025-11-24',
      family: 'claude-opus-4-5',
    });
    expect(resolveComputerTool('claude-sonnet-4-5-20250929', '')).toMatchObject({
      type: 'computer_20250124',
      beta: 'computer-use-2025-01-24',
    });
    expect(resolveComputerTool('claude-sonnet-4-20250514', '')).toMatchObject({ type: 'computer_20250124' });
    expect(resolveComputerTool('claude-3-5-sonnet-20241022', '')).toMatchObject({
      type: 'computer_20241022',
      beta: 'computer-use-2024-10-22',
    });
    expect(modelFamily('anthropic.claude-haiku-4-5-20251001-v1:0')).toBe('claude-haiku-4-5');
    expect(modelFamily('claude-opus-4-9')).toBeUndefined();
  });

  it('gives an unknown family the newest version, with a note', () => {
    const t = resolveComputerTool('claude-opus-4-9', '');
    expect(t.type).toBe('computer_toolset_20260801');
    expect(t.note).toMatch(/not in retrace's table/);
  });

  it('is overridden by RETRACE_COMPUTER_TOOL, and rejects an unknown version', () => {
    expect(resolveComputerTool('claude-sonnet-5-5', 'computer_20250124')).toMatchObject({
      type: 'computer_20250124',
      beta: 'computer-use-2025-01-24',
      note: 'set by RETRACE_COMPUTER_TOOL',
    });
    expect(() => resolveComputerTool('claude-sonnet-5-5', 'computer_2099')).toThrow(InvalidInputError);
    expect(() => resolveComputerTool('claude-sonnet-5-5', 'computer_2099')).toThrow(/RETRACE_COMPUTER_TOOL=computer_2099/);
  });

  it('takes the model from the caller, then RETRACE_MODEL, then the default', () => {
    expect(resolveModel('claude-opus-4-7', 'claude-haiku-4-5')).toBe('claude-opus-4-7');
    expect(resolveModel(undefined, 'claude-haiku-4-5')).toBe('claude-haiku-4-5');
    expect(resolveModel(undefined, undefined)).toBe(DEFAULT_MODEL);
  });

  it('sends the version and beta chosen by RETRACE_MODEL and RETRACE_COMPUTER_TOOL', async () => {
    const s = await serve([
      { kind: 'end', text: 'DONE' },
      { kind: 'end', text: 'DONE' },
    ]);
    vi.stubEnv('RETRACE_MODEL', 'claude-haiku-4-5');
    await planner(s, { model: undefined }).next(observe(SMALL, 0));
    vi.stubEnv('RETRACE_COMPUTER_TOOL', 'computer_20251124');
    await planner(s, { model: undefined }).next(observe(SMALL, 0));

    const [a, b] = s.requests;
    expect(a!.body.model).toBe('claude-haiku-4-5');
    expect(a!.body.tools[0]).toMatchObject({ type: 'computer_20250124', display_width_px: 400, display_height_px: 360 });
    expect(a!.headers['anthropic-beta']).toBe('computer-use-2025-01-24');
    expect(b!.body.tools[0].type).toBe('computer_20251124');
    expect(b!.headers['anthropic-beta']).toBe('computer-use-2025-11-24');
  });
});
