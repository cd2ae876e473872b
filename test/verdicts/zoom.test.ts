/**
 * The drift sweep (issue 24, item 6): the counter (fixtures/apps/counter) learned at scale 1, then
 * replayed with `--learn off --strict` with the page drawn at another scale
 * (`--force-device-scale-factor`, the window grown with it, as on a screen of another DPI). Every
 * zoom from 0.8 to 2.0 must pass and a regression at zoom 2 must still fail, twice: with its
 * elements published, its "Add" found by the tree at the button's box now (the recorded image,
 * drawn at scale 1, is evidence only); and as a pixel-only app (no accessibility bus, learned and
 * replayed), its "Add" found by the recorded image resized to the window's scale
 * (docs/how-it-works.md, "How pixel rules scale"). RETRACE_ZOOMS=1.5,2 keeps those zooms;
 * RETRACE_ZOOM_MODES=pixels keeps that mode.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { Project } from '../support/project.ts';
import { VARIANTS, writeBaseSpecs, writeVariantSpecs, type Variant } from '../support/corpus.ts';
import type { Summary } from '../../src/report/summary.ts';

type Goal = Summary['goals'][number];

const ZOOMS = (process.env.RETRACE_ZOOMS ?? '0.8,1.25,1.5,1.75,2').split(',').map(Number);
const REGRESSIONS = ['bug=revert', 'bug=error-toast'];

const base = VARIANTS.find((v) => v.app === 'counter' && v.query === '');
if (!base) throw new Error('variants.json has no counter base variant');

const zoomed = (zoom: number, query: string, kind: Variant['kind']): Variant => ({
  ...base,
  query,
  kind,
  description: `zoom ${zoom}${query ? `, ${query}` : ''}`,
  // The window keeps its size in the page's own units, so it is drawn as much larger as the page.
  env: { RETRACE_CHROMIUM_FLAGS: `--force-device-scale-factor=${zoom}` },
});

const ROWS: Variant[] = [
  ...ZOOMS.map((zoom) => zoomed(zoom, '', 'benign')),
  ...REGRESSIONS.map((query) => zoomed(ZOOMS[ZOOMS.length - 1] ?? 2, query, 'regression')),
];

const MODES = (process.env.RETRACE_ZOOM_MODES ?? 'tree,pixels').split(',');

describe.each(
  [
    { mode: 'tree', env: {}, first: 'element', resolvers: ['element'] },
    // No accessibility bus, learned and replayed: every rule is a pixel rule. "Add" is found by
    // its recorded image resized to the window's scale; once it shows its focus ring (actions 2
    // and 3), drawn 3.75 px wide at 1.25, its image scores 0.76–0.87 there and OCR finds it.
    { mode: 'pixels', env: { RETRACE_ACCESSIBILITY: 'off' }, first: 'template', resolvers: ['template', 'ocr'] },
  ].filter((m) => MODES.includes(m.mode)),
)('the counter at another scale ($mode)', ({ env, first, resolvers }) => {
  const project = new Project();
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
      resolvedBy: goal.actions.map((a) => a.resolvedBy),
      ...(goal.status === 'passed' ? {} : { message: goal.message }),
    }));
    expect(verdicts).toHaveLength(ROWS.length);
    const wrong = verdicts.filter((v) => (v.kind === 'regression') === (v.status === 'passed'));
    expect(wrong).toEqual([]);
    for (const v of verdicts.filter((x) => x.kind === 'benign')) {
      expect(v.resolvedBy[0], `${v.variant}: the first Add found by`).toBe(first);
      expect(
        v.resolvedBy.filter((r) => !resolvers.includes(r)),
        `${v.variant}: Add found by`,
      ).toEqual([]);
    }
  });
});
