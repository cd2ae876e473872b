/**
 * The verdict corpus of fixtures/apps: the canonical goals of each app (apps.json) and the
 * variants they are judged on (variants.json), turned into spec files of a test project.
 * A variant's spec reuses the path learned on the base app (copied under its own spec id), so
 * every variant replays with `--learn off`, as a user's CI would after a product change.
 */
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { FIXTURES, type Project } from './project.ts';

type Expect = { text?: string; absent?: string; screenshot?: string; region?: number[] };

interface AppEntry {
  readonly title: string;
  /** A fixture that is not a page (the terminal): its own command, the query as its last argument. */
  readonly launch?: string;
  readonly goals: readonly { readonly id: string; readonly goal: string; readonly expect: readonly Expect[] }[];
}

export interface Variant {
  readonly app: string;
  readonly query: string;
  readonly kind: 'benign' | 'regression';
  readonly description: string;
  readonly goals: readonly string[];
  /** Benign: the assertion kinds that survive the change. */
  readonly preserves?: readonly ('actions' | 'text' | 'screenshot')[];
  readonly env?: Readonly<Record<string, string>>;
}

const APPS = JSON.parse(readFileSync(join(FIXTURES, 'apps.json'), 'utf8')) as Record<string, AppEntry>;
export const VARIANTS = JSON.parse(readFileSync(join(FIXTURES, 'variants.json'), 'utf8')) as Variant[];
export const CORPUS_APPS = Object.keys(APPS).filter((k) => !k.startsWith('$'));

const keep = (e: Expect, preserves: Variant['preserves']): boolean =>
  !preserves || (e.screenshot !== undefined ? preserves.includes('screenshot') : preserves.includes('text'));

function specText(app: string, query: string, goals: readonly string[], preserves: Variant['preserves'], env: Variant['env']): string {
  const entry = APPS[app];
  if (!entry) throw new Error(`unknown app ${app}`);
  return stringify({
    name: `${app}${query ? ` (${query})` : ''}`,
    app: {
      launch: `${entry.launch ?? `\${env.FIXTURES}/open ${app}`}${query ? ` '${query}'` : ''}`,
      window: entry.title,
      ...(env ? { env } : {}),
    },
    goals: entry.goals
      .filter((g) => goals.includes(g.id))
      .map((g) => ({ id: g.id, goal: g.goal, expect: g.expect.filter((e) => keep(e, preserves)) })),
  });
}

const slug = (v: Variant): string =>
  `${v.app}-${(
    v.query ||
      Object.entries(v.env ?? {})
        .map(([k, x]) => `${k}-${x}`)
        .join('-') ||
      'base'
  ).replace(/[^A-Za-z0-9]+/g, '-')}`.toLowerCase();

/**
 * Writes `specs/base/<app>.yaml` for every corpus app: learned once, on the unchanged app. With
 * `only`, an app listed there gets only those goals (a lean test learns what it replays).
 */
export function writeBaseSpecs(project: Project, apps: readonly string[], only: Readonly<Record<string, readonly string[]>> = {}): void {
  for (const app of apps) {
    const goals = only[app] ?? (APPS[app]?.goals ?? []).map((g) => g.id);
    project.write(`specs/base/${app}.yaml`, specText(app, '', goals, undefined, undefined));
  }
}

/** Copies the paths and baselines learned for spec `from` (its id without `.yaml`) to spec `to`. */
export function copyLearned(project: Project, from: string, to: string): void {
  for (const dir of ['paths', 'fixtures/baselines']) {
    const source = join(project.root, dir, from);
    if (existsSync(source)) cpSync(source, join(project.root, dir, to), { recursive: true });
  }
}

/**
 * Writes `specs/<folder>/<n>-<slug>.yaml` for each variant, with the learned paths and baselines
 * of its base app copied to the variant's spec id. Returns the spec id of each variant.
 */
export function writeVariantSpecs(project: Project, variants: readonly Variant[], folder = 'variants'): Map<string, Variant> {
  const ids = new Map<string, Variant>();
  variants.forEach((variant, i) => {
    const name = `${String(i).padStart(3, '0')}-${slug(variant)}`;
    project.write(
      `specs/${folder}/${name}.yaml`,
      specText(variant.app, variant.query, variant.goals, variant.kind === 'benign' ? variant.preserves : undefined, variant.env),
    );
    copyLearned(project, `specs/base/${variant.app}`, `specs/${folder}/${name}`);
    ids.set(`specs/${folder}/${name}.yaml`, variant);
  });
  return ids;
}
