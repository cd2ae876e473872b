/**
 * Safety while learning with a model (through a local Messages API server): runaway loops are
 * stopped by the repeat guard and the bounds, the model cannot act outside the application's
 * window, and every stop is reported with its reason.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';
import { startMessagesServer, type MessagesServer, type ScriptedReply } from '../support/messages-server.ts';

const spec = (bounds: string): string => `name: Settings
options:
  bounds: { ${bounds} }
app:
  launch: \${env.FIXTURES}/open settings
  window: Retrace Settings
goals:
  - id: explore
    goal: Find the volume control somewhere in the app
    expect:
      - text: "Volume"
`;

const click = (x: number, y: number): ScriptedReply => ({ kind: 'tools', calls: [{ action: 'left_click', coordinate: [x, y] }] });

describe('learning stops for a reason', () => {
  let server: MessagesServer | undefined;
  afterEach(async () => server?.close());

  const learn = async (bounds: string, script: ScriptedReply[]) => {
    server = await startMessagesServer(script, { lifetimeMs: 120_000 });
    const project = new Project().write('specs/settings.yaml', spec(bounds));
    const result = await project.cli(['run'], { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url });
    return { result, verdict: project.summary().goals[0], project };
  };

  test('the same click with no effect, again and again: no_progress', async () => {
    // (400, 350) is empty background on the home screen: clicking it changes nothing.
    const { result, verdict, project } = await learn(
      'maxSteps: 10',
      Array.from({ length: 10 }, () => click(400, 350)),
    );
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(verdict).toMatchObject({ status: 'failed', mode: 'learned', stopReason: 'no_progress' });
    expect(verdict?.actions.length).toBe(3);
    expect(project.exists('paths/specs/settings/explore.path.json')).toBe(false);
  });

  test('more actions than allowed: max_steps', async () => {
    const script = [click(168, 122), click(168, 88), click(168, 154), click(168, 88), click(168, 154), click(168, 88)];
    const { result, verdict } = await learn('maxSteps: 4', script);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(verdict).toMatchObject({ status: 'failed', stopReason: 'max_steps' });
    expect(verdict?.actions.length).toBe(4);
  });

  test('more model calls than allowed: budget', async () => {
    const script = [click(168, 122), click(168, 88), click(168, 154), click(168, 88)];
    const { result, verdict } = await learn('maxModelCalls: 2', script);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(verdict).toMatchObject({ status: 'failed', stopReason: 'budget' });
    expect(verdict?.modelCalls).toBe(2);
  });

  test('a click outside the window is refused and never performed', async () => {
    // The window is 480×400: (900, 700) is outside it. The model is told, then gives up.
    const script: ScriptedReply[] = [click(900, 700), { kind: 'end', text: 'IMPOSSIBLE: there is no volume control.' }];
    const { result, verdict } = await learn('maxSteps: 10', script);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(verdict?.actions).toEqual([]);
    expect(verdict?.stopReason).toBe('no_progress');
    const second = server?.requests[1]?.raw ?? '';
    expect(second).toMatch(/outside/i);
  });
});
