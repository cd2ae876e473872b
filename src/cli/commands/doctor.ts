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

export default async function doctor(_args: ParsedArgs): Promise<number> {
  const { acquireDisplay, createDesktop } = await import('../../desktop/index.ts');
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
        desktop = createDesktop(display);
        return `${display.owned ? 'started Xvfb' : 'using'} ${display.name} (${display.width}×${display.height})`;
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
        const app = await d.launch({ launch: 'xterm -title retrace-doctor -geometry 40x5', window: 'retrace-doctor', windowTimeoutMs: 10_000 });
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
        return checkModel(process.env.RETRACE_MODEL);
      },
    });
  } else {
    checks.push({ name: 'model', fix: '', run: async () => 'ANTHROPIC_API_KEY is not set: goals are learned with the offline rules planner' });
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
  // An owned Xvfb is stopped by its watchdog once this process is gone: stopping it here would
  // make the X library end the process with code 1.
  process.stdout.write(failures === 0 ? 'everything works\n' : `${failures} problem(s)\n`);
  return failures === 0 ? 0 : 3;
}
