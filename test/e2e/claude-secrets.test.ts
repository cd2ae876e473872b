/**
 * Learning with Claude, through the real SDK against a local server that speaks the Messages API:
 * the goal is learned with model calls, then replayed with zero requests. The goal types a
 * secret: its value must reach the application, and appear in no path, report, console line,
 * OCR text of any stored image, or request body.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from '../support/project.ts';
import { startMessagesServer, type MessagesServer } from '../support/messages-server.ts';
import { decodePng } from '../../src/vision/frame.ts';
import { sharedTextReader, closeSharedTextReader } from '../../src/vision/ocr/tesseract-reader.ts';

const SECRET = 'Tr0ub4dor-3x';

const LOGIN = `name: Login
app:
  launch: \${env.FIXTURES}/open login "password=\${secret.LOGIN_PASSWORD}"
  window: Retrace Login
goals:
  - id: sign-in
    goal: Sign in as alice with the password \${secret.LOGIN_PASSWORD}
    expect:
      - text: "Welcome, alice"
      - absent: "Wrong password"
`;

/** The model's side of the lesson: click the fields (login regions of fixtures/apps/apps.json), type, sign in. */
const LESSON = [
  { kind: 'tools' as const, text: 'I will click the username field.', calls: [{ action: 'left_click', coordinate: [178, 116] }] },
  { kind: 'tools' as const, calls: [{ action: 'type', text: 'alice' }] },
  { kind: 'tools' as const, calls: [{ action: 'left_click', coordinate: [178, 195] }] },
  { kind: 'tools' as const, calls: [{ action: 'type', text: '${secret.LOGIN_PASSWORD}' }] },
  { kind: 'tools' as const, calls: [{ action: 'left_click', coordinate: [72, 249] }] },
  { kind: 'end' as const, text: 'DONE: signed in as alice.' },
];

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : statSync(full).isFile() ? [full] : [];
  });

describe('learning with Claude through a local Messages API server', () => {
  const project = new Project().write('specs/login.yaml', LOGIN);
  let server: MessagesServer;
  let console = '';
  const env = () => ({ ANTHROPIC_API_KEY: 'sk-test-key', ANTHROPIC_BASE_URL: server.url, LOGIN_PASSWORD: SECRET });

  beforeAll(async () => {
    server = await startMessagesServer(LESSON, { lifetimeMs: 180_000 });
  });
  afterAll(async () => {
    await server.close();
    await closeSharedTextReader();
  });

  test('learns the free-form goal with model calls', async () => {
    const result = await project.cli(['run'], env());
    console += result.stdout + result.stderr;
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const verdict = project.summary().goals[0];
    expect(verdict).toMatchObject({ status: 'passed', mode: 'learned', stopReason: 'goal_achieved' });
    expect(verdict?.modelCalls).toBe(LESSON.length);
    expect(server.requests).toHaveLength(LESSON.length);
    expect(verdict?.actions.map((a) => a.kind)).toEqual(['click', 'type', 'click', 'type', 'click']);
  });

  test('each request lists the elements the page publishes, with boxes in screenshot pixels', () => {
    for (const request of server.requests) {
      const sent = JSON.stringify(request.body.messages.at(-1));
      expect(sent).toContain('Elements the application publishes');
      expect(sent).toMatch(/\\"Username\\" \[\d+, \d+, \d+, \d+\]/);
      expect(sent).toMatch(/button \\"Sign in\\" \[\d+, \d+, \d+, \d+\]/);
    }
  });

  test('replays it with zero requests to the model', async () => {
    const before = server.requests.length;
    const result = await project.cli(['run'], env());
    console += result.stdout + result.stderr;
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(project.summary().goals[0]).toMatchObject({ status: 'passed', mode: 'replayed', modelCalls: 0 });
    expect(server.requests.length).toBe(before);
  });

  test('the path keeps the placeholder; the secret reaches only the application', () => {
    const path = project.read('paths/specs/login/sign-in.path.json');
    expect(path).toContain('${secret.LOGIN_PASSWORD}');
    // "Welcome, alice" was asserted by both runs: the app received the real value.
  });

  test('the secret appears in no file, console line, request body or image text', async () => {
    const leaks: string[] = [];
    for (const file of [...filesUnder(join(project.root, 'paths')), ...filesUnder(join(project.root, 'reports'))]) {
      if (readFileSync(file).includes(SECRET)) leaks.push(file);
    }
    expect(leaks).toEqual([]);
    expect(console).not.toContain(SECRET);
    for (const request of server.requests) expect(request.raw).not.toContain(SECRET);

    const reader = sharedTextReader();
    const images = [...filesUnder(join(project.root, 'paths')), ...filesUnder(join(project.root, 'reports'))].filter((f) =>
      f.endsWith('.png'),
    );
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      const text = (await reader.read(decodePng(readFileSync(image)))).text;
      expect(text, image).not.toContain(SECRET);
    }
  });
});
