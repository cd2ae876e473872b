/**
 * The toolkit corpus (fixtures/apps/toolkits.json): one order form in GTK 3, Qt 5, Chromium and
 * Tk, its goals learned once on each base app, and the variants each toolkit is judged on, as
 * spec files of a test project. Like the page corpus (corpus.ts), a variant's spec reuses the
 * path learned on its base app, so it replays with `--learn off` as a user's CI would.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { FIXTURES, type Project } from './project.ts';
import { copyLearned } from './corpus.ts';

interface Goal {
  readonly id: string;
  readonly goal: string;
  readonly expect: readonly Record<string, unknown>[];
}

interface ToolkitApp {
  readonly toolkit: string;
  readonly launch: string;
  /** How the variant's args are joined: " " for a command line, "&" for a page's query. */
  readonly join: string;
  readonly window: string;
  readonly goals: string;
  readonly env?: Readonly<Record<string, string>>;
}

export interface ToolkitVariant {
  readonly kind: 'benign' | 'regression';
  readonly apps: readonly string[];
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly goals: readonly string[];
  readonly description: string;
  /** One of the variants CI runs. */
  readonly sample?: boolean;
}

/** One variant on one app: what a spec of the corpus replays. */
export interface ToolkitCase extends ToolkitVariant {
  readonly app: string;
  readonly toolkit: string;
}

const FILE = JSON.parse(readFileSync(join(FIXTURES, 'toolkits.json'), 'utf8')) as {
  readonly goals: Readonly<Record<string, readonly Goal[]>>;
  readonly apps: Readonly<Record<string, ToolkitApp>>;
  readonly variants: readonly ToolkitVariant[];
};
export const TOOLKIT_APPS = Object.keys(FILE.apps);
export const toolkitOf = (app: string): string => FILE.apps[app]?.toolkit ?? app;

/** Every variant on every app it lists, in the file's order, app by app. */
export const TOOLKIT_CASES: readonly ToolkitCase[] = TOOLKIT_APPS.flatMap((app) =>
  FILE.variants.filter((v) => v.apps.includes(app)).map((v) => ({ ...v, app, toolkit: toolkitOf(app) })),
);

/** The display the corpus runs on: large enough for a window at scale 2 and 30 % larger. */
export const TOOLKIT_DISPLAY = [1400, 1100] as const;

function specText(app: string, args: readonly string[], env: ToolkitVariant['env'], goals: readonly string[]): string {
  const entry = FILE.apps[app];
  if (!entry) throw new Error(`unknown toolkit app ${app}`);
  const allEnv = { ...entry.env, ...env };
  return stringify({
    name: `${entry.toolkit} order form${args.length ? ` (${args.join(' ')})` : ''}${
      env
        ? ` ${Object.entries(env)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')}`
        : ''
    }`,
    app: {
      launch: `${entry.launch}${args.length ? ` '${args.join(entry.join)}'` : ''}`,
      window: entry.window,
      ...(Object.keys(allEnv).length ? { env: allEnv } : {}),
    },
    goals: (FILE.goals[entry.goals] ?? []).filter((g) => goals.includes(g.id)),
  });
}

const slug = (c: ToolkitCase): string =>
  [...c.args, ...Object.entries(c.env ?? {}).map(([k, v]) => `${k}-${v}`)]
    .join('-')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .toLowerCase() || 'base';

/** Writes the display config and `specs/base/<app>.yaml` for each app, with only the goals given. */
export function writeToolkitBase(project: Project, goals: Readonly<Record<string, readonly string[]>>): void {
  project.write('retrace.config.yaml', stringify({ display: { size: [...TOOLKIT_DISPLAY] } }));
  for (const [app, ids] of Object.entries(goals)) project.write(`specs/base/${app}.yaml`, specText(app, [], undefined, ids));
}

/** Writes `specs/variants/<app>-<n>-<slug>.yaml` per case, with its base app's path; returns the cases by spec id. */
export function writeToolkitVariants(project: Project, cases: readonly ToolkitCase[]): Map<string, ToolkitCase> {
  const ids = new Map<string, ToolkitCase>();
  cases.forEach((c, i) => {
    const name = `${c.app}-${String(i).padStart(3, '0')}-${slug(c)}`;
    project.write(`specs/variants/${name}.yaml`, specText(c.app, c.args, c.env, c.goals));
    copyLearned(project, `specs/base/${c.app}`, `specs/variants/${name}`);
    ids.set(`specs/variants/${name}.yaml`, c);
  });
  return ids;
}
