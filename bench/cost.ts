/**
 * Cost of learning with Claude: the real `ClaudePlanner` (real SDK, real HTTP) against a local
 * Messages API server that answers with scripted clicks on calculator keys; every click is
 * really performed and the next screenshot is a real frame. Counted from what the server
 * received: requests, and bytes of image sent, per learned action.
 *
 * Sessions: the calculator window as it is (360×480); a 2560×1600 window (the real screen scaled
 * 2×, as on a HiDPI monitor), which the planner downscales to 1280×800; and the same without
 * context pruning (every screenshot kept), to show what pruning saves. And the window again with
 * the app's element list in each request (what the learner offers a planner that sees
 * elements), against the same session without it: input tokens per request, as the local
 * server estimates them (its `usage`: the request's characters other than images ÷ 4, plus
 * width × height ÷ 750 an image, the API's rule of thumb).
 */
import type { Frame, Point } from '../src/domain.ts';
import type { Desktop } from '../src/desktop/types.ts';
import { ClaudePlanner } from '../src/brain/planners/claude-planner.ts';
import type { Observation } from '../src/brain/planners/types.ts';
import { offerElements } from '../src/brain/elements.ts';
import { scale } from '../src/vision/frame.ts';
import { waitForStable } from '../src/vision/settle.ts';
import { estimateInputTokens, requestImages, startMessagesServer, type ScriptedReply } from '../test/support/messages-server.ts';
import { centre, fixtureRegion, withFixture, type OpenApp } from './desktop.ts';
import { figure, guarded, type Measurement, type Row } from './measure.ts';

const GROUP = 'Cost (Claude learning)';
const KEYS = ['key-1', 'key-2', 'key-times', 'key-7', 'key-equals', 'key-clear', 'key-9', 'key-plus'];

export const ROWS = {
  requests: { name: 'model requests per learned action', unit: 'requests' },
  window: { name: `image KB per learned action, window 360×480 (${KEYS.length} clicks)`, unit: 'KB' },
  hidpi: { name: 'image KB per learned action, window 2560×1600 → 1280×800', unit: 'KB' },
  unpruned: { name: 'image KB per learned action, 2560×1600, no pruning (reference)', unit: 'KB' },
  bare: { name: 'input tokens per request, window 360×480, no element list', unit: 'tokens' },
  listed: { name: 'input tokens per request, window 360×480, with the element list', unit: 'tokens' },
} satisfies Record<string, Row>;

interface Session {
  /** The window frame the planner sees. */
  readonly shoot: () => Promise<Frame>;
  /** Window point → screen point to click. */
  readonly toScreen: (p: Point) => Point;
  /** Screen point → what the model clicks in its screenshot. */
  readonly toModel: (p: Point) => [number, number];
  readonly keepScreenshots?: number;
  /** Each observation carries the app's elements, as the learner gives them to a planner that sees them. */
  readonly elements?: boolean;
}

interface SessionResult {
  readonly actions: number;
  readonly requests: number;
  readonly imageBytes: number;
  readonly maxImagesPerRequest: number;
  readonly largest: string;
  readonly tokens: number;
  /** The server's estimate of each request's input tokens. */
  readonly inputTokens: readonly number[];
  /** Elements in the longest list sent. */
  readonly listed: number;
}

async function runSession(desktop: Desktop, calc: OpenApp, session: Session): Promise<SessionResult> {
  const keys = KEYS.map((k) => centre(fixtureRegion('calculator', k), calc.window));
  const script: ScriptedReply[] = [
    ...keys.map((k): ScriptedReply => ({ kind: 'tools', calls: [{ action: 'left_click', coordinate: session.toModel(k) }] })),
    { kind: 'end', text: 'DONE' },
  ];
  const server = await startMessagesServer(script, { lifetimeMs: 120_000 });
  try {
    const planner = new ClaudePlanner({
      goal: 'Compute 12 * 7, clear, then press 9 +',
      secretNames: [],
      apiKey: 'sk-ant-bench-local',
      baseURL: server.url,
      bounds: { maxModelCalls: 30, maxTokens: 100_000_000 },
      maxRetries: 0,
      ...(session.keepScreenshots ? { keepScreenshots: session.keepScreenshots } : {}),
    });
    let actions = 0;
    let listed = 0;
    let previous: Observation['previous'];
    for (let step = 0; step < 30; step++) {
      const elements = session.elements ? offerElements(await desktop.elements?.read(calc.app, { window: calc.window }), calc.window) : [];
      listed = Math.max(listed, elements.length);
      const decision = await planner.next({
        frame: await session.shoot(),
        step,
        ...(previous ? { previous } : {}),
        ...(elements.length > 0 && { elements }),
      });
      if (decision.kind === 'done') {
        if (decision.reason !== 'goal_achieved') throw new Error(`the planner stopped: ${decision.reason} ${decision.message ?? ''}`);
        break;
      }
      const { action } = decision;
      if (action.kind !== 'click' || !('x' in action.target)) throw new Error(`unexpected action ${JSON.stringify(action)}`);
      const before = await calc.grab();
      await desktop.input.click(session.toScreen(action.target));
      await waitForStable(calc.grab, { expectChangeFrom: before });
      actions++;
      previous = { action, changed: true };
    }
    const images = server.requests.map((r) => requestImages(r.body));
    const all = images.flat();
    const largest = all.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a), { width: 0, height: 0 });
    return {
      actions,
      requests: server.requests.length,
      imageBytes: all.reduce((n, i) => n + Buffer.byteLength(i.data, 'base64'), 0),
      maxImagesPerRequest: Math.max(...images.map((i) => i.length)),
      largest: `${largest.width}×${largest.height}`,
      tokens: planner.tokens,
      inputTokens: server.requests.map((r) => estimateInputTokens(r.body, r.raw)),
      listed,
    };
  } finally {
    await server.close();
  }
}

