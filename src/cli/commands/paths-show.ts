/**
 * `retrace paths show <spec>#<goal> [--html FILE]`: one path, action by action — what it does,
 * what it was recorded on, and from the latest run the rung that found its target and its
 * timings — with the path's success rate, and a storyboard page (with the healed proposal side by
 * side when there is one).
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import type { ActionReport } from '../../domain.ts';
import type { PathStore } from '../../paths/store.ts';
import { computePathStats, rateText } from '../../report/stats.ts';
import { readHistory } from '../../report/history.ts';
import { readSummary, summaryFile } from '../../report/summary.ts';
import { storyboardFile, writeStoryboard } from '../../report/storyboard.ts';
import { describeAction } from '../../spec-file/describe.ts';
import { InvalidInputError } from '../../errors.ts';
import { terminalText } from '../../safe-text.ts';

export default async function show(
  store: PathStore,
  reports: string,
  { ref, spec, goal }: { ref: string; spec: string; goal: string },
  html: string | undefined,
): Promise<number> {
  const path = store.read(spec, goal);
  if (!path)
    throw new InvalidInputError(
      { file: 'command line' },
      `${ref}: no recorded path (${relative(process.cwd(), store.locate(spec, goal).file)})`,
    );
  const history = (await readHistory(reports)).filter((r) => r.spec === spec && r.goal === goal);
  const stats = computePathStats(history)[0];
  const last = existsSync(summaryFile(reports))
    ? (await readSummary(reports)).goals.find((g) => g.spec === spec && g.goal === goal)
    : undefined;
  const lastRun: readonly ActionReport[] | undefined = last?.actions;

  const out: string[] = [
    `${spec}#${goal}: ${path.actions.length} actions, made by ${path.planner} from its ${path.source.kind === 'steps' ? 'steps' : 'goal text'}, window ${path.window.width}×${path.window.height}`,
    stats && stats.runs > 0
      ? `success ${rateText(stats)}, ${stats.state}, mean ${Math.round(stats.meanMs)} ms, p95 ${Math.round(stats.p95Ms)} ms`
      : 'no runs in the history yet',
  ];
  if (last) out.push(`latest run: ${last.status} (${last.mode}), ${last.durationMs} ms`);
  for (const [i, a] of path.actions.entries()) {
    const r = lastRun?.[i];
    const on = a.anchor ? ` on ${a.anchor.text ? `"${a.anchor.text}"` : 'a crop'} at (${a.anchor.point.x}, ${a.anchor.point.y})` : '';
    const run = r
      ? `  | ${r.verified ? 'verified' : 'NOT verified'} by ${r.resolvedBy}, ${r.ms} ms (wait ${r.waitMs}, resolve ${r.resolveMs}, act ${r.actMs}, settle ${r.settleMs}, verify ${r.verifyMs})`
      : '';
    out.push(`  ${i + 1}. ${describeAction(a.action)}${on}; ${a.effects.length} effects, settled in ${a.settleMs} ms${run}`);
  }
  const proposal = store.readProposal(spec, goal);
  if (proposal) out.push(`a healed proposal waits: retrace paths accept|reject ${spec}#${goal} (the storyboard shows both)`);
  const file = html ?? storyboardFile(reports, spec, goal);
  writeStoryboard(store, spec, goal, file, { ...(stats ? { stats } : {}), ...(lastRun ? { lastRun } : {}) });
  out.push(`storyboard: ${relative(process.cwd(), file) || file}`);
  process.stdout.write(`${terminalText(out.join('\n'))}\n`);
  return 0;
}
