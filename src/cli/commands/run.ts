/** `retrace run`: validate every input, then run the goals through vitest, then report. */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { join, relative, resolve } from 'node:path';
import type { ParsedArgs } from '../flags.ts';
import { parseShard } from '../flags.ts';
import { loadConfig } from '../../spec-file/config.ts';
import { resolveOptions } from '../../spec-file/options.ts';
import type { CliOptions } from '../../spec-file/options.ts';
import type { ResolvedOptions } from '../../spec-file/defaults.ts';
import type { Spec } from '../../spec-file/types.ts';
import { collectSpecFiles } from '../../spec-file/collect.ts';
import { preflight } from '../../runner/preflight.ts';
import type { RunContext } from '../../runner/context.ts';
import { printRunResult, exitCodeOf } from '../result.ts';
import { checkOutputs, type OutputLocation } from '../outputs.ts';
import { handoverFolder, handOverWhenOpen } from '../../runner/display-handoff.ts';
import type { ConsoleMessage } from '../../runner/progress.ts';
import type { LiveStatus } from '../../desktop/index.ts';

export const baselinesDirOf = (root: string): string => join(root, 'fixtures', 'baselines');

/** The CLI flags that are also config-file options, in the config's vocabulary. */
export function cliOptions(flags: ParsedArgs['flags']): CliOptions {
  const pick = <T>(name: string): T | undefined => flags[name] as T | undefined;
  const options: Record<string, unknown> = {
    learn: pick<string>('learn'),
    planner: pick<string>('planner'),
    relearn: pick<boolean>('relearn'),
    healWithModel: pick<boolean>('heal-with-model'),
    strict: pick<boolean>('strict'),
    unexpectedChanges: pick<string>('unexpected-changes'),
    trace: pick<string>('trace'),
    updateBaselines: pick<string>('update-baselines'),
    workers: pick<number>('workers'),
    paths: pick<string>('paths'),
    reports: pick<string>('reports'),
    model: pick<string>('model'),
  };
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as CliOptions;
}

/** Flags, config, specs and path files, all checked; throws InvalidInputError(s) having written nothing. */
export function prepareRun(args: ParsedArgs): {
  root: string;
  cli: CliOptions;
  options: ResolvedOptions;
  specs: readonly Spec[];
  goals: readonly string[];
} {
  const root = process.cwd();
  const { flags } = args;
  if (typeof flags.shard === 'string') parseShard(flags.shard);
  const config = loadConfig(root, { env: process.env });
  const cli = cliOptions(flags);
  const options = resolveOptions({ root, cli, config, env: process.env });
  const files = collectSpecFiles(root, args.positionals.length > 0 ? args.positionals : ['specs']);
  const goals = (flags.goal as readonly string[] | undefined) ?? [];
  const { specs } = preflight(root, files, options, goals, process.env, baselinesDirOf(root));
  return { root, cli, options, specs, goals };
}

