/**
 * Verdicts you can trust (PRODUCT.md): goals are learned once on the base fixture apps, then
 * replayed with `--learn off --strict` on their variants (strict: an app that swallowed a click
 * is a regression a user would feel, even when a retry got past it). A regression that passes is
 * a silent incorrect success (must be 0); a benign change that fails is an over-halt (measured,
 * driven down).
 * CI runs a fixed sample of the corpus; RETRACE_VERDICTS=full runs all of it (the benchmark does).
 * RETRACE_VERDICTS_APPS=dynamic,calculator keeps only those apps (of the sample or the full corpus),
 * to iterate on one app's verdicts.
 * The figures, and every outcome (variant, expected, got), are written to reports/verdicts.json.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project, REPO } from '../support/project.ts';
import { CORPUS_APPS, VARIANTS, writeBaseSpecs, writeVariantSpecs, type Variant } from '../support/corpus.ts';
import type { Summary } from '../../src/report/summary.ts';

const FULL = process.env.RETRACE_VERDICTS === 'full';
/** The CI sample: per app, the first few benign and regression variants of variants.json. */
const PER_APP = { benign: 3, regression: 3 };
const ONLY = process.env.RETRACE_VERDICTS_APPS?.split(',').filter(Boolean);
const APPS = (FULL ? CORPUS_APPS : ['calculator', 'notes', 'settings', 'login']).filter((app) => !ONLY || ONLY.includes(app));

function sample(): Variant[] {
  if (FULL) return VARIANTS.filter((v) => APPS.includes(v.app));
  return APPS.flatMap((app) =>
    (['benign', 'regression'] as const).flatMap((kind) => VARIANTS.filter((v) => v.app === app && v.kind === kind).slice(0, PER_APP[kind])),
  );
}

interface Outcome {
  readonly spec: string;
  readonly variant: Variant;
  readonly goal: string;
  readonly status: string;
  readonly message?: string;
}

describe('verdict corpus', () => {
  const project = new Project();
  const variants = sample();
  let outcomes: Outcome[] = [];

  beforeAll(async () => {
    // Only the goals some variant replays are learned (the full corpus replays every goal).
    const goalsOf = (app: string): string[] => [...new Set(variants.filter((v) => v.app === app).flatMap((v) => v.goals))];
    writeBaseSpecs(project, APPS, FULL ? {} : Object.fromEntries(APPS.map((app) => [app, goalsOf(app)])));
    const learned = await project.cli(['run', 'specs/base', '--workers', '2', '--update-baselines', 'changed'], {}, 600_000);
    expect(learned.code, `learning the base apps failed:\n${learned.stdout}\n${learned.stderr}`).toBe(0);
    const ids = writeVariantSpecs(project, variants);
    await project.cli(
      ['run', 'specs/variants', '--learn', 'off', '--strict', '--update-baselines', 'none', '--workers', '2'],
      {},
      2_400_000,
    );
    const summary = JSON.parse(project.read('reports/summary.json')) as Summary;
    outcomes = summary.goals.map((g) => ({
      spec: g.spec,
      variant: ids.get(g.spec) as Variant,
      goal: g.goal,
      status: g.status,
      ...(g.message ? { message: g.message } : {}),
    }));
  }, 3_000_000);

  test('the corpus has at least 10 regression and 10 benign variants', () => {
    if (!ONLY) {
      expect(variants.filter((v) => v.kind === 'regression').length).toBeGreaterThanOrEqual(10);
      expect(variants.filter((v) => v.kind === 'benign').length).toBeGreaterThanOrEqual(10);
    }
    const expected = variants.reduce((n, v) => n + v.goals.length, 0);
    expect(outcomes.length).toBe(expected);
  });

  test('no regression passes (silent incorrect success = 0), and over-halt is recorded', () => {
    const silent = outcomes.filter((o) => o.variant.kind === 'regression' && o.status === 'passed');
    const halted = outcomes.filter((o) => o.variant.kind === 'benign' && o.status !== 'passed');
    const report = {
      corpus: FULL ? 'full' : 'sample',
      variants: variants.length,
      regressions: outcomes.filter((o) => o.variant.kind === 'regression').length,
      benign: outcomes.filter((o) => o.variant.kind === 'benign').length,
      silentIncorrectSuccess: silent.length,
      overHalt: halted.length,
      overHaltRate: halted.length / Math.max(1, outcomes.filter((o) => o.variant.kind === 'benign').length),
      silent: silent.map((o) => ({ app: o.variant.app, query: o.variant.query, goal: o.goal })),
      halted: halted.map((o) => ({
        app: o.variant.app,
        query: o.variant.query,
        env: o.variant.env,
        goal: o.goal,
        status: o.status,
        message: o.message?.split('\n')[0],
      })),
      outcomes: outcomes.map((o) => ({
        app: o.variant.app,
        query: o.variant.query,
        ...(o.variant.env ? { env: o.variant.env } : {}),
        goal: o.goal,
        expected: o.variant.kind === 'benign' ? 'passed' : 'failed',
        got: o.status,
        ...(o.message ? { why: o.message.split('\n')[0] } : {}),
      })),
    };
    mkdirSync(join(REPO, 'reports'), { recursive: true });
    writeFileSync(join(REPO, 'reports', 'verdicts.json'), `${JSON.stringify(report, null, 2)}\n`);
    expect(silent).toEqual([]);
    // Over-halt is driven down, not yet to its goal of at most one run. Measured with --strict
    // on the full corpus: 23 of 131 benign runs (dark themes reading a success colour as plain,
    // larger fonts, the dynamic app's refresh-twice, settings layout=moved since fixed); the CI
    // sample's `layout=moved` runs all pass. The dynamic and calculator apps alone: 14 of 58, then
    // 5 once content changing on its own was told apart from effects, a text found by its pixels
    // and a proposal made in the window it was healed in. The calculator and list apps alone: 3 of
    // 42, then 0 once a small asterisk was read by its shape and a picked item's look compared
    // around its larger label (clock=on's add fails besides while its clock shows "15").
    expect(report.overHaltRate, JSON.stringify(report.halted, null, 2)).toBeLessThanOrEqual(0.25);
    if (FULL && !ONLY) expect(report.benign).toBeGreaterThanOrEqual(30);
  });
});
