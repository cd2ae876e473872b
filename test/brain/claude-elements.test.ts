/**
 * The Claude planner sees the app's elements: the learning loop reads them from the element
 * source of the counter app in memory and each request to a local Messages-API server carries
 * their list, boxes in screenshot pixels; a click the model places by that list lands on the
 * element; the model may also click an element by its ref (the `click_element` tool), and the
 * path then names it by role and name. Without elements the request carries no list and no
 * `click_element` tool.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { Element } from '../../src/desktop/types.ts';
import { ActionCycle } from '../../src/brain/cycle.ts';
import { learn } from '../../src/brain/learner.ts';
import { offerElements } from '../../src/brain/elements.ts';
import { ClaudePlanner } from '../../src/brain/planners/claude-planner.ts';
import { elementsMessage } from '../../src/brain/planners/claude-prompt.ts';
import { fitShot } from '../../src/brain/planners/claude-screenshot.ts';
import { secretMasker } from '../../src/spec-file/secrets.ts';
import { startMessagesServer, type MessagesServer, type ScriptedReply } from '../support/messages-server.ts';
import { ADD, CounterApp, FakeDesktop } from '../support/fake-desktop.ts';
import { ElementDesktop } from '../support/fake-elements.ts';

const BOUNDS = { maxSteps: 5, maxModelCalls: 5, maxTokens: 1_000_000, maxWallMs: 30_000 };
const LIST_HEAD = 'Elements the application publishes';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CLICK_ADD: ScriptedReply[] = [
  { kind: 'tools', calls: [{ action: 'left_click', coordinate: [ADD.x + ADD.width / 2, ADD.y + ADD.height / 2] }] },
  { kind: 'end', text: 'DONE: the count is 1.' },
];

/** One lesson on `desktop`: by default the model clicks at the centre of "Add", then says it is done. */
async function learnOn(desktop: FakeDesktop, script: readonly ScriptedReply[] = CLICK_ADD) {
  server = await startMessagesServer(script);
  const planner = new ClaudePlanner({
    goal: 'Add one',
    secretNames: [],
    apiKey: 'sk-ant-test-0123456789abcdef',
    baseURL: server.url,
    model: 'claude-opus-4-6',
    bounds: BOUNDS,
    maxRetries: 0,
    timeoutMs: 5_000,
  });
  const stage = desktop.stage();
  const cycle = new ActionCycle(stage, { settleTimeoutMs: 2000, actionTimeoutMs: 300, resolveText: (t) => t });
  const lesson = await learn({ stage, planner, cycle, bounds: BOUNDS, dynamic: [], assets: new Map() });
  const texts = server.requests.map((r) => JSON.stringify(r.body.messages));
  const tools = server.requests.map((r) => (r.body.tools as { name?: string; type?: string }[]).map((t) => t.name ?? t.type));
  return { lesson, planner, texts, tools, requests: server.requests };
}

describe('the Claude planner with an element source', () => {
  test('each request lists the visible elements with their boxes; the click by that list lands on "Add"', async () => {
    const desktop = new ElementDesktop(new CounterApp());
    const { lesson, planner, texts } = await learnOn(desktop);
    expect(lesson).toMatchObject({ stopReason: 'goal_achieved' });
    expect(desktop.app.count).toBe(1);
    expect(texts).toHaveLength(2);
    // The counter's window is smaller than the screenshot limit: screenshot pixels are window pixels.
    expect(texts[0]).toContain(
      JSON.stringify(
        `${LIST_HEAD} (ref role "name" [x, y, width, height], screenshot pixels):\ne1 button "Add" [20, 20, 60, 28]\ne2 button "Reset" [100, 20, 60, 28]\ne3 label "0" [20, 62, 200, 40]`,
      ).slice(1, -1),
    );
    // The second request shows the elements as they are after the click, and only those.
    expect(texts[1]).toContain('e3 label \\"1\\"');
    expect(texts[1]).not.toContain('e3 label \\"0\\"');
    expect(texts[1]).toContain('[element list omitted: the newest one describes the screen]');
    expect(planner.tokens).toBeGreaterThan(0);
  });

  test('without an accessibility bus the requests carry no list, and cost fewer tokens', async () => {
    const withList = (await learnOn(new ElementDesktop(new CounterApp()))).planner.tokens;
    await server?.close();
    const desktop = new FakeDesktop(new CounterApp());
    const { lesson, planner, texts } = await learnOn(desktop);
    expect(lesson).toMatchObject({ stopReason: 'goal_achieved' });
    expect(desktop.app.count).toBe(1);
    for (const text of texts) expect(text).not.toContain(LIST_HEAD);
    expect(planner.tokens).toBeLessThan(withList);
  });
});

