/**
 * `retrace doctor`: checks each thing a run depends on, in the order they depend on each other,
 * and says how to fix what fails. Exit 0 when everything works, 3 otherwise.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ParsedArgs } from '../flags.ts';

interface Check {
  readonly name: string;
  readonly fix: string;
  run(): Promise<string>;
}

/** The text the OCR check shows in an xterm: digits and the punctuation of a shell prompt. */
const OCR_PROBE = 'retrace: OCR check 0123456789 a@b.c ~/x (ok)';
/** How long the OCR check reads the xterm before it gives up, ms. */
const OCR_PROBE_MS = 5_000;

const ok = (line: string): void => void process.stdout.write(`  ✓ ${line}\n`);
const bad = (line: string, fix: string): void => void process.stdout.write(`  ✗ ${line}\n      fix: ${fix}\n`);

/**
 * Whether the accessibility bus answers, and how many elements the app under test publishes:
 * the app of the spec given as an argument (`retrace doctor specs/app.yaml`), else none.
 */
async function accessibilityCheck(desktop: import('../../desktop/types.ts').Desktop, specFile: string | undefined): Promise<string> {
  const elements = desktop.elements;
  if (elements === undefined) {
    return desktop.display.owned
      ? 'off (RETRACE_ACCESSIBILITY=off): element targets are unavailable, every other way to find a target works'
      : `no session bus on ${desktop.display.name} (DBUS_SESSION_BUS_ADDRESS is unset): element targets are unavailable`;
  }
  const status = await elements.status();
  if (!status.up) throw new Error(status.reason);
  const bus = `up (${status.apps} app(s) on it)`;
  if (specFile === undefined) return `${bus}; name a spec (retrace doctor SPEC) to count what its app publishes`;
  const { loadSpec } = await import('../../spec-file/load.ts');
  const { interpolate } = await import('../../spec-file/interpolate.ts');
  const spec = loadSpec(specFile, { root: process.cwd(), env: process.env });
  const text = (template: string): string => interpolate(template, process.env);
  const app = await desktop.launch({
    launch: text(spec.app.launch),
    window: text(spec.app.window),
    env: Object.fromEntries(Object.entries(spec.app.env).map(([k, v]) => [k, text(v)])),
    ...(spec.app.cwd !== undefined && { cwd: spec.app.cwd }),
    ...(spec.app.setup !== undefined && { setup: spec.app.setup }),
    ...(spec.app.teardown !== undefined && { teardown: spec.app.teardown }),
    isolate: spec.app.isolate,
    animations: spec.app.animations,
    accessibility: spec.app.accessibility,
  });
  try {
    // An app joins the bus a moment after its window shows.
    let count = 0;
    for (const waitMs of [0, 250, 500, 1_000]) {
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      count = (await elements.read(app)).length;
      if (count > 0) break;
    }
    return (
      `${bus}; ${spec.app.launch} publishes ${count} element(s)` +
      (count === 0 ? ' (its toolkit publishes nothing, e.g. Tk or Xt: targets are found by text and image)' : '')
    );
  } finally {
    await app.close();
  }
}

