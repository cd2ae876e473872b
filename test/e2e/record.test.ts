/**
 * `retrace record` end to end: the real CLI on its own display, a real app, and real X input
 * from xdotool as the person; stopped the way a terminal's Ctrl-C stops it (SIGINT to the whole
 * process group). The saved path must then replay with learning off, and the browser view of
 * retrace's own display must open a VNC session.
 */
import { describe, expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openViewer, strangerAnswers, STRANGERS_REFUSED } from '../support/vnc-client.ts';
import { Project, until, type RunningCli } from '../support/project.ts';
import type { Path } from '../../src/domain.ts';

const run = promisify(execFile);

const SPEC = `# Notes, recorded by demonstration
name: Notes
app:
  launch: \${env.FIXTURES}/open notes
  window: Retrace Notes
goals:
  - id: save          # the person shows how
    expect:
      - text: "Saved"
      - text: "Buy milk"
  - id: never
    expect:
      - text: "Nothing like this"
        timeoutMs: 500
`;

/** The person: xdotool on the recorder's display (with the cookie it printed), then waiting for the screen as a person would. */
class Person {
  private readonly env: NodeJS.ProcessEnv;

  constructor(display: string, cookie: string) {
    this.env = { ...process.env, DISPLAY: display, XAUTHORITY: cookie };
  }

  private async screen(): Promise<Buffer> {
    const { stdout } = await run('xwd', ['-root', '-silent'], { env: this.env, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  }

  /** Does `args` and waits until the screen changed (when `changes`) and then holds still. */
  async act(args: readonly string[], changes: boolean): Promise<void> {
    const before = await this.screen();
    await run('xdotool', [...args], { env: this.env });
    if (changes) await until('the screen to change', async () => ((await this.screen()).equals(before) ? undefined : true), 10_000);
    let last = await this.screen();
    await until(
      'the screen to hold still',
      async () => {
        const now = await this.screen();
        const still = now.equals(last);
        last = now;
        return still ? true : undefined;
      },
      10_000,
    );
  }
}

async function startRecording(project: Project, goal: string): Promise<{ recording: RunningCli; person: Person; url: string }> {
  const recording = project.start(['record', 'specs/notes.yaml', '--goal', goal]);
  await until('"recording:"', () => (recording.output.stdout.includes('recording:') ? true : undefined), 120_000).catch((error: Error) => {
    throw new Error(`${error.message}\n${recording.output.stdout}\n${recording.output.stderr}`);
  });
  const display = /on display (:\d+)/.exec(recording.output.stdout)?.[1];
  const cookie = /XAUTHORITY=(\S+)/.exec(recording.output.stdout)?.[1];
  const url = /drive the app in a browser: (\S+)/.exec(recording.output.stdout)?.[1];
  if (!display || !cookie || !url) throw new Error(`no display, cookie or address in:\n${recording.output.stdout}`);
  return { recording, person: new Person(display, cookie), url };
}

/** Ctrl-C in a terminal: SIGINT to the whole foreground process group. */
const interrupt = (recording: RunningCli): void => void process.kill(-recording.child.pid!, 'SIGINT');

describe('retrace record', () => {
  const project = new Project().write('specs/notes.yaml', SPEC);

  test('records a demonstration from real X input and writes its steps into the spec', async () => {
    const { recording, person, url } = await startRecording(project, 'save');

    // The browser view of retrace's own display: the noVNC page, and its bridge speaks VNC.
    const viewer = await openViewer(url);
    expect(viewer.page).toContain('./novnc/core/rfb.js');
    expect(viewer.page).toContain('your mouse and keyboard drive the app');
    expect(viewer.module).toBe(200);
    expect(viewer.greeting).toEqual({ version: expect.stringMatching(/^RFB 003\.\d{3}\n$/), width: 1280, height: 800 });
    // The page drives the app: nobody without the printed address's token reaches it.
    const answers = await strangerAnswers(url);
    expect(answers).toEqual(STRANGERS_REFUSED(answers));

    await person.act(['mousemove', '155', '188', 'click', '1'], false);
    await person.act(['type', '--delay', '40', 'Buy milk'], true);
    await person.act(['key', 'ctrl+s'], true);
    interrupt(recording);
    const result = await recording.result;
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('saved paths/specs/notes/save.path.json (3 actions); wrote its steps: into specs/notes.yaml');

    const spec = project.read('specs/notes.yaml');
    expect(spec).toBe(
      SPEC.replace(
        '  - id: save          # the person shows how\n',
        '  - id: save          # the person shows how\n    steps:\n      - click: New\n      - type: Buy milk\n      - key: ctrl+s\n',
      ),
    );
    const path = JSON.parse(project.read('paths/specs/notes/save.path.json')) as Path;
    expect(path.planner).toBe('demonstrated');
    expect(path.source.kind).toBe('steps');
    expect(path.actions.map((a) => a.action)).toEqual([
      { kind: 'click', target: { text: 'New' } },
      { kind: 'type', text: 'Buy milk' },
      { kind: 'key', combo: 'ctrl+s' },
    ]);
    expect(path.actions[0]?.anchor?.text).toBe('New');
    // The typed text and the saved status are each their own action's effect.
    expect(path.actions[1]?.effects.some((e) => e.text?.includes('Buy milk'))).toBe(true);
    expect(path.actions[2]?.effects.some((e) => e.text?.includes('Saved'))).toBe(true);
  }, 120_000);

  test('the recorded path replays with --learn off, and the run writes its storyboard', async () => {
    const replay = await project.cli(['run', 'specs/notes.yaml', '--goal', 'save', '--learn', 'off']);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    const verdict = project.summary().goals.find((g) => g.goal === 'save');
    expect(verdict).toMatchObject({ status: 'passed', mode: 'replayed', modelCalls: 0 });
    expect(verdict?.actions.every((a) => a.verified)).toBe(true);

    // The run wrote the path's storyboard, and the goal's Allure result links to it.
    expect(project.read('reports/storyboards/specs/notes/save.html')).toContain('<h1>specs/notes.yaml#save</h1>');
    const results = readdirSync(join(project.root, 'reports/allure-results')).filter((f) => f.endsWith('-result.json'));
    const links = results.flatMap(
      (f) => (JSON.parse(project.read(`reports/allure-results/${f}`)) as { links: { url: string; type: string }[] }).links,
    );
    expect(links).toContainEqual(expect.objectContaining({ type: 'storyboard', url: '../storyboards/specs/notes/save.html' }));
  }, 120_000);

  test('saves nothing and exits 1 when the expectations do not hold', async () => {
    const before = project.read('specs/notes.yaml');
    const { recording, person } = await startRecording(project, 'never');
    await person.act(['mousemove', '155', '188', 'click', '1'], false);
    interrupt(recording);
    const result = await recording.result;
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stderr).toContain('the expectations of "never" did not hold: nothing saved');
    expect(project.exists('paths/specs/notes/never.path.json')).toBe(false);
    expect(project.read('specs/notes.yaml')).toBe(before);
  }, 120_000);
});
