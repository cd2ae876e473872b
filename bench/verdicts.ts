/**
 * Verdicts you can trust: the two numbers of PRODUCT.md, as the verdict suite
 * (test/verdicts) last wrote them to reports/verdicts.json. The benchmark does not run that
 * suite (it takes longer than the benchmark's budget); it reports when the file was written.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './desktop.ts';
import { figure, guarded, notMeasured, type Measurement, type Row } from './measure.ts';

const GROUP = 'Verdicts';
const FILE = join(REPO, 'reports', 'verdicts.json');

export const ROWS = {
  silent: { name: 'silent incorrect success (regressions that pass)', unit: 'goal runs', target: { op: '==', value: 0, text: '= 0' } },
  overHalt: { name: 'over-halt (benign changes that fail)', unit: 'goal runs', target: { op: '==', value: 0, text: '≈ 0' } },
} satisfies Record<string, Row>;

interface VerdictsFile {
  readonly corpus?: string;
  readonly variants?: number;
  readonly regressions?: number;
  readonly benign?: number;
  readonly silentIncorrectSuccess?: number;
  readonly overHalt?: number;
  readonly overHaltRate?: number;
}

export function benchVerdicts(): Promise<Measurement[]> {
  return guarded(GROUP, Object.values(ROWS), async () => {
    if (!existsSync(FILE)) {
      const reason = 'not measured — run the verdict suite (npx vitest run test/verdicts; RETRACE_VERDICTS=full for the whole corpus)';
      return Object.values(ROWS).map((row) => notMeasured(GROUP, row, reason));
    }
    const v = JSON.parse(readFileSync(FILE, 'utf8')) as VerdictsFile;
    const written = statSync(FILE).mtime.toISOString().slice(0, 16).replace('T', ' ');
    const source = `reports/verdicts.json of ${written} UTC, ${v.corpus ?? '?'} corpus (${v.variants ?? '?'} variants)`;
    return [
      figure({ group: GROUP, ...ROWS.silent, value: v.silentIncorrectSuccess, note: `of ${v.regressions ?? '?'} regression runs; ${source}` }),
      figure({
        group: GROUP,
        ...ROWS.overHalt,
        value: v.overHalt,
        note: `of ${v.benign ?? '?'} benign runs` + (v.overHaltRate !== undefined ? ` (rate ${(v.overHaltRate * 100).toFixed(0)} %)` : ''),
      }),
    ];
  });
}
