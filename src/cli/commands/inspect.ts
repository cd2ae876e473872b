/**
 * `retrace inspect SPEC [--goal ID] [--out DIR]`: launch the spec's app as a run does (with
 * `--goal`, replay that goal's path first and stop at its end), then write what retrace sees of
 * the window: `window.png`, `inspect.json` and `index.html`.
 */
import { join, relative } from 'node:path';
import type { ParsedArgs } from '../flags.ts';
import { cliOptions } from './run.ts';
import { InvalidInputError } from '../../errors.ts';
import { specDirName } from '../../paths/location.ts';
import { PathStore } from '../../paths/store.ts';
import { goalOf, loadForAuthoring, openSession, resolveText, type AuthorSession } from '../../author/session.ts';
import { terminalText } from '../../safe-text.ts';

const usage = (detail: string): InvalidInputError => new InvalidInputError({ file: 'command line' }, detail);

export default async function inspect(args: ParsedArgs): Promise<number> {
  const [file, extra] = args.positionals;
  if (file === undefined || extra !== undefined) throw usage('retrace inspect needs one spec file, e.g. retrace inspect specs/calc.yaml');
  const root = process.cwd();
  const { spec, options } = loadForAuthoring(root, file, cliOptions(args.flags));
  const goalId = typeof args.flags.goal === 'string' ? args.flags.goal : undefined;
  const store = new PathStore(options.paths);
  const path = goalId === undefined ? undefined : store.read(spec.id, goalOf(spec, goalId).id);
  if (goalId !== undefined && !path) {
    throw new InvalidInputError(
      { file: spec.id },
      `goal "${goalId}" has no recorded path to replay (${relative(root, store.locate(spec.id, goalId).file)}); run it or record it first`,
    );
  }
  const out = typeof args.flags.out === 'string' ? args.flags.out : join(options.reports, 'inspect', specDirName(spec.id));
  const say = (text: string): void => void process.stderr.write(`${terminalText(text)}\n`);

  const session = await openSession({ root, spec, options, say });
  try {
    let code = 0;
    if (path && goalId) code = await replayTo(session, store, goalId, path);
    const { inspectFrame, writeInspection } = await import('../../author/inspect.ts');
    const { snapshot } = await import('../../brain/elements.ts');
    const shot = await session.stage.shoot();
    const info = await session.stage.window();
    say('reading the window (OCR, controls)');
    const inspection = await inspectFrame({
      spec: spec.id,
      ...(goalId !== undefined ? { goal: goalId } : {}),
      title: info.title,
      frame: shot.frame,
      reader: session.reader,
      elements: await snapshot(session.stage, shot.window),
    });
    const files = writeInspection(out, shot.frame, inspection);
    const shown = (f: string): string => terminalText(relative(root, f) || f);
    process.stdout.write(
      `window ${inspection.window.width}×${inspection.window.height}: ${inspection.words.length} words, ${inspection.controls.length} controls, ${inspection.elements.length} elements\n` +
        (inspection.elementsNote === null ? '' : `no elements: ${terminalText(inspection.elementsNote)}\n`) +
        `${shown(files.html)}  (open it in a browser: boxes, coordinates, ready-to-paste targets)\n${shown(files.json)}\n${shown(files.png)}\n`,
    );
    return code;
  } finally {
    await session.close();
  }
}

/** Replays a goal's path up to its end, so the window is inspected where the goal ends. */
async function replayTo(session: AuthorSession, store: PathStore, goalId: string, path: import('../../domain.ts').Path): Promise<number> {
  const { ActionCycle } = await import('../../brain/cycle.ts');
  const { replay } = await import('../../brain/replayer.ts');
  const { timeouts } = session.options;
  const cycle = new ActionCycle(session.stage, { settleTimeoutMs: timeouts.settleMs, actionTimeoutMs: timeouts.actionMs, resolveText });
  const done = await replay({
    cycle,
    path,
    asset: (name) => store.asset(session.spec.id, goalId, name),
    onAction: (i, n, d) => void process.stderr.write(`replaying ${i + 1}/${n}: ${terminalText(d)}\n`),
  });
  if (!done.failure) return 0;
  process.stderr.write(`the replay stopped: ${terminalText(done.failure.message)}\ninspecting the window where it stopped\n`);
  return 1;
}
