/**
 * The spec-authoring commands (`inspect`, `record`) work on the app as a run sees it: the same
 * display choice, the same launch (size, env, setup), the same OCR. This opens that session in
 * the CLI process and closes everything it started.
 */
import type { Spec, GoalSpec } from '../spec-file/types.ts';
import { loadSpec } from '../spec-file/load.ts';
import { loadConfig } from '../spec-file/config.ts';
import { resolveOptions, type CliOptions } from '../spec-file/options.ts';
import type { ResolvedOptions } from '../spec-file/defaults.ts';
import { interpolate } from '../spec-file/interpolate.ts';
import { InvalidInputError } from '../errors.ts';
import type { AppSession, Desktop } from '../desktop/types.ts';
import type { TextReader } from '../vision/types.ts';
import type { Stage } from '../brain/stage.ts';
import { GoalApp } from '../runner/goal-app.ts';

export interface AuthorSession {
  readonly spec: Spec;
  readonly options: ResolvedOptions;
  readonly desktop: Desktop;
  readonly reader: TextReader;
  /** The app, launched and focused. */
  readonly stage: Stage;
  /** Aborts the stage: nothing touches the app after it. */
  readonly abort: AbortController;
  close(): Promise<void>;
}

export const resolveText = (template: string): string => interpolate(template, process.env);

/** Loads a spec and its options as `run` would (CLI > spec > config file > defaults). */
export function loadForAuthoring(root: string, file: string, cli: CliOptions): { spec: Spec; options: ResolvedOptions } {
  const spec = loadSpec(file, { root, env: process.env });
  const options = resolveOptions({ root, cli, spec, config: loadConfig(root, { env: process.env }), env: process.env });
  return { spec, options };
}

/** The goal `id` of `spec`, or invalid input naming the goals there are. */
export function goalOf(spec: Spec, id: string): GoalSpec {
  const goal = spec.goals.find((g) => g.id === id);
  if (!goal) {
    throw new InvalidInputError({ file: spec.id }, `has no goal "${id}" (goals: ${spec.goals.map((g) => g.id).join(', ')})`);
  }
  return goal;
}

export interface OpenSessionInput {
  readonly root: string;
  readonly spec: Spec;
  readonly options: ResolvedOptions;
  /** Says what is happening (launching, a warning). */
  readonly say: (text: string) => void;
}

/** Opens the display (the user's `$DISPLAY` when set, else retrace's own) and launches the app. */
export async function openSession(input: OpenSessionInput): Promise<AuthorSession> {
  const { openDesktop, hasUserDisplay } = await import('../desktop/index.ts');
  const { sharedTextReader, closeSharedTextReader } = await import('../vision/ocr/tesseract-reader.ts');
  const desktop = await openDesktop({
    own: !hasUserDisplay(),
    size: input.options.display.size,
    fonts: input.options.display.fonts,
  });
  const reader = sharedTextReader();
  let shared: AppSession | undefined;
  const app = new GoalApp({
    spec: input.spec,
    options: input.options,
    root: input.root,
    desktop,
    reader,
    shared: { get: () => shared, set: (a) => (shared = a), keep: () => undefined },
    say: { status: input.say, warn: (text) => input.say(`warning: ${text}`) },
  });
  const abort = new AbortController();
  const close = async (): Promise<void> => {
    abort.abort(new Error('the session ended'));
    await (app.current ?? shared)?.close();
    await closeSharedTextReader();
    // An owned display is not stopped here: the capture library's X connection closes only at
    // process exit, and Xlib ends a process whose server is gone; the display's watchdog stops it.
  };
  try {
    const stage = await app.stages(abort.signal)(false);
    return { spec: input.spec, options: input.options, desktop, reader, stage, abort, close };
  } catch (error) {
    await close();
    throw error;
  }
}
