/**
 * Capture: the whole 1280×800 screen and one app window through retrace's capture (GetImage
 * over its own X connection), next to the alternatives — nut-js (libnut's XGetImage, the
 * fallback), interleaved in one run so noise hits all alike.
 *
 * screenshot-desktop is measured when installed. It is not a dependency; on Linux it shells
 * out to ImageMagick (`import -silent -window root … jpg:…`), so that command is timed as its
 * stand-in when `import` is on the PATH (encoded JPEG on stdout, not decoded: a lower bound).
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Region } from '../src/domain.ts';
import type { Desktop } from '../src/desktop/types.ts';
import { nutFor } from '../src/desktop/nut.ts';
import { withFixture } from './desktop.ts';
import { figure, guarded, interleaved, notMeasured, TARGETS, type Measurement, type Row } from './measure.ts';

const GROUP = 'Capture';
const N = 30;

export const ROWS = {
  screen: { name: 'screen 1280×800', unit: 'ms', target: TARGETS.captureMs },
  window: { name: 'window 360×480', unit: 'ms', target: TARGETS.captureMs },
  nut: { name: 'screen 1280×800 (nut-js, the fallback; without its BGRA to RGBA pass)', unit: 'ms' },
  screenshotDesktop: { name: 'screen 1280×800 (screenshot-desktop)', unit: 'ms' },
  imagemagick: { name: 'screen 1280×800 (ImageMagick import, what screenshot-desktop runs)', unit: 'ms' },
} satisfies Record<string, Row>;

const installed = (name: string): boolean => {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
};

const runImport = (env: NodeJS.ProcessEnv): Promise<void> =>
  new Promise((resolve, reject) => {
    execFile('import', ['-silent', '-window', 'root', 'jpg:-'], { env, encoding: 'buffer', maxBuffer: 64 << 20 }, (error, stdout) => {
      if (error) reject(error);
      else if (stdout.length === 0) reject(new Error('import wrote nothing'));
      else resolve();
    });
  });

const hasImport = async (env: NodeJS.ProcessEnv): Promise<boolean> =>
  runImport(env).then(
    () => true,
    () => false,
  );

export function benchCapture(display: Promise<Desktop>): Promise<Measurement[]> {
  return guarded(GROUP, Object.values(ROWS), async () => {
    const desktop = await display;
    return withFixture(desktop, 'calculator', ({ window }) => measure(desktop, window));
  });
}

async function measure(desktop: Desktop, window: Region): Promise<Measurement[]> {
  const env = { ...process.env, ...desktop.display.env };
  const screen = () => desktop.capture.grab();
  const win = () => desktop.capture.grab(window);
  const { screen: nutScreen } = await nutFor(desktop.display);
  const alternatives: (() => Promise<unknown>)[] = [screen, win, () => nutScreen.grab()];

  let shot: ((options: { format: string }) => Promise<Buffer>) | undefined;
  if (installed('screenshot-desktop')) {
    const name = 'screenshot-desktop';
    shot = ((await import(name)) as { default: typeof shot }).default;
    alternatives.push(() => shot!({ format: 'png' }));
  }
  const imagemagick = await hasImport(env);
  if (imagemagick) alternatives.push(() => runImport(env));

  const samples = await interleaved(alternatives, N);
  const out: Measurement[] = [
    figure({ group: GROUP, ...ROWS.screen, samples: samples[0]! }),
    figure({ group: GROUP, ...ROWS.window, samples: samples[1]!, note: 'the calculator fixture window' }),
    figure({ group: GROUP, ...ROWS.nut, samples: samples[2]! }),
  ];
  let next = 3;
  out.push(
    shot
      ? figure({ group: GROUP, ...ROWS.screenshotDesktop, samples: samples[next++]!, note: 'PNG buffer' })
      : notMeasured(GROUP, ROWS.screenshotDesktop, 'not installed (not a dependency of retrace; the bench installs nothing)'),
  );
  out.push(
    imagemagick
      ? figure({
          group: GROUP,
          ...ROWS.imagemagick,
          samples: samples[next++]!,
          note: 'JPEG to stdout, not decoded: a lower bound of a usable frame',
        })
      : notMeasured(GROUP, ROWS.imagemagick, 'ImageMagick `import` is not on the PATH'),
  );
  return out;
}