describe('clicking an element by its ref', () => {
  /** The tool results of a request, flattened to their texts. */
  const results = (body: any): { text: string; error: boolean; toolset: unknown }[] =>
    body.messages
      .at(-1)
      .content.filter((b: any) => b.type === 'tool_result')
      .map((b: any) => ({
        text:
          typeof b.content === 'string'
            ? b.content
            : b.content
                .filter((c: any) => c.type === 'text')
                .map((c: any) => c.text)
                .join(' '),
        error: b.is_error === true,
        toolset: b.toolset_name,
      }));

  test.each(['claude-opus-4-6', 'claude-opus-5'])(
    'clicks the centre of its box, and the path names it by role and name (%s)',
    async (model) => {
      const desktop = new ElementDesktop(new CounterApp());
      server = await startMessagesServer([
        { kind: 'tools', calls: [{ tool: 'click_element', input: { ref: 'e1' } }] },
        { kind: 'end', text: 'DONE: the count is 1.' },
      ]);
      const planner = new ClaudePlanner({
        goal: 'Add one',
        secretNames: [],
        apiKey: 'sk-ant-test-0123456789abcdef',
        baseURL: server.url,
        model,
        bounds: BOUNDS,
        maxRetries: 0,
        timeoutMs: 5_000,
      });
      const stage = desktop.stage();
      const cycle = new ActionCycle(stage, { settleTimeoutMs: 2000, actionTimeoutMs: 300, resolveText: (t) => t });
      const lesson = await learn({ stage, planner, cycle, bounds: BOUNDS, dynamic: [], assets: new Map() });
      expect(lesson).toMatchObject({ stopReason: 'goal_achieved' });
      expect(desktop.app.count).toBe(1);
      const [recorded] = lesson.actions;
      expect(recorded?.action).toEqual({ kind: 'click', target: { role: 'button', name: 'Add' } });
      // Clicked at the centre of the element's box, which the element anchor names.
      expect(recorded?.anchor?.point).toEqual({ x: ADD.x + ADD.width / 2, y: ADD.y + ADD.height / 2 });
      expect(recorded?.anchor?.element).toMatchObject({ role: 'button', name: 'Add', box: ADD });
      const [first, second] = server.requests;
      expect(first!.body.tools.map((t: any) => t.name ?? t.type)).toContain('click_element');
      // A custom tool's result carries no toolset name, even beside the computer toolset.
      expect(results(second!.body)).toEqual([
        {
          text: expect.stringMatching(/^Clicked button "Add" \(e1\) at \[50, 34\]\. The screen changed\. Elements /),
          error: false,
          toolset: undefined,
        },
      ]);
    },
  );

  test('a ref the newest list does not hold is refused, and the model can go on', async () => {
    const desktop = new ElementDesktop(new CounterApp());
    const { lesson, requests } = await learnOn(desktop, [
      { kind: 'tools', calls: [{ tool: 'click_element', input: { ref: 'e9' } }] },
      { kind: 'tools', calls: [{ tool: 'click_element', input: { ref: 'e2', click: 'double' } }] },
      { kind: 'end', text: 'DONE' },
    ]);
    expect(lesson).toMatchObject({ stopReason: 'goal_achieved' });
    expect(lesson.actions.map((a) => a.action)).toEqual([{ kind: 'double-click', target: { role: 'button', name: 'Reset' } }]);
    expect(results(requests[1]!.body)).toEqual([
      { text: 'Refused: click_element: "e9" is not a ref of the newest element list (e1 to e3).', error: true, toolset: undefined },
    ]);
  });

  test('without elements there is no click_element tool, and a call of it is refused', async () => {
    const desktop = new FakeDesktop(new CounterApp());
    const { lesson, tools, requests } = await learnOn(desktop, [
      { kind: 'tools', calls: [{ tool: 'click_element', input: { ref: 'e1' } }] },
      { kind: 'end', text: 'DONE' },
    ]);
    expect(lesson).toMatchObject({ stopReason: 'goal_achieved', actions: [] });
    expect(desktop.app.count).toBe(0);
    for (const names of tools) expect(names).not.toContain('click_element');
    expect(results(requests[1]!.body)[0]).toMatchObject({ error: true, text: expect.stringContaining('came without an element list') });
  });
});

