/**
 * Faults of the model service, through the real CLI and the real SDK against a local server that
 * speaks the Messages API. The goal is free-form (outside the rules grammar), so the Claude
 * planner learns it. 401, repeated 500s, a malformed body and a request that never gets an answer
 * end the goal as broken (exit 3) with a message that says what happened; a 429 is retried and
 * the goal goes on. The API key never shows in any output or file.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from '../support/project.ts';
import { startCli } from '../support/faults-cli.ts';
import { startMessagesServer, type MessagesServer, type ScriptedReply } from '../support/messages-server.ts';

const KEY = 'sk-ant-test-fault-4f9c1e77';

/** One goal per fault; goals run in file order, so the server's script follows the same order. */
const GOALS = {
  unauthorized: 'Look at the calculator and make sure it is ready for input (first check)',
  overloaded: 'Look at the calculator and make sure it is ready for input (second check)',
  malformed: 'Look at the calculator and make sure it is ready for input (third check)',
  limited: 'Look at the calculator and make sure it is ready for input (fourth check)',
  silent: 'Look at the calculator and make sure it is ready for input (fifth check)',
} as const;
type GoalId = keyof typeof GOALS;

const specOf = (ids: readonly GoalId[]): string => `name: Model
app:
  launch: \${env.FIXTURES}/open calculator
  window: Retrace Calculator
goals:
${ids
  .map(
    (id) => `  - id: ${id}
    goal: ${GOALS[id]}
    expect:
      - window: Retrace Calculator
`,
  )
  .join('')}`;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : statSync(full).isFile() ? [full] : [];
  });

let server: MessagesServer | undefined;
afterAll(async () => {
  await server?.close();
  server = undefined;
});

