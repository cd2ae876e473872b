/**
 * `retrace run --live --workers 2` end to end: while a real run goes, the printed address serves
 * the noVNC page, and its WebSockets open a VNC session on each worker's display (an x11vnc each
 * behind the bridge) whose frames follow that worker: one taken as the run starts and one taken
 * while it goes differ, and the two workers' screens differ from each other. The same port
 * streams the run's status (`/events`): each goal starting on its worker's screen, its actions,
 * its result.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { Project, until } from '../support/project.ts';
import { openRfbSession, openViewer, strangerAnswers, STRANGERS_REFUSED } from '../support/vnc-client.ts';

const run = promisify(execFile);

/** How `xdotool` fares on `display` without its cookie: the same user without it, then user nobody. */
const xWithoutCookie = async (display: string): Promise<string[]> => {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', DISPLAY: display, XAUTHORITY: '/nonexistent' };
  const attempt = (command: readonly string[]): Promise<string> =>
    run(command[0]!, command.slice(1), { env }).then(
      () => 'connected',
      (error: { stderr?: string }) => (/Authorization required/.test(error.stderr ?? '') ? 'refused' : `failed otherwise: ${error.stderr}`),
    );
  return [
    await attempt(['xdotool', 'getmouselocation']),
    await attempt(['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', 'xdotool', 'getmouselocation']),
  ];
};

// The wait keeps the run going while the test looks at it; the run still has to pass. Two spec
// files, so the two workers run one each at the same time.
const spec = (name: string, note: string): string => `name: ${name}
app:
  launch: \${env.FIXTURES}/open notes
  window: Retrace Notes
goals:
  - id: note
    steps:
      - click: New
      - type: ${note}
      - wait: 4000
    expect:
      - text: "${note}"
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
  readonly screen?: number;
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
  const project = new Project()
    .write('specs/notes.yaml', spec('Notes', 'Buy milk'))
    .write('specs/memo.yaml', spec('Memo', 'Call the plumber'));

  test("prints an address that serves every worker's display to a browser, frames that change while the run goes", async () => {
    const run = project.start(['run', 'specs', '--live', '--workers', '2'], {}, 120_000, false);
    let ended = false;
    void run.result.finally(() => (ended = true));
    const url = await until(
      '"live view:"',
      () => /live view: (http:\/\/127\.0\.0\.1:\d+\/[\w-]{32}\/)/.exec(run.output.stderr)?.[1],
      30_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${run.output.stdout}\n${run.output.stderr}`);
    });
    const displays = /\(displays? ([^)]*), view only\)/.exec(run.output.stderr)?.[1]?.split(', ') ?? [];
    expect(displays).toHaveLength(2);

    const statuses: Status[] = [];
    await readStatus(url, statuses, () => ended);

    // The address is printed before the apps start: the first frame of each screen is a bare
    // display, and a later one shows the app. A frozen or cached picture never differs.
    const sessions = await Promise.all([1, 2].map((screen) => openRfbSession(url, screen)));
    const firsts = await Promise.all(sessions.map((session) => session.frame()));
    for (const first of firsts) expect(first.length).toBe(1280 * 800 * 4);
    // Each shows an app (at least a window's worth of pixels, not a pointer drawn elsewhere), and
    // once the notes are typed the two screens differ: two displays, not one served twice.
    await until(
      'frames that differ from the first by 10,000 pixels each, and from each other',
      async () => {
        const [a, b] = await Promise.all(sessions.map((session) => session.frame()));
        return differingPixels(firsts[0]!, a!) > 10_000 && differingPixels(firsts[1]!, b!) > 10_000 && differingPixels(a!, b!) > 100
          ? true
          : undefined;
      },
      60_000,
    );
    expect(ended).toBe(false);
    for (const session of sessions) session.close();

    // Only the person it printed the address to sees the run: no screen byte for a stranger,
    // and the displays let in no X client without their cookie.
    const answers = await strangerAnswers(url);
    expect(answers).toEqual(STRANGERS_REFUSED(answers));
    for (const display of displays) expect(await xWithoutCookie(display)).toEqual(['refused', 'refused']);
    expect(ended).toBe(false);

    const viewer = await openViewer(url);
    expect(viewer.page).toContain('./novnc/core/rfb.js');
    expect(viewer.page).toContain('rfb.viewOnly = true');
    expect(viewer.page).toContain("new EventSource('./events')");
    expect(viewer.page.match(/class="tile"/g)).toHaveLength(2);
    expect(viewer.module).toBe(200);
    expect(viewer.greeting).toEqual({ version: expect.stringMatching(/^RFB 003\.\d{3}\n$/), width: 1280, height: 800 });

    const result = await run.result;
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(project.summary().goals).toHaveLength(2);
    expect(project.summary().goals.every((g) => g.status === 'passed')).toBe(true);
    // In order, all while the run went, each on its worker's screen: the goal starting, an action
    // in progress, the result.
    const screens = new Set<number | undefined>();
    for (const file of ['notes', 'memo']) {
      const at = (kind: string, pattern: RegExp): number => statuses.findIndex((s) => s.kind === kind && pattern.test(s.text));
      const started = at('now', new RegExp(`^specs/${file}\\.yaml › note: (?!action)`));
      const action = at('now', new RegExp(`^specs/${file}\\.yaml › note: action 1/\\d+ .*New`));
      const done = at('done', new RegExp(`^✓ specs/${file}\\.yaml › note passed \\(scripted, \\d+ actions, .* ms\\)$`));
      expect(
        [started, action, done].every((i) => i >= 0),
        JSON.stringify(statuses, null, 1),
      ).toBe(true);
      expect(started).toBeLessThan(action);
      expect(action).toBeLessThan(done);
      expect(statuses[done]?.passed).toBe(true);
      expect(statuses[action]?.screen).toBe(statuses[done]?.screen);
      screens.add(statuses[done]?.screen);
    }
    expect(screens).toEqual(new Set([1, 2]));
    expect(statuses.filter((s) => s.late)).toEqual([]);
    // The viewer ends with the run.
    await expect(fetch(url)).rejects.toThrow();
  }, 120_000);
});
