/**
 * The corpus of real third-party apps (specs/real: galculator, gnome-calculator (GTK 4), xcalc, mousepad, xterm, zenity,
 * a Tk app, FeatherPad, a Swing form) in a throw-away project, as the e2e test and the benchmark run it: the
 * specs keep their ids (so their committed baselines apply), the Tk and Swing fixtures are launched from
 * the repository.
 */
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project, REPO } from './project.ts';

export const REAL_SPECS = join(REPO, 'specs', 'real');

export function realAppsProject(): Project {
  const project = new Project();
  for (const file of readdirSync(REAL_SPECS).filter((f) => f.endsWith('.yaml'))) {
    const text = readFileSync(join(REAL_SPECS, file), 'utf8').replace(/(python3|java) fixtures\/apps\//g, '$1 ${env.FIXTURES}/');
    project.write(`specs/real/${file}`, text);
  }
  cpSync(join(REPO, 'fixtures', 'baselines', 'specs', 'real'), join(project.root, 'fixtures', 'baselines', 'specs', 'real'), {
    recursive: true,
  });
  return project;
}
