/**
 * `retrace merge <report dirs…>`: combines the reports of CI shards into one reports dir.
 *
 * - history/runs.jsonl: concatenated. Shards that restored the same CI cache all carry its lines,
 *   so exact repeats (same runId, spec, goal, ts and attempt) are kept once. The target's own history,
 *   if it has one, is kept too: the history is cumulative.
 * - allure-results/*: copied. Result and attachment files are uuid-named, so they never clash;
 *   categories.json / environment.properties / executor.json are per-run metadata, and the last
 *   input's copy wins.
 * - history/allure-history.jsonl: Allure's own history, the same cached file in every shard; the
 *   first one found is kept when the target has none.
 * - summary.json: totals summed, goals concatenated (the target's old summary is not: it
 *   describes another run).
 *
 * Every input is validated before anything is written: an invalid summary or history line is an
 * InvalidInputError naming the file, and the target is left as it was.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { InvalidInputError } from '../errors.ts';
import { writeFileAtomic } from '../paths/atomic.ts';
import { ALLURE_HISTORY_FILE } from './allure-html.ts';
import { historyFile, readHistory, serializeRecord, type HistoryRecord } from './history.ts';
import { readSummary, writeSummary, type Summary, type SummaryTotals } from './summary.ts';

export interface MergeReport {
  readonly goals: number;
  readonly historyRecords: number;
  /** Repeated history lines dropped. */
  readonly duplicates: number;
  readonly allureFiles: number;
}

/** Allure files that describe the run, not one test: the same name in every shard. */
const RUN_METADATA = new Set(['categories.json', 'environment.properties', 'executor.json']);

const recordKey = (r: HistoryRecord): string => JSON.stringify([r.runId, r.spec, r.goal, r.ts, r.attempt]);

function sumTotals(summaries: readonly Summary[]): SummaryTotals {
  const sum = (key: keyof SummaryTotals): number => summaries.reduce((total, s) => total + s.totals[key], 0);
  return {
    passed: sum('passed'),
    failed: sum('failed'),
    broken: sum('broken'),
    skipped: sum('skipped'),
    modelCalls: sum('modelCalls'),
    durationMs: sum('durationMs'),
  };
}

interface PlannedCopy {
  readonly from: string;
  readonly to: string;
}

/** Files to copy from one input's allure-results; a same-named file with other content is an error. */
function planAllureCopies(inputDir: string, outResults: string, planned: Map<string, string>): PlannedCopy[] {
  const dir = join(inputDir, 'allure-results');
  if (!existsSync(dir)) return [];
  const copies: PlannedCopy[] = [];
  for (const name of readdirSync(dir).sort()) {
    const from = join(dir, name);
    if (!statSync(from).isFile()) continue;
    const to = join(outResults, name);
    if (resolve(from) === resolve(to)) continue;
    if (!RUN_METADATA.has(name)) {
      const earlier = planned.get(name) ?? (existsSync(to) ? to : undefined);
      if (earlier !== undefined) {
        if (readFileSync(earlier).equals(readFileSync(from))) continue; // the same file merged twice
        throw new InvalidInputError({ file: from }, `clashes with ${earlier}: two different Allure files with one name`);
      }
      planned.set(name, from);
    }
    copies.push({ from, to });
  }
  return copies;
}

/** Merges the reports dirs `inputDirs` into `outDir` (created when missing). */
export async function mergeReports(outDir: string, inputDirs: readonly string[]): Promise<MergeReport> {
  if (inputDirs.length === 0) throw new InvalidInputError(undefined, 'merge needs at least one reports directory');
  for (const dir of inputDirs) {
    if (!existsSync(dir)) throw new InvalidInputError({ file: dir }, 'no such reports directory');
  }

  // 1. Read and validate everything.
  const summaries = await Promise.all(inputDirs.map((dir) => readSummary(dir)));
  const histories = [await readHistory(outDir), ...(await Promise.all(inputDirs.map((dir) => readHistory(dir))))];
  const outResults = join(outDir, 'allure-results');
  const planned = new Map<string, string>();
  const copies = inputDirs.flatMap((dir) => planAllureCopies(dir, outResults, planned));

  // 2. Write.
  const seen = new Set<string>();
  const records: HistoryRecord[] = [];
  let duplicates = 0;
  for (const record of histories.flat()) {
    const key = recordKey(record);
    if (seen.has(key)) duplicates++;
    else {
      seen.add(key);
      records.push(record);
    }
  }
  if (records.length > 0) writeFileAtomic(historyFile(outDir), records.map(serializeRecord).join(''));

  const allureHistory = join(outDir, ALLURE_HISTORY_FILE);
  const cachedAllureHistory = inputDirs.map((dir) => join(dir, ALLURE_HISTORY_FILE)).find((f) => existsSync(f));
  if (!existsSync(allureHistory) && cachedAllureHistory !== undefined) {
    await mkdir(join(outDir, 'history'), { recursive: true });
    await copyFile(cachedAllureHistory, allureHistory);
  }

  if (copies.length > 0) await mkdir(outResults, { recursive: true });
  for (const { from, to } of copies) await copyFile(from, to);

  const merged: Summary = { totals: sumTotals(summaries), goals: summaries.flatMap((s) => s.goals) };
  await writeSummary(outDir, merged);
  return { goals: merged.goals.length, historyRecords: records.length, duplicates, allureFiles: copies.length };
}
