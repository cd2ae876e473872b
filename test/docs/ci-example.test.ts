/**
 * The CI example of docs/ci.md, `.github/workflows/retrace.yml`, must keep working as the CLI
 * changes: every `retrace …` command line in its `run:` steps parses with the real CLI parser,
 * the shard matrix covers 1..N exactly once, reports go where they are uploaded from, and the
 * cache keeps `reports/history/` (run history and Allure history) between runs.
 * The e2e tests run `--shard` and `merge` for real; this test checks the example's wiring.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMANDS, parseArgs, parseShard, type ParsedArgs } from '../../src/cli/flags.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const WORKFLOW = '.github/workflows/retrace.yml';

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Record<string, unknown>;
}

interface Job {
  readonly needs?: string | string[];
  readonly strategy?: { readonly matrix?: Record<string, unknown> };
  readonly steps: readonly Step[];
}

const workflow = parse(readFileSync(resolve(ROOT, WORKFLOW), 'utf8')) as { jobs: Record<string, Job> };

// ---- a small shell reader: enough for the one-line commands of a workflow ------------------

type Token = { readonly word: string } | { readonly op: string };

/** Shell words and operators of one line; quotes and backslashes as sh reads them; `#` starts a comment. */
function shellTokens(line: string): Token[] {
  const tokens: Token[] = [];
  let word: string | undefined;
  const flush = (): void => {
    if (word !== undefined) tokens.push({ word });
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close === -1) throw new Error(`unterminated ' in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, close);
      i = close;
    } else if (c === '"') {
      let text = '';
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1] as string)) i++;
        text += line[i];
      }
      if (i >= line.length) throw new Error(`unterminated " in: ${line}`);
      word = (word ?? '') + text;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (/\s/.test(c)) {
      flush();
    } else if (c === '#' && word === undefined) {
      break;
    } else if ('|&;<>'.includes(c)) {
      flush();
      const op = /^(\|\||&&|>>|[|&;<>])/.exec(line.slice(i))?.[0] ?? c;
      tokens.push({ op });
      i += op.length - 1;
    } else {
      word = (word ?? '') + c;
    }
  }
  flush();
  return tokens;
}

/** The argv after `retrace` of every retrace invocation in a `run:` script. */
function retraceCommands(script: string): string[][] {
  const commands: string[][] = [];
  const lines = script.replace(/\\\n/g, ' ').split('\n');
  for (const line of lines) {
    let simple: string[] = [];
    const finish = (): void => {
      // Leading VAR=value assignments belong to the command's environment.
      const first = simple.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
      if (first === -1) return;
      const words = simple.slice(first);
      let at = -1;
      if (words[0] === 'retrace') at = 1;
      else if (words[0] === 'npx') {
        const i = words.findIndex((w, j) => j > 0 && !w.startsWith('-'));
        if (words[i] === 'retrace') at = i + 1;
      } else if (words[0] === 'node' && words[1]?.endsWith('bin/retrace.mjs')) at = 2;
      if (at !== -1) commands.push(words.slice(at));
    };
    for (const token of shellTokens(line)) {
      if ('op' in token) {
        finish();
        simple = [];
      } else {
        simple.push(token.word);
      }
    }
    finish();
  }
  return commands;
}

// ---- the workflow's retrace commands, per job and matrix value ----------------------------

interface Invocation {
  readonly job: string;
  readonly step: string;
  readonly stepIndex: number;
  readonly matrix: Readonly<Record<string, string>>;
  readonly argv: readonly string[];
}

/** Every combination of a job's matrix (only list-valued keys; `include`/`exclude` unused here). */
function combinations(job: Job): Record<string, string>[] {
  const matrix = job.strategy?.matrix ?? {};
  let combos: Record<string, string>[] = [{}];
  for (const [key, values] of Object.entries(matrix)) {
    if (!Array.isArray(values)) throw new Error(`matrix.${key} must be a list in this example`);
    combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: String(v) })));
  }
  return combos;
}

/** `${{ matrix.X }}` replaced by the combination's value; other expressions are left as they are. */
function substitute(text: string, matrix: Readonly<Record<string, string>>): string {
  return text.replace(/\$\{\{\s*matrix\.([A-Za-z_][\w-]*)\s*\}\}/g, (expr, key: string) => {
    if (matrix[key] === undefined) throw new Error(`${expr}: the matrix has no "${key}"`);
    return matrix[key];
  });
}

function invocations(): Invocation[] {
  const out: Invocation[] = [];
  for (const [jobName, job] of Object.entries(workflow.jobs)) {
    for (const matrix of combinations(job)) {
      job.steps.forEach((step, stepIndex) => {
        if (typeof step.run !== 'string') return;
        for (const argv of retraceCommands(substitute(step.run, matrix))) {
          // A value only GitHub knows (a secret, the run id) cannot be checked here.
          const unknown = argv.find((word) => word.includes('${{'));
          if (unknown) throw new Error(`${jobName} › ${step.name ?? step.run}: cannot check "${unknown}"`);
          out.push({ job: jobName, step: step.name ?? step.run, stepIndex, matrix, argv });
        }
      });
    }
  }
  return out;
}

const all = invocations();
const parsed = (inv: Invocation): ParsedArgs => parseArgs(inv.argv);
const ofCommand = (command: string): Invocation[] => all.filter((inv) => inv.argv[0] === command);