export default async function run(args: ParsedArgs): Promise<number> {
  const { flags } = args;
  const { root, cli, options, specs, goals } = prepareRun(args);
  const runnable = specs.filter((s) => goals.length === 0 || s.goals.some((g) => goals.includes(g.id)));
  checkOutputs([
    { what: '--reports', path: options.reports, kind: 'folder' },
    // With --learn off (and no --relearn) a run only reads its paths: a read-only folder will do.
    ...(options.learn === 'off' && !options.relearn ? [] : [{ what: '--paths', path: options.paths, kind: 'folder' } as const]),
    ...(typeof flags.junit === 'string' ? [{ what: '--junit', path: resolve(root, flags.junit), kind: 'file' } as const] : []),
    ...(options.updateBaselines === 'none' ? [] : [{ what: 'the baselines folder', path: baselinesDirOf(root), kind: 'folder' } as const]),
  ] satisfies OutputLocation[]);

  const quiet = flags.quiet === true;
  const keepOpen = flags['keep-open'] === true;
  const live = flags.live === true;
  const workers = keepOpen ? 1 : Math.max(1, Math.min(options.workers, runnable.length));
  // The engine's workers start while the CLI loads the engine (warm-workers.ts).
  const { WarmWorkers } = await import('../../runner/warm-workers.ts');
  const warm = new WarmWorkers(workers);
  const { openSharedDisplay, hasUserDisplay, handOver, startVncBridge } = await import('../../desktop/index.ts');
  // The displays outlive the workers: the CLI owns them, one per worker, and opens them while it
  // loads the engine; each worker takes its own over when it starts (display-handoff.ts). A live
  // view is always of displays retrace owns, never of the user's own screen; --keep-open runs one
  // worker, on the user's display when there is one. Otherwise one worker on the user's display
  // opens it itself.
  const own = live || options.workers > 1 || !hasUserDisplay();
  const openings =
    own || keepOpen ? Array.from({ length: workers }, () => openSharedDisplay(options.display.size, !own, options.display.fonts)) : [];
  const handovers = openings.length > 0 ? handoverFolder() : undefined;
  for (const [i, opening] of openings.entries()) {
    // A display that opens after the run ended (its folder removed) has no worker left to take it.
    handOverWhenOpen(handovers!.file(i + 1), opening, handOver).catch(() => undefined);
  }
  try {
    const { runEngine } = await import('../../runner/engine.ts');
    // A live view shows them from the start; --keep-open holds the first after a failure.
    const displays = live || keepOpen ? await Promise.all(openings) : [];
    const statuses = new EventEmitter<{ status: [LiveStatus] }>();
    const viewer = live
      ? await startVncBridge(displays, {
          title: `retrace run (${workers === 1 ? 'one worker' : `${workers} workers`}, view only)`,
          viewOnly: true,
          status: (listener) => statuses.on('status', listener),
        })
      : undefined;
    if (viewer)
      process.stderr.write(
        `live view: ${viewer.url} (display${displays.length > 1 ? 's' : ''} ${displays.map((d) => d.name).join(', ')}, view only)\n`,
      );
    const context: RunContext = {
      root,
      options: handovers ? { ...options, workers } : options,
      cli,
      baselinesDir: baselinesDirOf(root),
      runId: randomUUID(),
      // The process's own start: node and the CLI's imports are part of what the user waits for.
      startedAt: performance.timeOrigin,
      // What a worker opens itself when its display could not be handed over.
      ownDisplays: own,
      ...(handovers && { displays: openings.map((_, i) => handovers.file(i + 1)) }),
      eagerDisplay: true,
      keepOpen,
      verbosity: quiet ? 'quiet' : flags.verbose === true ? 'verbose' : 'normal',
      tty: Boolean(process.stderr.isTTY) && !process.env.CI,
      goals,
    };
    const result = await runEngine({
      files: runnable.map((s) => s.file),
      context,
      bail: flags.bail === true,
      retry: (flags.retry as number | undefined) ?? 0,
      warm,
      ...(typeof flags.shard === 'string' ? { shard: flags.shard } : {}),
      ...(typeof flags.junit === 'string' ? { junit: flags.junit } : {}),
      ...(viewer
        ? { onProgress: liveStatusOf(await import('../../runner/progress.ts'), (status) => statuses.emit('status', status)) }
        : {}),
    });
    printRunResult(result, relative(root, options.reports) || '.', quiet, context.verbosity === 'verbose');
    const code = exitCodeOf(result);
    if (keepOpen && displays[0] && code !== 0) await holdDisplay(displays[0].name);
    await viewer?.close();
    return code;
  } finally {
    warm.stop();
    handovers?.remove();
  }
}

/**
 * A worker's progress as the live view shows it: the same masked text as the console, on the
 * worker's screen (its vitest pool id, the index of its display). The progress module loads
 * vitest: only a live view needs it in this process.
 */
const liveStatusOf =
  ({ goalLine }: typeof import('../../runner/progress.ts'), emit: (status: LiveStatus) => void) =>
  (message: ConsoleMessage): void => {
    const screen = Number(message.worker);
    emit(
      message.kind === 'status'
        ? { kind: 'now', text: message.text, screen }
        : message.kind === 'line'
          ? { kind: 'note', text: message.text, screen }
          : { kind: 'done', text: goalLine(message.end), passed: message.end.passed, screen },
    );
  };

/** --keep-open: the failed app stays on screen until the user is done looking at it. */
async function holdDisplay(display: string): Promise<void> {
  if (!process.stdin.isTTY) {
    process.stderr.write(`--keep-open: no terminal to wait on; display ${display} closes with this process\n`);
    return;
  }
  process.stderr.write(`--keep-open: display ${display} stays up until you press Ctrl-C\n`);
  await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
}
