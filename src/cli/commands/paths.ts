/**
 * `retrace paths`: every recorded path with its statistics (`--json` for machines),
 * `retrace paths show <spec>#<goal>` (paths-show.ts) for one as a storyboard, and
 * `retrace paths accept|reject <spec>#<goal>` to settle a healed proposal.
 */
import type { ParsedArgs } from '../flags.ts';
import { resolveDirs } from '../dirs.ts';
import { PathStore } from '../../paths/store.ts';
import { specDirName } from '../../paths/location.ts';
import { computePathStats, type PathStats } from '../../paths/stats.ts';
import { readHistory } from '../../report/history.ts';
import { InvalidInputError } from '../../errors.ts';

const usage = (detail: string): InvalidInputError => new InvalidInputError({ file: 'command line' }, detail);

/** `<spec>#<goal>` of `retrace paths <verb>`, split. */
export function parseRef(verb: string, ref: string | undefined): { spec: string; goal: string } {
  const match = ref ? /^(.+)#([^#]+)$/.exec(ref) : null;
  if (!match) throw usage(`retrace paths ${verb} needs <spec>#<goal>, e.g. specs/calc.yaml#multiply (got ${ref ?? 'nothing'})`);
  return { spec: match[1] ?? '', goal: match[2] ?? '' };
}

async function settle(store: PathStore, verb: 'accept' | 'reject', ref: string | undefined): Promise<number> {
  const { spec, goal } = parseRef(verb, ref);
  const done = verb === 'accept' ? await store.accept(spec, goal) : await store.reject(spec, goal);
  if (!done) throw usage(`${ref}: there is no proposed path to ${verb} (${store.locate(spec, goal).proposed})`);
  process.stdout.write(verb === 'accept' ? `accepted: ${ref} now replays the healed path\n` : `rejected: the proposal for ${ref} is gone\n`);
  return 0;
}

const percent = (x: number): string => `${Math.round(x * 100)}%`;

export default async function paths(args: ParsedArgs): Promise<number> {
  const { paths: dir, reports } = resolveDirs(args);
  const store = new PathStore(dir);
  const [verb, ref] = args.positionals;
  if (verb === 'accept' || verb === 'reject') return settle(store, verb, ref);
  if (verb === 'show') {
    const { default: show } = await import('./paths-show.ts');
    return show(store, reports, ref, typeof args.flags.html === 'string' ? args.flags.html : undefined);
  }
  if (verb !== undefined) throw usage(`unknown "retrace paths ${verb}"; use show, accept or reject <spec>#<goal>, or no argument to list`);

  const stats = new Map<string, PathStats>();
  for (const s of computePathStats(await readHistory(reports))) stats.set(`${specDirName(s.spec)}#${s.goal}`, s);
  const rows = store.list().map((p) => {
    const path = store.read(`${p.specDir}.yaml`, p.goal);
    const s = stats.get(`${p.specDir}#${p.goal}`);
    return {
      path: `${p.specDir}#${p.goal}`,
      planner: path?.planner,
      actions: path?.actions.length ?? 0,
      proposed: p.proposed,
      runs: s?.runs ?? 0,
      successRate: s?.successRate,
      recentSuccessRate: s?.recentSuccessRate,
      flips: s?.flips ?? 0,
      meanMs: s?.meanMs,
      p95Ms: s?.p95Ms,
      state: s?.state ?? 'unknown',
      lastFailure: s?.lastFailure,
    };
  });
  if (args.flags.json === true) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    process.stdout.write(`no paths under ${dir}\n`);
    return 0;
  }
  for (const r of rows) {
    const rate = r.successRate === undefined ? 'no runs' : `${percent(r.successRate)} of ${r.runs} (recent ${percent(r.recentSuccessRate ?? 0)}, ${r.flips} flips)`;
    const timing = r.meanMs === undefined ? '' : `, mean ${Math.round(r.meanMs)} ms, p95 ${Math.round(r.p95Ms ?? 0)} ms`;
    process.stdout.write(`${r.path}  ${r.actions} actions (${r.planner})  ${rate}${timing}  ${r.state}${r.proposed ? '  [healed proposal: accept or reject]' : ''}\n`);
    if (r.lastFailure) process.stdout.write(`    last failure: ${r.lastFailure.reason ?? r.lastFailure.category ?? ''}\n`);
  }
  return 0;
}