export default async function doctor(args: ParsedArgs): Promise<number> {
  const { acquireDisplay, createDesktop, describeProviders } = await import('../../desktop/index.ts');
  const { defaultLangPath, sharedTextReader, closeSharedTextReader } = await import('../../vision/ocr/tesseract-reader.ts');
  let desktop: import('../../desktop/types.ts').Desktop | undefined;
  const need = (): import('../../desktop/types.ts').Desktop => {
    if (!desktop) throw new Error('no display');
    return desktop;
  };
  const checks: Check[] = [
    {
      name: 'display',
      fix: 'install Xvfb (apt-get install xvfb x11-xkb-utils xdotool x11-utils), or set DISPLAY to a running X server',
      async run() {
        const display = await acquireDisplay({ reuseEnv: true });
        desktop = await createDesktop(display);
        const providers = desktop.providers === undefined ? '' : `; ${describeProviders(desktop.providers)}`;
        return `${display.owned ? 'started Xvfb' : 'using'} ${display.name} (${display.width}×${display.height})${providers}`;
      },
    },
    {
      name: 'capture',
      fix: 'the X server must allow screen reads (XGetImage); with Xvfb this always works — check DISPLAY',
      async run() {
        const started = performance.now();
        const frame = await need().capture.grab();
        return `${frame.width}×${frame.height} frame in ${Math.round(performance.now() - started)} ms`;
      },
    },
    {
      name: 'app launch, focus and input',
      fix: 'install xterm and xdotool; without a window manager retrace focuses windows with XSetInputFocus',
      async run() {
        const d = need();
        const app = await d.launch({
          launch: 'xterm -title retrace-doctor -geometry 40x5',
          window: 'retrace-doctor',
          windowTimeoutMs: 10_000,
        });
        try {
          await app.focus();
          const focused = await d.windows.focused();
          if (focused?.title !== 'retrace-doctor') throw new Error(`focus went to "${focused?.title ?? 'nothing'}"`);
          const win = await app.window();
          await d.input.move({ x: win.region.x + 5, y: win.region.y + 5 });
          await d.input.type('echo ok');
          return `xterm opened, focused and typed into (window ${win.region.width}×${win.region.height})`;
        } finally {
          await app.close();
        }
      },
    },
    {
      name: 'accessibility bus',
      fix: 'install dbus, dbus-x11 and at-spi2-core (apt-get install dbus dbus-x11 at-spi2-core); element targets need it, everything else works without',
      run: () => accessibilityCheck(need(), args.positionals[0]),
    },
    {
      name: 'OCR',
      fix:
        'when the data is missing, run npm ci: it ships in @tesseract.js-data/eng (nothing is downloaded at run time). ' +
        'When the text reads wrong, xterm is not drawing its default font (6×13 "fixed"): remove XTerm*faceName, ' +
        'XTerm*font or XTerm*renderFont from your X resources (xrdb -query | grep -i xterm; ~/.Xresources; $XENVIRONMENT), ' +
        'or let retrace start a display of its own (unset DISPLAY)',
      async run() {
        const file = join(defaultLangPath(), 'eng.traineddata.gz');
        if (!existsSync(file)) throw new Error(`${file} is missing`);
        // A real rendering of xterm's default font, read back as a text expectation reads it.
        const { readText } = await import('../../vision/ocr/find-text.ts');
        const d = need();
        const app = await d.launch({
          launch: `xterm -title retrace-doctor-ocr -geometry 48x3 -e sh -c 'echo "${OCR_PROBE}"; exec sleep 60'`,
          window: 'retrace-doctor-ocr',
          windowTimeoutMs: 10_000,
        });
        try {
          const started = performance.now();
          let read = '';
          // The shell prints the line some time after the window maps: read until it shows.
          while (performance.now() - started < OCR_PROBE_MS) {
            read = await readText(sharedTextReader(), await d.capture.grab((await app.window()).region));
            if (read.replace(/\s+/g, ' ').trim() === OCR_PROBE) {
              return `read xterm's default font back ("${OCR_PROBE}") in ${Math.round(performance.now() - started)} ms, with ${file}`;
            }
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          throw new Error(`xterm shows "${OCR_PROBE}", OCR read ${JSON.stringify(read)}`);
        } finally {
          await app.close();
        }
      },
    },
  ];
  if (process.env.ANTHROPIC_API_KEY) {
    checks.push({
      name: 'model',
      fix: 'check ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL, when set) and the network',
      async run() {
        const { checkModel } = await import('../../brain/planners/claude-check.ts');
        return checkModel();
      },
    });
  } else {
    checks.push({
      name: 'model',
      fix: '',
      run: async () => 'ANTHROPIC_API_KEY is not set: goals are learned with the offline rules planner',
    });
  }

  process.stdout.write('retrace doctor\n');
  let failures = 0;
  for (const check of checks) {
    try {
      ok(`${check.name}: ${await check.run()}`);
    } catch (error) {
      failures += 1;
      bad(`${check.name}: ${(error as Error).message}`, check.fix);
    }
  }
  await closeSharedTextReader();
  desktop?.elements?.close();
  // An owned Xvfb is stopped by its watchdog once this process is gone: stopping it here would
  // make the X library end the process with code 1.
  process.stdout.write(failures === 0 ? 'everything works\n' : `${failures} problem(s)\n`);
  return failures === 0 ? 0 : 3;
}