/** Runs a spec of `ids` against a server answering `script`. */
async function runWith(ids: readonly GoalId[], script: readonly ScriptedReply[], config?: string) {
  await server?.close();
  server = await startMessagesServer(script, { lifetimeMs: 150_000 });
  const project = new Project().write('specs/model.yaml', specOf(ids));
  if (config) project.write('retrace.config.yaml', config);
  const cli = startCli(project, ['run'], { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
  const end = await cli.ended;
  const requests = server.requests;
  // The key reaches the server, and nothing else: no console line, report, history or path.
  expect(requests.every((r) => JSON.stringify(r.headers).includes(KEY))).toBe(true);
  expect(cli.output).not.toContain(KEY);
  for (const file of filesUnder(project.root)) expect(readFileSync(file, 'utf8'), file).not.toContain(KEY);
  return {
    project,
    cli,
    end,
    verdict: (id: GoalId) => {
      const found = project.summary().goals.find((g) => g.goal === id);
      if (!found) throw new Error(`no verdict for ${id}\n${cli.output}`);
      return found;
    },
    /** Requests made for one goal (its text is in every request body, retries included). */
    requests: (id: GoalId) => requests.filter((r) => r.raw.includes(GOALS[id])).length,
  };
}

describe('the model service fails: 401, 500s, a malformed body, a 429 (one run, one goal each)', () => {
  let run: Awaited<ReturnType<typeof runWith>>;
  const fail500: ScriptedReply = { kind: 'error', status: 500, message: 'internal trouble', retryAfterMs: 20 };

  beforeAll(async () => {
    run = await runWith(
      ['unauthorized', 'overloaded', 'malformed', 'limited'],
      [
        { kind: 'error', status: 401, message: 'invalid x-api-key' },
        fail500,
        fail500,
        fail500,
        fail500,
        fail500,
        { kind: 'malformed' },
        { kind: 'error', status: 429, message: 'slow down', retryAfterMs: 50 },
        { kind: 'end', text: 'DONE: the calculator is ready for input.' },
      ],
    );
  }, 150_000);

  test('the run is broken (exit 3), and no key is printed or stored anywhere', () => {
    expect(run.end.code, run.cli.output).toBe(3);
    expect(run.project.summary().totals).toMatchObject({ broken: 3, passed: 1, failed: 0 });
  });

  test('401: broken, with a message about the key; not retried', () => {
    const verdict = run.verdict('unauthorized');
    expect(verdict).toMatchObject({ status: 'broken', category: 'infrastructure', mode: 'learned' });
    expect(verdict.message).toMatch(/ANTHROPIC_API_KEY/);
    expect(verdict.message).toMatch(/401|rejected/);
    expect(run.requests('unauthorized')).toBe(1);
  });

  test('500 on every attempt: broken after the retries, nothing saved', () => {
    const verdict = run.verdict('overloaded');
    expect(verdict).toMatchObject({ status: 'broken', category: 'infrastructure' });
    expect(verdict.message).toMatch(/Anthropic API/);
    expect(verdict.message).toMatch(/500/);
    expect(verdict.message).toContain('internal trouble');
    // The planner's default: 4 retries, so 5 attempts, and no more.
    expect(run.requests('overloaded')).toBe(5);
    expect(verdict.message).toMatch(/after 5 attempts/);
    expect(run.project.exists('paths/specs/model/overloaded.path.json')).toBe(false);
  });

  test('a malformed response: broken, saying so, nothing saved', () => {
    const verdict = run.verdict('malformed');
    expect(verdict).toMatchObject({ status: 'broken', category: 'infrastructure' });
    expect(verdict.message).toMatch(/Anthropic API/);
    expect(verdict.message).toMatch(/malformed/);
    expect(run.project.exists('paths/specs/model/malformed.path.json')).toBe(false);
  });

  test('429 then success: the request is retried and the goal is learned', () => {
    const verdict = run.verdict('limited');
    expect(verdict).toMatchObject({ status: 'passed', mode: 'learned', stopReason: 'goal_achieved' });
    expect(run.requests('limited'), 'one 429, one retry').toBe(2);
    expect(verdict.modelCalls, 'model calls count the retry').toBe(2);
    expect(run.project.exists('paths/specs/model/limited.path.json')).toBe(true);
  });
});

describe('the model service never answers', () => {
  test('broken within the goal time limit, saying the model did not answer', { timeout: 120_000 }, async () => {
    // The request is held for a minute. The goal's wall clock (timeouts.goalMs) is the only
    // bound a user can set from the project; the planner's own request timeout is 120 s. The
    // limit leaves time to start the app and reach the model on a loaded machine: a goal that
    // times out before its first request rightly says so, and would prove nothing here.
    const { end, verdict, cli } = await runWith(
      ['silent'],
      [{ kind: 'delay', ms: 60_000, then: { kind: 'end', text: 'DONE' } }],
      'timeouts: { goalMs: 15000, windowMs: 10000 }\n',
    );
    expect(end.code, cli.output).toBe(3);
    expect(end.endedAt - cli.startedAt, 'the run is not held for the minute').toBeLessThan(45_000);
    const v = verdict('silent');
    expect(v).toMatchObject({ status: 'broken', category: 'infrastructure', mode: 'learned' });
    expect(v.message).toMatch(/Anthropic API/);
    expect(v.message).toMatch(/did not answer|timed out/i);
    expect(v.modelCalls).toBeGreaterThanOrEqual(1);
  });
});

describe('the model service never answers, and the goal has time for a retry', () => {
  test('the goal deadline cuts the retries short, and the message names the API', { timeout: 180_000 }, async () => {
    // A request attempt waits 60 s (the planner's default); the goal allows 75 s, so the SDK
    // starts a retry that would outlive the goal. The deadline must end it, naming the API.
    const { end, verdict, cli } = await runWith(
      ['silent'],
      [
        { kind: 'delay', ms: 120_000, then: { kind: 'end', text: 'DONE' } },
        { kind: 'delay', ms: 120_000, then: { kind: 'end', text: 'DONE' } },
      ],
      'timeouts: { goalMs: 75000, windowMs: 10000 }\n',
    );
    expect(end.code, cli.output).toBe(3);
    const v = verdict('silent');
    expect(v).toMatchObject({ status: 'broken', category: 'infrastructure' });
    expect(v.message).toMatch(/The Anthropic API did not answer within \d+ ms after [2-9] attempts \(http:\/\/127\.0\.0\.1:\d+/);
    expect(v.message).not.toMatch(/did not finish within/);
  });
});
