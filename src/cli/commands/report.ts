/** `retrace report`: the flaky-path report and the Allure HTML report, from the run history. */
import { relative } from 'node:path';
import type { ParsedArgs } from '../flags.ts';
import { resolveDirs } from '../dirs.ts';
import { checkOutputs } from '../outputs.ts';
import { readHistory } from '../../report/history.ts';
import { computePathStats } from '../../report/stats.ts';
import { writeFlakyReport } from '../../report/flaky-report.ts';
import { buildAllureReport } from '../../report/allure-html.ts';
import { terminalText } from '../../safe-text.ts';

export default async function report(args: ParsedArgs): Promise<number> {
  const { root, reports } = resolveDirs(args);
  checkOutputs([{ what: '--reports', path: reports, kind: 'folder' }]);
  const show = (file: string): string => terminalText(relative(root, file) || file);
  const history = await readHistory(reports, { warn: (m) => process.stderr.write(`warning: ${terminalText(m)}\n`) });
  const flaky = await writeFlakyReport(reports, computePathStats(history));
  process.stderr.write('building the Allure report…\n');
  const index = await buildAllureReport({ reportsDir: reports });
  process.stdout.write(
    `flaky-path report: ${show(flaky.markdown)}, ${show(flaky.html)}, ${show(flaky.json)}\n` + `Allure report: ${show(index)}\n`,
  );
  return 0;
}
