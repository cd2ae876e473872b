/**
 * Verdicts on real toolkits (issue 24): the order form of fixtures/apps/order in GTK 3, Qt 5 and
 * Chromium (each publishing its elements, the goals with role and text targets) and in Tk (no
 * tree, text targets), learned once on each base app with the rules planner, then replayed with
 * `--learn off --strict` on its variants through the real CLI. A regression that passes is a
 * silent incorrect success (must be 0); a benign variant that fails is an over-halt.
 * CI runs a sample (the variants marked `sample`, on the add goal); RETRACE_TOOLKITS=full runs every
 * variant (`npm run bench -- verdicts` reports it). RETRACE_TOOLKITS_APPS=gtk,qt keeps those apps;
 * RETRACE_TOOLKITS_GREP=<regex> keeps the variants whose args and environment it matches.
 * The figures per toolkit, and every wrong verdict with its message, go to
 * reports/verdicts-toolkits.json.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project, REPO } from '../support/project.ts';
import { TOOLKIT_APPS, TOOLKIT_CASES, writeToolkitBase, writeToolkitVariants, type ToolkitCase } from '../support/toolkit-corpus.ts';
import type { Summary } from '../../src/report/summary.ts';

const FULL = process.env.RETRACE_TOOLKITS === 'full';
const ONLY = process.env.RETRACE_TOOLKITS_APPS?.split(',').filter(Boolean);
const GREP = process.env.RETRACE_TOOLKITS_GREP ? new RegExp(process.env.RETRACE_TOOLKITS_GREP) : undefined;
const APPS = TOOLKIT_APPS.filter((app) => !ONLY || ONLY.includes(app));

function cases(): ToolkitCase[] {
  const described = (c: ToolkitCase): string => [...c.args, ...Object.entries(c.env ?? {}).map(([k, v]) => `${k}=${v}`)].join(' ');
  const mine = TOOLKIT_CASES.filter((c) => APPS.includes(c.app) && (!GREP || GREP.test(described(c))));
  if (FULL) return mine;
  return mine.filter((c) => c.sample).map((c) => ({ ...c, goals: ['add'] }));
}

interface Outcome {
  readonly case: ToolkitCase;
  readonly goal: string;
  readonly status: string;
  readonly message?: string;
}

/** The commit measured; a copy of the tree outside git (a baseline run) names it in a COMMIT file. */
function commitOf(repo: string): string {
  if (existsSync(join(repo, 'COMMIT'))) return readFileSync(join(repo, 'COMMIT'), 'utf8').trim();
  return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
}

const wrong = (o: Outcome): boolean => (o.case.kind === 'regression') === (o.status === 'passed');

describe('verdicts on real toolkits', () => {
  const project = new Project();
  const chosen = cases();
  let outcomes: Outcome[] = [];

  beforeAll(async () => {
    const goalsOf = (app: string): string[] => [...new Set(chosen.filter((c) => c.app === app).flatMap((c) => c.goals))];
    writeToolkitBase(project, Object.fromEntries(APPS.map((app) => [app, goalsOf(app)])));
    const learned = await project.cli(
      ['run', 'specs/base', '--planner', 'rules', '--workers', '2', '--update-baselines', 'changed'],
      {},
      900_000,
    );
    expect(learned.code, `learning the base apps failed:\n${learned.stdout}\n${learned.stderr}`).toBe(0);
    const ids = writeToolkitVariants(project, chosen);
    await project.cli(
      ['run', 'specs/variants', '--learn', 'off', '--strict', '--update-baselines', 'none', '--workers', '2'],
      {},
      3_600_000,
    );
    const summary = JSON.parse(project.read('reports/summary.json')) as Summary;
    outcomes = summary.goals.map((g) => ({
      case: ids.get(g.spec) as ToolkitCase,
      goal: g.goal,
      status: g.status,
      ...(g.message ? { message: g.message } : {}),
    }));
  }, 4_000_000);

  test('every chosen goal run has a verdict; no regression passes', () => {
    const report = {
      corpus: FULL ? 'full' : 'sample',
      commit: commitOf(REPO),
      toolkits: Object.fromEntries(
        APPS.map((app) => {
          const mine = outcomes.filter((o) => o.case.app === app);
          const of = (kind: string) => mine.filter((o) => o.case.kind === kind);
          return [
            app,
            {
              toolkit: mine[0]?.case.toolkit ?? app,
              regressions: of('regression').length,
              silentIncorrectSuccess: of('regression').filter(wrong).length,
              benign: of('benign').length,
              overHalt: of('benign').filter(wrong).length,
            },
          ];
        }),
      ),
      wrong: outcomes.filter(wrong).map((o) => ({
        app: o.case.app,
        args: o.case.args.join(' '),
        ...(o.case.env ? { env: o.case.env } : {}),
        kind: o.case.kind,
        goal: o.goal,
        got: o.status,
        ...(o.message ? { message: o.message } : {}),
      })),
    };
    mkdirSync(join(REPO, 'reports'), { recursive: true });
    writeFileSync(join(REPO, 'reports', 'verdicts-toolkits.json'), `${JSON.stringify(report, null, 2)}\n`);
    expect(outcomes.length).toBe(chosen.reduce((n, c) => n + c.goals.length, 0));
    expect(
      outcomes
        .filter((o) => o.case.kind === 'regression' && o.status === 'passed')
        .map((o) => `${o.case.app} ${o.case.args.join(' ')}: ${o.goal}`),
    ).toEqual([]);
  });
});
