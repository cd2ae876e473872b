/**
 * The corpus of real third-party apps (specs/real: galculator, gnome-calculator (GTK 4), xcalc, mousepad, xterm, zenity,
 * yad, a Tk app, FeatherPad, SpeedCrunch (Qt 5), l3afpad, gtk3-widget-factory, a Swing form) in a throw-away project, as
 * the e2e tests and the benchmark run it: the specs keep their ids (so their committed baselines apply), the Tk app
 * is launched from the repository, the Swing form compiled from it. Learned once, then replayed with learning off, each run the real CLI.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Summary } from '../../src/report/summary.ts';
import { type CliResult, FIXTURES, Project, REPO } from './project.ts';

export const REAL_SPECS = join(REPO, 'specs', 'real');

/** How many times CI replays the learned corpus on each kind of display. */
export const REPLAYS = 5;

export function realAppsProject(): Project {
  const project = new Project();
  // The Swing form is compiled once, as an app is shipped built: the JVM's source launcher compiles
  // it at every launch, which on a loaded machine outlasted the 30 s wait for its window.
  const classes = join(project.root, 'classes');
  execFileSync('javac', ['-d', classes, join(FIXTURES, 'SwingForm.java')]);
  for (const file of readdirSync(REAL_SPECS).filter((f) => f.endsWith('.yaml'))) {
    const text = readFileSync(join(REAL_SPECS, file), 'utf8')
      .replace('java fixtures/apps/SwingForm.java', `java -cp ${classes} SwingForm`)
      .replace(/python3 fixtures\/apps\//g, 'python3 ${env.FIXTURES}/');
    project.write(`specs/real/${file}`, text);
  }
  cpSync(join(REPO, 'fixtures', 'baselines', 'specs', 'real'), join(project.root, 'fixtures', 'baselines', 'specs', 'real'), {
    recursive: true,
  });
  return project;
}

/** One run of the corpus: its summary and what the CLI said. */
export interface CorpusRun {
  readonly result: CliResult;
  readonly summary: Summary;
  /** The spec files the run was given, when not the whole set the learning run learned. */
  readonly specs?: readonly string[];
}

export interface CorpusRuns {
  readonly learned: CorpusRun;
  readonly replays: readonly CorpusRun[];
}

/**
 * Learns the corpus (rules planner) and replays it `times` times with learning off, every run
 * through the real CLI; under `wrapper` (XVFB_RUN) each run gets a display of its own from it,
 * else retrace starts its own. Every run happens, whatever the ones before it did.
 */
export async function learnAndReplay(
  project: Project,
  times: number,
  options: {
    readonly wrapper?: readonly string[];
    readonly env?: Record<string, string | undefined>;
    readonly timeoutMs: number;
    /** The spec files to run (as the summary names them); the whole corpus by default. */
    readonly specs?: readonly string[];
    /** After the first replay of them all, the later replays run only these spec files. */
    readonly repeat?: readonly string[];
  },
): Promise<CorpusRuns> {
  const run = async (args: readonly string[], specs = options.specs): Promise<CorpusRun> => {
    const all = ['run', ...(specs ?? ['specs/real']), '--paths', 'paths', ...args];
    const result = options.wrapper
      ? await project.cliUnder(options.wrapper, all, options.env, options.timeoutMs)
      : await project.cli(all, options.env, options.timeoutMs);
    return { result, summary: project.summary(), ...(specs !== options.specs && specs !== undefined && { specs }) };
  };
  const learned = await run(['--planner', 'rules']);
  const replays: CorpusRun[] = [];
  for (let i = 0; i < times; i++) replays.push(await run(['--learn', 'off'], i > 0 && options.repeat ? options.repeat : options.specs));
  return { learned, replays };
}

/**
 * The apps issue 25 added to the corpus (GTK 4, gtk3-widget-factory, Swing, Qt 5, l3afpad, yad): CI
 * replays these on a display it started with `xvfb-run` too; the whole corpus runs on retrace's own.
 */
export const NEW_DESKTOP_SPEC_FILES = ['gnome-calculator', 'gtk3-widget-factory', 'l3afpad', 'speedcrunch', 'swing-form', 'yad-forms'].map(
  (name) => `specs/real/${name}.yaml`,
);

/** The spec files of the corpus, as the summary names them. */
export const REAL_SPEC_FILES = readdirSync(REAL_SPECS)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => `specs/real/${f}`)
  .sort();
