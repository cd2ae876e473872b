/**
 * The flaky-path report: `reports/flaky-paths.{md,html,json}`, paths ranked by flakiness with
 * success rates, flips, the action where they fail and the last failure reason.
 * Each file is written atomically, so a CI artifact upload never picks up half a report.
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../paths/atomic.ts';
import { DEFAULT_RECENT_WINDOW, type PathStats } from './stats.ts';
import { renderHtml, renderMarkdown, type FlakyReportMeta } from './flaky-render.ts';

export const FLAKY_REPORT_BASENAME = 'flaky-paths';

export interface FlakyReportFiles {
  readonly markdown: string;
  readonly html: string;
  readonly json: string;
}

export interface FlakyReportOptions {
  /** The window the stats were computed with, shown in the report. @default 20 */
  readonly recentWindow?: number;
  /** Report time. @default now */
  readonly now?: Date;
}

/** The JSON flavour: `{ v, generatedAt, recentWindow, paths }`, paths in rank order. */
export interface FlakyReportJson extends FlakyReportMeta {
  readonly v: 1;
  readonly paths: readonly PathStats[];
}

export const flakyReportFiles = (reportsDir: string): FlakyReportFiles => ({
  markdown: join(reportsDir, `${FLAKY_REPORT_BASENAME}.md`),
  html: join(reportsDir, `${FLAKY_REPORT_BASENAME}.html`),
  json: join(reportsDir, `${FLAKY_REPORT_BASENAME}.json`),
});

/** Writes the three files; `stats` should be in rank order, as computePathStats returns them. */
export async function writeFlakyReport(
  reportsDir: string,
  stats: readonly PathStats[],
  options: FlakyReportOptions = {},
): Promise<FlakyReportFiles> {
  const meta: FlakyReportMeta = {
    generatedAt: (options.now ?? new Date()).toISOString(),
    recentWindow: options.recentWindow ?? DEFAULT_RECENT_WINDOW,
  };
  const files = flakyReportFiles(reportsDir);
  const json: FlakyReportJson = { v: 1, ...meta, paths: stats };
  writeFileAtomic(files.json, `${JSON.stringify(json, null, 2)}\n`);
  writeFileAtomic(files.markdown, renderMarkdown(stats, meta));
  writeFileAtomic(files.html, renderHtml(stats, meta));
  return files;
}
