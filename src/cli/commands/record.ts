/**
 * `retrace record SPEC --goal ID`: a person demonstrates the goal on the app (launched as a run
 * launches it), retrace turns their input into a path, and on Ctrl-C (or SIGTERM) checks the
 * goal's `expect:` and saves the path only when it holds. A goal with neither `goal:` nor
 * `steps:` gets the recorded `steps:` written into the spec (comments kept), so the spec and the
 * path agree and the next run replays. Exit 0 saved, 1 the expectations did not hold.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { ParsedArgs } from '../flags.ts';
import { cliOptions, baselinesDirOf } from './run.ts';
import type { Path } from '../../domain.ts';
import { InvalidInputError } from '../../errors.ts';
import { PathStore } from '../../paths/store.ts';
import { goalSource } from '../../paths/source.ts';
import { PATH_FORMAT_VERSION } from '../../paths/path-shape.ts';
import { writeFileAtomic } from '../../paths/atomic.ts';
import { describeForDisplay, placeholders } from '../../spec-file/interpolate.ts';
import { secretMasker } from '../../spec-file/secrets.ts';
import { describeAction } from '../../spec-file/describe.ts';
import { goalOf, loadForAuthoring, openSession, resolveText, type AuthorSession } from '../../author/session.ts';
import type { ScreenState } from '../../author/screen-watch.ts';
import type { NotedEvent } from '../../author/demonstration.ts';
import { terminalText } from '../../safe-text.ts';

const usage = (detail: string): InvalidInputError => new InvalidInputError({ file: 'command line' }, detail);
const say = (text: string): void => void process.stderr.write(`${terminalText(secretMasker.mask(text))}\n`);

/** Puts `${secret.X}` back in place of each secret value the spec uses, longest value first. */
export function secretHider(specText: string, env: NodeJS.ProcessEnv): (text: string) => string {
  const pairs = [
    ...new Set(
      placeholders(specText)
        .filter((p) => p.namespace === 'secret')
        .map((p) => p.name),
    ),
  ]
    .map((name) => [env[name] ?? '', `\${secret.${name}}`] as const)
    .filter(([value]) => value.length > 0)
    .sort((a, b) => b[0].length - a[0].length);
  return (text) => pairs.reduce((t, [value, placeholder]) => t.split(value).join(placeholder), text);
}

export default async function record(args: ParsedArgs): Promise<number> {
  const [file, extra] = args.positionals;
  const goalId = args.flags.goal;
  if (file === undefined || extra !== undefined || typeof goalId !== 'string') {
    throw usage('retrace record needs one spec file and --goal, e.g. retrace record specs/notes.yaml --goal save');
  }
  const root = process.cwd();
  const { spec, options } = loadForAuthoring(root, file, cliOptions(args.flags));
  const goal = goalOf(spec, goalId);
  if (goal.steps) {
    throw new InvalidInputError(
      { file: spec.id, line: goal.line },
      `goal "${goal.id}" has steps: already, and retrace run records them; remove its steps: to record it by demonstration`,
    );
  }
  const specText = readFileSync(spec.file, 'utf8');
  const session = await openSession({ root, spec, options, say });
  try {
    return await demonstrate(session, goal.id, specText, root);
  } finally {
    await session.close();
  }
}