describe('the shell reader of this test', () => {
  it('finds retrace invocations however they are spelled', () => {
    expect(retraceCommands('npx retrace run --shard 1/3 || status=$?')).toEqual([['run', '--shard', '1/3']]);
    expect(retraceCommands('CI=true node bin/retrace.mjs report && retrace paths --json')).toEqual([['report'], ['paths', '--json']]);
    expect(retraceCommands('npx --no-install retrace merge "a b" \\\n  c # merged')).toEqual([['merge', 'a b', 'c']]);
    expect(retraceCommands('echo retrace run; cat reports/summary.json')).toEqual([]);
  });
});

describe(`the CI example (${WORKFLOW})`, () => {
  it('runs retrace at all', () => {
    expect(ofCommand('run').length).toBeGreaterThan(0);
    expect(ofCommand('merge').length).toBeGreaterThan(0);
    expect(ofCommand('report').length).toBeGreaterThan(0);
  });

  it('uses only commands and flags the CLI has', () => {
    for (const inv of all) {
      expect(() => parsed(inv), `${inv.job} › ${inv.step}: retrace ${inv.argv.join(' ')}`).not.toThrow();
      expect(Object.keys(COMMANDS)).toContain(parsed(inv).command);
    }
  });

  it('splits the run into shards that cover 1..N exactly once', () => {
    const sharded = ofCommand('run').filter((inv) => parsed(inv).flags.shard !== undefined);
    expect(sharded.length, 'a `retrace run --shard i/N` step').toBeGreaterThan(0);
    const shards = sharded.map((inv) => parseShard(parsed(inv).flags.shard as string));
    const counts = new Set(shards.map((s) => s.count));
    expect([...counts], 'every shard names the same N').toHaveLength(1);
    const n = [...counts][0] as number;
    expect(shards.map((s) => s.index).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });

  it('gives every shard its own reports dir and uploads it', () => {
    const runs = ofCommand('run').filter((inv) => parsed(inv).flags.shard !== undefined);
    const dirs = runs.map((inv) => parsed(inv).flags.reports);
    expect(
      dirs.every((d) => typeof d === 'string'),
      'each shard passes --reports',
    ).toBe(true);
    expect(new Set(dirs).size).toBe(runs.length);
    for (const inv of runs) {
      const job = workflow.jobs[inv.job] as Job;
      const uploads = job.steps
        .filter((s) => s.uses?.startsWith('actions/upload-artifact@'))
        .map((s) =>
          substitute(String(s.with?.path ?? ''), inv.matrix)
            .trim()
            .replace(/\/$/, ''),
        );
      expect(uploads, `${inv.job}: upload of ${String(parsed(inv).flags.reports)}`).toContain(
        String(parsed(inv).flags.reports).replace(/\/$/, ''),
      );
    }
  });

  it('merges the shards, then reports, in one job after the shards', () => {
    const [merge] = ofCommand('merge');
    const [report] = ofCommand('report').filter((inv) => inv.job === merge?.job);
    expect(merge && report).toBeTruthy();
    expect(parsed(merge as Invocation).positionals.length).toBeGreaterThan(0);
    expect((report as Invocation).stepIndex).toBeGreaterThan((merge as Invocation).stepIndex);
    const shardJobs = new Set(ofCommand('run').map((inv) => inv.job));
    const needs = [(workflow.jobs[(merge as Invocation).job] as Job).needs ?? []].flat();
    for (const job of shardJobs) expect(needs).toContain(job);
  });

  it('restores reports/history before the merge and saves it after the report', () => {
    const [merge] = ofCommand('merge');
    const [report] = ofCommand('report').filter((inv) => inv.job === merge?.job);
    const target = String(parsed(merge as Invocation).flags.reports ?? 'reports').replace(/\/$/, '');
    const steps = (workflow.jobs[(merge as Invocation).job] as Job).steps;
    const caches = steps.map((step, index) => ({ step, index })).filter(({ step }) => step.uses?.startsWith('actions/cache'));
    expect(caches.length).toBeGreaterThan(0);
    for (const { step } of caches) {
      const paths = String(step.with?.path ?? '')
        .split('\n')
        .map((p) => p.trim().replace(/\/$/, ''));
      expect(paths, `${step.name ?? step.uses}: cache path`).toContain(`${target}/history`);
    }
    const restores = caches.filter(({ step }) => /^actions\/cache(\/restore)?@/.test(step.uses ?? ''));
    const saves = caches.filter(({ step }) => /^actions\/cache(\/save)?@/.test(step.uses ?? ''));
    expect(restores.some(({ index }) => index < (merge as Invocation).stepIndex)).toBe(true);
    expect(saves.some(({ step, index }) => index > (report as Invocation).stepIndex || step.uses?.startsWith('actions/cache@'))).toBe(true);
  });

  it('installs with scripts that exist', () => {
    for (const job of Object.values(workflow.jobs)) {
      for (const step of job.steps) {
        for (const [, script] of (step.run ?? '').matchAll(/\bbash\s+(scripts\/[\w.-]+)/g)) {
          expect(existsSync(resolve(ROOT, script as string)), script).toBe(true);
        }
      }
    }
  });
});