describe('the elements offered', () => {
  const STATES = { focused: false, checked: false, sensitive: true, showing: true, editable: false, selected: false, expanded: false };
  const element = (role: string, name: string, box: Element['box'], extra: Partial<Element> = {}): Element => ({
    ref: `:1.1/${role}${name}`,
    role,
    toolkitRole: role,
    name,
    description: '',
    states: STATES,
    box,
    index: 0,
    depth: 1,
    ...extra,
  });
  const WINDOW = { x: 300, y: 200, width: 400, height: 300 };

  test('are the showing ones inside the window a person acts on or reads, named by their labels, secrets masked', () => {
    secretMasker.learn('hunter2-secret');
    const offered = offerElements(
      [
        element('dialog', 'Form', { x: 0, y: 0, width: 400, height: 300 }),
        element('group', '', { x: 0, y: 0, width: 400, height: 300 }),
        element('entry', '', { x: 70, y: 40, width: 160, height: 30 }, { label: 'Name' }),
        element('label', 'Name', { x: 10, y: 40, width: 50, height: 30 }),
        element('label', '', { x: 10, y: 80, width: 50, height: 30 }),
        element('button', 'OK', { x: 500, y: 40, width: 60, height: 30 }),
        element('button', 'Hidden', { x: 10, y: 120, width: 60, height: 30 }, { states: { ...STATES, showing: false } }),
        element('label', 'pass hunter2-secret', { x: 10, y: 160, width: 200, height: 30 }),
      ],
      WINDOW,
    );
    secretMasker.clear();
    expect(offered.map((e) => [e.role, e.name])).toEqual([
      ['entry', 'Name'],
      ['label', 'Name'],
      ['label', 'pass ••••'],
    ]);
  });

  test('carry the element target a click by ref records: nth among equals; none for a name no target can hold', () => {
    secretMasker.learn('hunter2-secret');
    const offered = offerElements(
      [
        element('button', 'OK', { x: 10, y: 10, width: 60, height: 30 }, { ref: ':1.1/ok0' }),
        element('button', 'OK', { x: 80, y: 10, width: 60, height: 30 }, { ref: ':1.1/ok1' }),
        element('button', 'Apply', { x: 150, y: 10, width: 60, height: 30 }),
        element('button', '/x/', { x: 10, y: 50, width: 60, height: 30 }),
        element('button', 'hunter2-secret', { x: 80, y: 50, width: 60, height: 30 }),
        element('entry', '', { x: 150, y: 50, width: 60, height: 30 }),
      ],
      WINDOW,
    );
    secretMasker.clear();
    expect(offered.map((e) => e.target)).toEqual([
      { role: 'button', name: 'OK', nth: 0 },
      { role: 'button', name: 'OK', nth: 1 },
      { role: 'button', name: 'Apply' },
      undefined,
      undefined,
      undefined,
    ]);
  });

  test('are listed in screenshot pixels when the screenshot is scaled down', () => {
    const geometry = fitShot(2560, 1600);
    expect(elementsMessage([{ role: 'button', name: 'OK', box: { x: 200, y: 100, width: 120, height: 60 } }], geometry)).toMatch(
      /\ne1 button "OK" \[100, 50, 60, 30\]$/,
    );
  });
});
