/**
 * The drift sweep (issue 24, item 6): the counter (fixtures/apps/counter) learned at scale 1, then
 * replayed with `--learn off --strict` with the page drawn at another scale
 * (`--force-device-scale-factor`, the window grown with it, as on a screen of another DPI), its
 * elements published. Every zoom from 0.8 to 2.0 must pass, its "Add" found by the tree at the
 * button's box now (the recorded image, drawn at scale 1, is evidence only); a regression at a
 * zoom must still fail. RETRACE_ZOOMS=1.5,2 keeps those zooms. (As a pixel-only app, with no
 * accessibility bus, zooms from 1.25 on still fail: docs/how-it-works.md, "How pixel rules scale".)
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';
import { VARIANTS, writeBaseSpecs, writeVariantSpecs, type Variant } from '../support/corpus.ts';
import type { Summary } from '../../src/report/summary.ts';

type Goal = Summary['goals'][number];

const ZOOMS = (process.env.RETRACE_ZOOMS ?? '0.8,1.25,1.5,1.75,2').split(',').map(Number);
/** The counter's own window size (apps.json), grown with the zoom. */
const SIZE = { width: 360, height: 220 };
const REGRESSIONS = ['bug=revert', 'bug=error-toast'];

const base = VARIANTS.find((v) => v.app === 'counter' && v.query === '');
if (!base) throw new Error('variants.json has no counter base variant');

const zoomed = (zoom: number, query: string, kind: Variant['kind']): Variant => ({
  ...base,
  query,
  kind,
  description: `zoom ${zoom}${query ? `, ${query}` : ''}`,
  env: {
    RETRACE_CHROMIUM_FLAGS: `--force-device-scale-factor=${zoom}`,
    RETRACE_WINDOW_SIZE: `${Math.round(SIZE.width * zoom)},${Math.round(SIZE.height * zoom)}`,
  },
});

const ROWS: Variant[] = [
  ...ZOOMS.map((zoom) => zoomed(zoom, '', 'benign')),
  ...REGRESSIONS.map((query) => zoomed(ZOOMS[ZOOMS.length - 1] ?? 2, query, 'regression')),
];

describe('the counter at another scale', () => {
  const project = new Project();
  const env = {};
  const results: { variant: Variant; goal: Goal }[] = [];

  beforeAll(async () => {
    writeBaseSpecs(project, ['counter']);
    const learned = await project.cli(['run', 'specs/base', '--update-baselines', 'changed'], env, 180_000);
    expect(learned.code, `learning the counter failed:\n${learned.stdout}\n${learned.stderr}`).toBe(0);
    const ids = writeVariantSpecs(project, ROWS);
    await project.cli(
      ['run', 'specs/variants', '--learn', 'off', '--strict', '--update-baselines', 'none', '--workers', '2'],
      env,
      600_000,
    );
    for (const goal of project.summary().goals) results.push({ variant: ids.get(goal.spec) as Variant, goal });
  }, 800_000);

  test('every zoom passes; every regression at a zoom fails', () => {
    const verdicts = results.map(({ variant, goal }) => ({
      variant: variant.description,
      kind: variant.kind,
      status: goal.status,
      resolvedBy: [...new Set(goal.actions.map((a) => a.resolvedBy))],
      ...(goal.status === 'passed' ? {} : { message: goal.message }),
    }));
    expect(verdicts).toHaveLength(ROWS.length);
    const wrong = verdicts.filter((v) => (v.kind === 'regression') === (v.status === 'passed'));
    expect(wrong).toEqual([]);
    for (const v of verdicts.filter((x) => x.kind === 'benign')) expect(v.resolvedBy, `${v.variant}: Add found by`).toEqual(['element']);
  });
});