async function demonstrate(session: AuthorSession, goalId: string, specText: string, root: string): Promise<number> {
  const { spec, options, stage, desktop } = session;
  const goal = goalOf(spec, goalId);
  // Everything is loaded before recording starts: a terminal's Ctrl-C reaches the whole process
  // group, and a module loader's helper process (tsx's esbuild, when run from source) with it.
  const [
    { listenInput, startVncBridge, interceptSignals },
    { detectDynamic },
    { ScreenWatch },
    { recordDemonstration },
    { settle },
    { CYCLE_LIMITS },
    { checkExpectations },
    { onlyNewBaselines },
    { stepsText },
  ] = await Promise.all([
    import('../../desktop/index.ts'),
    import('../../vision/settle.ts'),
    import('../../author/screen-watch.ts'),
    import('../../author/recorder.ts'),
    import('../../brain/settle.ts'),
    import('../../brain/thresholds.ts'),
    import('../../brain/assert/check.ts'),
    import('../../brain/assert/screenshot.ts'),
    import('../../author/spec-steps.ts'),
  ]);

  const vnc = desktop.display.owned
    ? await startVncBridge([desktop.display], { title: `retrace record: ${spec.id}#${goal.id}` })
    : undefined;
  try {
    say('watching for content that changes on its own');
    const dynamic = await stage.guard(detectDynamic(stage.grabber((await stage.window()).region), CYCLE_LIMITS.dynamicProbeMs));
    const watch = new ScreenWatch(stage, dynamic);
    await watch.start();
    const events: NotedEvent<ScreenState>[] = [];
    const listener = await listenInput(desktop.display, (event) => {
      const note = watch.before(event.at);
      if (note) events.push({ ...event, note });
    });
    let release = (): void => undefined;
    const stopped = new Promise<void>((resolve) => {
      release = interceptSignals(() => {
        // A second signal while the recording is being checked ends retrace the usual way.
        release();
        resolve();
      });
    });
    process.stdout.write(
      terminalText(`recording goal "${goal.id}" of ${spec.id} on display ${desktop.display.name}\n`) +
        (desktop.display.env.XAUTHORITY
          ? terminalText(`  its X cookie (for X tools of your own): XAUTHORITY=${desktop.display.env.XAUTHORITY}\n`)
          : '') +
        (vnc ? `  drive the app in a browser: ${vnc.url}\n` : '') +
        'recording: do the goal in the app, then press Ctrl-C (or send SIGTERM) to stop\n',
    );
    await stage.guard(stopped);
    listener.stop();
    await watch.stop();

    say('the demonstration ended; waiting for the screen to settle');
    const end = await settle(stage, { timeoutMs: options.timeouts.settleMs, ignore: dynamic });
    const final: ScreenState = { frame: end.frame, window: end.window, since: watch.latest?.since ?? performance.now() };
    const assets = new Map<string, Uint8Array>();
    say(`reading ${events.length} input events`);
    const recorded = await stage.guard(
      recordDemonstration({ events, final, dynamic, reader: session.reader, assets, hideSecrets: secretHider(specText, process.env) }),
    );
    for (const skip of recorded.skipped) say(`skipped: ${skip}`);
    for (const [i, a] of recorded.actions.entries())
      say(`  ${i + 1}. ${describeAction(a.action)}${a.anchor?.text ? `  (on "${a.anchor.text}")` : ''}`);
    if (recorded.actions.length === 0) {
      say('nothing was recorded: no input reached the app; nothing saved');
      return 1;
    }

    const assertions = await checkExpectations(stage, goal.expect, {
      specId: spec.id,
      baselinesDir: baselinesDirOf(root),
      update: options.updateBaselines,
      stableTimeoutMs: options.timeouts.settleMs,
      expectMs: options.timeouts.expectMs,
      resolveText,
      display: describeForDisplay,
      mask: (text) => secretMasker.mask(text),
    });
    for (const a of assertions) say(`${a.ok ? '✓' : '✗'} ${a.description}: ${a.message}`);
    if (!onlyNewBaselines(assertions)) {
      say(`the expectations of "${goal.id}" did not hold: nothing saved`);
      return 1;
    }
    if (goal.expect.length === 0) say(`warning: goal "${goal.id}" has no expect: its path is saved without proof that it reaches the goal`);

    // Written into the spec only when the goal says nothing of how: the steps are then its source.
    const edit =
      goal.goal === undefined
        ? stepsText(
            specText,
            spec.file,
            root,
            goal.id,
            recorded.actions.map((a) => a.action),
            process.env,
          )
        : undefined;
    const store = new PathStore(options.paths);
    const path: Path = {
      version: PATH_FORMAT_VERSION,
      spec: spec.id,
      goal: goal.id,
      source: goalSource(edit ? edit.goal : goal),
      planner: 'demonstrated',
      window: { width: end.frame.width, height: end.frame.height },
      actions: recorded.actions,
    };
    await store.write(path, assets);
    if (edit) writeFileAtomic(spec.file, edit.text);
    const shown = relative(root, store.locate(spec.id, goal.id).file);
    process.stdout.write(
      `${terminalText(`saved ${shown} (${path.actions.length} actions)${edit ? `; wrote its steps: into ${spec.id}` : ''}`)}\n`,
    );
    release();
    return 0;
  } finally {
    await vnc?.close();
  }
}
