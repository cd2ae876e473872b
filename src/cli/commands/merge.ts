/** `retrace merge <dirs…>`: the reports of shards, merged into --reports. */
import type { ParsedArgs } from '../flags.ts';
import { resolveDirs } from '../dirs.ts';
import { checkOutputs } from '../outputs.ts';
import { mergeReports } from '../../report/merge.ts';
import { InvalidInputError } from '../../errors.ts';
import { terminalText } from '../../safe-text.ts';

export default async function merge(args: ParsedArgs): Promise<number> {
  if (args.positionals.length === 0)
    throw new InvalidInputError({ file: 'command line' }, 'retrace merge needs the report directories of the shards');
  const { reports } = resolveDirs(args);
  checkOutputs([{ what: '--reports', path: reports, kind: 'folder' }]);
  const merged = await mergeReports(reports, args.positionals);
  process.stdout.write(
    `merged ${args.positionals.length} report dirs into ${terminalText(reports)}: ${merged.goals} goals, ${merged.historyRecords} history lines` +
      `${merged.duplicates ? ` (${merged.duplicates} duplicates dropped)` : ''}, ${merged.allureFiles} Allure files\n`,
  );
  return 0;
}
