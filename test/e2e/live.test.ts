/**
 * `retrace run --live` end to end: while a real run goes, the printed address serves the noVNC
 * page, and its WebSocket opens a VNC session on the run's own display (x11vnc behind the bridge)
 * whose frames follow the run: one taken as the run starts and one taken while it goes differ.
 * The same port streams the run's status (`/events`): the goal starting, its actions, its result.
 */
import { describe, expect, test } from 'vitest';
import { Project, until } from '../support/project.ts';
import { openRfbSession, openViewer } from '../support/vnc-client.ts';

// The wait keeps the run going while the test looks at it; the run still has to pass.
const SPEC = `name: Notes
app:
  launch: \${env.FIXTURES}/open notes
  window: Retrace Notes
goals:
  - id: note
    steps:
      - click: New
      - type: Buy milk
      - wait: 4000
    expect:
      - text: "Buy milk"
`;

/** Pixels (4 bytes each) that differ between two frames of one size. */
function differingPixels(a: Buffer, b: Buffer): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) if (a.readUInt32LE(i) !== b.readUInt32LE(i)) n++;
  return n;
}

interface Status {
  readonly kind: string;
  readonly text: string;
  readonly passed?: boolean;
  /** It arrived after the run had ended. */
  readonly late: boolean;
}

/** Reads the page's status stream (Server-Sent Events, one JSON `data:` line each) into `into`. */
async function readStatus(url: string, into: Status[], ended: () => boolean): Promise<void> {
  const response = await fetch(new URL('events', url));
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const decoder = new TextDecoder();
  let pending = '';
  void (async () => {
    for await (const chunk of response.body!) {
      pending += decoder.decode(chunk, { stream: true });
      for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
        into.push({ ...(JSON.parse(pending.slice(0, end).replace(/^data: /, '')) as Omit<Status, 'late'>), late: ended() });
        pending = pending.slice(end + 2);
      }
    }
  })().catch(() => undefined);
}

describe('retrace run --live', () => {
  const project = new Project().write('specs/notes.yaml', SPEC);

  test('prints an address that serves the run\'s display to a browser, frames that change while the run goes', async () => {
    const run = project.start(['run', 'specs/notes.yaml', '--live'], {}, 120_000, false);
    let ended = false;
    void run.result.finally(() => (ended = true));
    const url = await until('"live view:"', () => /live view: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(run.output.stderr)?.[1], 30_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${run.output.stdout}\n${run.output.stderr}`);
    });

    const statuses: Status[] = [];
    await readStatus(url, statuses, () => ended);

    // The address is printed before the app starts: the first frame is the bare display, and a
    // later one shows the app. A frozen or cached picture, or another display, never differs.
    const session = await openRfbSession(url);
    const first = await session.frame();
    expect(first.length).toBe(1280 * 800 * 4);
    // At least a window's worth of pixels, not a pointer drawn elsewhere.
    await until('a frame that differs from the first by 10,000 pixels', async () => (differingPixels(first, await session.frame()) > 10_000 ? true : undefined), 60_000);
    expect(ended).toBe(false);
    session.close();

    const viewer = await openViewer(url);
    expect(viewer.page).toContain('./novnc/core/rfb.js');
    expect(viewer.page).toContain('rfb.viewOnly = true');
    expect(viewer.page).toContain("new EventSource('./events')");
    expect(viewer.module).toBe(200);
    expect(viewer.greeting).toEqual({ version: expect.stringMatching(/^RFB 003\.\d{3}\n$/), width: 1280, height: 800 });

    const result = await run.result;
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(project.summary().goals).toMatchObject([{ goal: 'note', status: 'passed' }]);
    // In order, all while the run went: the goal starting, an action in progress, the result.
    const at = (kind: string, pattern: RegExp): number => statuses.findIndex((s) => s.kind === kind && pattern.test(s.text));
    const started = at('now', /^specs\/notes\.yaml › note: (?!action)/);
    const action = at('now', /^specs\/notes\.yaml › note: action 1\/\d+ .*New/);
    const done = at('done', /^✓ specs\/notes\.yaml › note passed \(scripted, \d+ actions, .* ms\)$/);
    expect([started, action, done].every((i) => i >= 0), JSON.stringify(statuses, null, 1)).toBe(true);
    expect(started).toBeLessThan(action);
    expect(action).toBeLessThan(done);
    expect(statuses[done]?.passed).toBe(true);
    expect(statuses.filter((s) => s.late)).toEqual([]);
    // The viewer ends with the run.
    await expect(fetch(url)).rejects.toThrow();
  }, 120_000);
});