const describe = (r: SessionResult): string =>
  `${r.requests} requests for ${r.actions} actions; ≤ ${r.maxImagesPerRequest} screenshots a request, ` +
  `largest ${r.largest}; ~${Math.round(r.tokens / r.actions)} tokens/action (local server's estimate)`;

export function benchCost(display: Promise<Desktop>): Promise<Measurement[]> {
  return guarded(GROUP, Object.values(ROWS), async () => {
    const desktop = await display;
    return withFixture(desktop, 'calculator', (calc) => measure(desktop, calc));
  });
}

async function measure(desktop: Desktop, calc: OpenApp): Promise<Measurement[]> {
  const window: Session = {
    shoot: () => calc.grab(),
    toScreen: (p) => ({ x: calc.window.x + p.x, y: calc.window.y + p.y }),
    toModel: (p) => [p.x - calc.window.x, p.y - calc.window.y],
  };
  // The 1280×800 screen at 2×: window point (2x, 2y) is screen point (x, y), and the model's
  // 1280×800 screenshot has screen coordinates again.
  const hidpi: Session = {
    shoot: async () => scale(await desktop.capture.grab(), 2560, 1600, { method: 'nearest' }),
    toScreen: (p) => ({ x: Math.round(p.x / 2), y: Math.round(p.y / 2) }),
    toModel: (p) => [p.x, p.y],
  };
  const perAction = (r: SessionResult) => r.imageBytes / r.actions / 1024;
  const a = await runSession(desktop, calc, window);
  const b = await runSession(desktop, calc, hidpi);
  const c = await runSession(desktop, calc, { ...hidpi, keepScreenshots: 1000 });
  if (desktop.elements === undefined) throw new Error('the benchmark display has no accessibility bus: no element list to measure');
  const d = await runSession(desktop, calc, { ...window, elements: true });
  if (d.listed === 0) throw new Error('the calculator published no elements');
  const perRequest = (r: SessionResult) =>
    `${r.requests} requests, ${Math.round(r.tokens / r.actions)} tokens (input + output) per learned action`;
  // The API bills an image by its pixels (about w × h / 750 tokens).
  const tokens = (w: number, h: number) => Math.ceil((w * h) / 750);
  return [
    figure({ group: GROUP, ...ROWS.requests, value: a.requests / a.actions, note: 'one click a turn, then the final answer' }),
    figure({ group: GROUP, ...ROWS.window, value: perAction(a), note: describe(a) }),
    figure({
      group: GROUP,
      ...ROWS.hidpi,
      value: perAction(b),
      note: `${describe(b)}; a screenshot costs ~${tokens(1280, 800)} tokens, ~${tokens(2560, 1600)} at full size`,
    }),
    figure({
      group: GROUP,
      ...ROWS.unpruned,
      value: perAction(c),
      note: `${describe(c)}; pruning to 3 screenshots sends ${(perAction(c) / perAction(b)).toFixed(1)}× less`,
    }),
    figure({ group: GROUP, ...ROWS.bare, samples: a.inputTokens, note: perRequest(a) }),
    figure({
      group: GROUP,
      ...ROWS.listed,
      samples: d.inputTokens,
      note: `${perRequest(d)}; ${d.listed} elements listed (only the newest list is sent)`,
    }),
  ];
}
