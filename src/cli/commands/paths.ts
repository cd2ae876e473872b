/**
 * `retrace paths`: every recorded path with its statistics (`--json` for machines),
 * `retrace paths show <spec>#<goal>` (paths-show.ts) for one as a storyboard, and
 * `retrace paths accept|reject <spec>#<goal>` to settle a healed proposal.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ParsedArgs } from '../flags.ts';
import { resolveDirs } from '../dirs.ts';
import { PathStore } from '../../paths/store.ts';
import { specDirName } from '../../paths/location.ts';
import { computePathStats, rateText, type PathStats } from '../../report/stats.ts';
import { readHistory } from '../../report/history.ts';
import { InvalidInputError } from '../../errors.ts';
import { displayName, specId } from '../../spec-file/load.ts';
import { issuesToError, readYaml } from '../../spec-file/yaml-source.ts';
import { checkOutputs } from '../outputs.ts';
import { terminalText } from '../../safe-text.ts';

const usage = (detail: string): InvalidInputError => new InvalidInputError({ file: 'command line' }, detail);

/**
 * The spec a `<spec>#<goal>` argument names: a spec file of the project (as `retrace paths`
 * lists it, the extension may be left out), with its goal ids. Only a known spec and goal may
 * name files under `paths/`, so an argument such as `../../etc#x` reaches nothing. The file is
 * only parsed, not validated: settling a proposal needs no environment the spec interpolates.
 */
function knownSpec(root: string, ref: string, specRef: string): { readonly id: string; readonly goals: readonly string[] } {
  const candidates = /\.ya?ml$/i.test(specRef) ? [specRef] : [`${specRef}.yaml`, `${specRef}.yml`];
  const file = candidates.map((c) => resolve(root, c)).find((f) => statSync(f, { throwIfNoEntry: false })?.isFile());
  if (!file)
    throw usage(
      `${ref}: there is no spec file ${candidates.join(' or ')}; name the spec as it lies in the project, e.g. specs/calc.yaml#multiply`,
    );
  const parsed = readYaml(file);
  if ('issues' in parsed) throw issuesToError(displayName(root, file), parsed.issues);
  let goals: unknown;
  try {
    goals = (parsed.source.doc.toJS() as { goals?: unknown } | null)?.goals;
  } catch (error) {
    throw usage(`${ref}: ${displayName(root, file)} cannot be read as a spec (${(error as Error).message})`);
  }
  const ids = Array.isArray(goals)
    ? goals.map((g: unknown) => (g as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string')
    : [];
  return { id: specId(root, file), goals: ids };
}

/** The `<spec>#<goal>` argument of `retrace paths <verb>`: a known spec's id and one of its goals. */
export function goalRef(
  root: string,
  verb: string,
  ref: string | undefined,
): { readonly ref: string; readonly spec: string; readonly goal: string } {
  const match = ref ? /^(.+)#([^#]+)$/.exec(ref) : null;
  if (!ref || !match) throw usage(`retrace paths ${verb} needs <spec>#<goal>, e.g. specs/calc.yaml#multiply (got ${ref ?? 'nothing'})`);
  const [, specRef = '', goal = ''] = match;
  const spec = knownSpec(root, ref, specRef);
  if (!spec.goals.includes(goal)) {
    throw usage(`${ref}: ${spec.id} has no goal "${goal}" (its goals: ${spec.goals.join(', ') || 'none'})`);
  }
  return { ref, spec: spec.id, goal };
}

async function settle(store: PathStore, root: string, verb: 'accept' | 'reject', ref: string | undefined): Promise<number> {
  const { spec, goal } = goalRef(root, verb, ref);
  checkOutputs([{ what: '--paths', path: store.dir, kind: 'folder' }]);
  const done = verb === 'accept' ? await store.accept(spec, goal) : await store.reject(spec, goal);
  if (!done) throw usage(`${ref}: there is no proposed path to ${verb} (${store.locate(spec, goal).proposed})`);
  process.stdout.write(
    terminalText(verb === 'accept' ? `accepted: ${ref} now replays the healed path\n` : `rejected: the proposal for ${ref} is gone\n`),
  );
  return 0;
}

export default async function paths(args: ParsedArgs): Promise<number> {
  const { root, paths: dir, reports } = resolveDirs(args);
  const store = new PathStore(dir);
  const [verb, ref] = args.positionals;
  if (verb === 'accept' || verb === 'reject') return settle(store, root, verb, ref);
  if (verb === 'show') {
    const { default: show } = await import('./paths-show.ts');
    // A bare --html writes the storyboard where its help says (under --reports).
    return show(store, reports, goalRef(root, verb, ref), typeof args.flags.html === 'string' ? args.flags.html : undefined);
  }
  if (verb !== undefined) throw usage(`unknown "retrace paths ${verb}"; use show, accept or reject <spec>#<goal>, or no argument to list`);

  const stats = new Map<string, PathStats>();
  for (const s of computePathStats(await readHistory(reports))) stats.set(`${specDirName(s.spec)}#${s.goal}`, s);
  const rows = store.list().map((p) => {
    const path = store.read(`${p.specDir}.yaml`, p.goal);
    const s = stats.get(`${p.specDir}#${p.goal}`);
    // The id every other command takes: the spec file as the path recorded it, extension and all.
    return {
      path: `${path?.spec ?? `${p.specDir}.yaml`}#${p.goal}`,
      planner: path?.planner,
      actions: path?.actions.length ?? 0,
      proposed: p.proposed,
      runs: s?.runs ?? 0,
      passes: s?.passes ?? 0,
      failures: s?.failures ?? 0,
      broken: s?.broken ?? 0,
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
    process.stdout.write(`${terminalText(`no paths under ${dir}`)}\n`);
    return 0;
  }
  for (const r of rows) {
    const rate = r.successRate === undefined ? 'no runs' : rateText(r);
    const timing = r.meanMs === undefined ? '' : `, mean ${Math.round(r.meanMs)} ms, p95 ${Math.round(r.p95Ms ?? 0)} ms`;
    process.stdout.write(
      `${terminalText(r.path)}  ${r.actions} actions (${r.planner})  ${rate}${timing}  ${r.state}${r.proposed ? '  [healed proposal: accept or reject]' : ''}\n`,
    );
    if (r.lastFailure) process.stdout.write(`    last failure: ${terminalText(r.lastFailure.reason ?? r.lastFailure.category ?? '')}\n`);
  }
  return 0;
}
