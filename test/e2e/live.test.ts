/**
 * `retrace run --live` end to end: while a real run goes, the printed address serves the noVNC
 * page, and its WebSocket opens a VNC session on the run's own display (x11vnc behind the bridge)
 * whose frames follow the run: one taken as the run starts and one taken while it goes differ.
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

describe('retrace run --live', () => {
  const project = new Project().write('specs/notes.yaml', SPEC);

  test('prints an address that serves the run\'s display to a browser, frames that change while the run goes', async () => {
    const run = project.start(['run', 'specs/notes.yaml', '--live'], {}, 120_000, false);
    let ended = false;
    void run.result.finally(() => (ended = true));
    const url = await until('"live view:"', () => /live view: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(run.output.stderr)?.[1], 30_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${run.output.stdout}\n${run.output.stderr}`);
    });

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
    expect(viewer.module).toBe(200);
    expect(viewer.greeting).toEqual({ version: expect.stringMatching(/^RFB 003\.\d{3}\n$/), width: 1280, height: 800 });

    const result = await run.result;
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(project.summary().goals).toMatchObject([{ goal: 'note', status: 'passed' }]);
    // The viewer ends with the run.
    await expect(fetch(url)).rejects.toThrow();
  }, 120_000);
});
