/**
 * Verdicts you can trust: the two numbers of PRODUCT.md, as the verdict suites last wrote them:
 * the page corpus (test/verdicts/verdicts.test.ts) to reports/verdicts.json, and the toolkit
 * corpus (test/verdicts/toolkits.test.ts) to reports/verdicts-toolkits.json, per toolkit. The
 * benchmark does not run those suites (they take longer than the benchmark's budget); it
 * reports when each file was written and from which commit.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './desktop.ts';
import { TOOLKIT_APPS, toolkitOf } from '../test/support/toolkit-corpus.ts';
import { figure, guarded, notMeasured, type Measurement, type Row } from './measure.ts';

const GROUP = 'Verdicts';
const FILE = join(REPO, 'reports', 'verdicts.json');
const TOOLKIT_GROUP = 'Verdicts on real toolkits';
const TOOLKIT_FILE = join(REPO, 'reports', 'verdicts-toolkits.json');

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

const toolkitRows = (app: string) =>
  ({
    silent: { ...ROWS.silent, name: `${toolkitOf(app)}: ${ROWS.silent.name}` },
    overHalt: { ...ROWS.overHalt, name: `${toolkitOf(app)}: ${ROWS.overHalt.name}` },
  }) satisfies Record<string, Row>;

export const TOOLKIT_ROWS: Row[] = TOOLKIT_APPS.flatMap((app) => Object.values(toolkitRows(app)));

interface ToolkitsFile {
  readonly corpus?: string;
  readonly commit?: string;
  readonly toolkits?: Readonly<Record<string, { regressions: number; silentIncorrectSuccess: number; benign: number; overHalt: number }>>;
}

function writtenAt(file: string): string {
  return `${statSync(file).mtime.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function benchToolkits(): Promise<Measurement[]> {
  return guarded(TOOLKIT_GROUP, TOOLKIT_ROWS, async () => {
    if (!existsSync(TOOLKIT_FILE)) {
      const reason = 'not measured — run RETRACE_TOOLKITS=full npx vitest run test/verdicts/toolkits.test.ts';
      return TOOLKIT_ROWS.map((row) => notMeasured(TOOLKIT_GROUP, row, reason));
    }
    const v = JSON.parse(readFileSync(TOOLKIT_FILE, 'utf8')) as ToolkitsFile;
    const source = `reports/verdicts-toolkits.json of ${writtenAt(TOOLKIT_FILE)}, ${v.corpus ?? '?'} corpus at ${v.commit ?? '?'}`;
    return TOOLKIT_APPS.flatMap((app) => {
      const rows = toolkitRows(app);
      const t = v.toolkits?.[app];
      if (!t) return Object.values(rows).map((row) => notMeasured(TOOLKIT_GROUP, row, `not in ${source}`));
      return [
        figure({
          group: TOOLKIT_GROUP,
          ...rows.silent,
          value: t.silentIncorrectSuccess,
          note: `of ${t.regressions} regression runs; ${source}`,
        }),
        figure({ group: TOOLKIT_GROUP, ...rows.overHalt, value: t.overHalt, note: `of ${t.benign} benign runs` }),
      ];
    });
  });
}

export async function benchVerdicts(): Promise<Measurement[]> {
  return [...(await benchPages()), ...(await benchToolkits())];
}

function benchPages(): Promise<Measurement[]> {
  return guarded(GROUP, Object.values(ROWS), async () => {
    if (!existsSync(FILE)) {
      const reason = 'not measured — run the verdict suite (npx vitest run test/verdicts; RETRACE_VERDICTS=full for the whole corpus)';
      return Object.values(ROWS).map((row) => notMeasured(GROUP, row, reason));
    }
    const v = JSON.parse(readFileSync(FILE, 'utf8')) as VerdictsFile;
    const source = `reports/verdicts.json of ${writtenAt(FILE)}, ${v.corpus ?? '?'} corpus (${v.variants ?? '?'} variants)`;
    return [
      figure({
        group: GROUP,
        ...ROWS.silent,
        value: v.silentIncorrectSuccess,
        note: `of ${v.regressions ?? '?'} regression runs; ${source}`,
      }),
      figure({
        group: GROUP,
        ...ROWS.overHalt,
        value: v.overHalt,
        note: `of ${v.benign ?? '?'} benign runs` + (v.overHaltRate !== undefined ? ` (rate ${(v.overHaltRate * 100).toFixed(0)} %)` : ''),
      }),
    ];
  });
}
