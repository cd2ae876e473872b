/**
 * The benchmark's own desktop: one Xvfb (never the inherited `$DISPLAY`, so a run is not
 * disturbed by, and does not disturb, anything else), and the fixture apps opened on it.
 * nut-js binds one display per process: the in-process groups share this one; the CLI runs
 * are child processes with displays of their own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Frame, Region } from '../src/domain.ts';
import { openDesktop } from '../src/desktop/index.ts';
import type { AppSession, Desktop } from '../src/desktop/types.ts';
import { waitForStable } from '../src/vision/settle.ts';

export const REPO = fileURLToPath(new URL('..', import.meta.url));
export const FIXTURES = join(REPO, 'fixtures', 'apps');

interface FixtureInfo {
  readonly title: string;
  readonly size: readonly [number, number];
  readonly regions?: Readonly<Record<string, readonly [number, number, number, number]>>;
}

const APPS = JSON.parse(readFileSync(join(FIXTURES, 'apps.json'), 'utf8')) as Record<string, FixtureInfo>;

export const fixture = (app: string): FixtureInfo => {
  const info = APPS[app];
  if (!info) throw new Error(`no fixture app "${app}" in apps.json`);
  return info;
};

/** A named rectangle of apps.json as a Region (window-relative). */
export const fixtureRegion = (app: string, name: string): Region => {
  const r = fixture(app).regions?.[name];
  if (!r) throw new Error(`apps.json has no region "${name}" for ${app}`);
  return { x: r[0], y: r[1], width: r[2], height: r[3] };
};

export const centre = (r: Region, origin: Region = { x: 0, y: 0, width: 0, height: 0 }) => ({
  x: origin.x + r.x + Math.floor(r.width / 2),
  y: origin.y + r.y + Math.floor(r.height / 2),
});

/** Starts the benchmark's Xvfb (1280×800) and binds this process to it. */
export async function startDesktop(): Promise<Desktop> {
  return openDesktop({ own: true, size: [1280, 800] });
}

export interface OpenApp {
  readonly app: AppSession;
  /** The window's screen region. */
  readonly window: Region;
  /** A stable frame of the window. */
  readonly frame: Frame;
  grab(): Promise<Frame>;
}

export interface FixtureOptions {
  /** The URL query: a variant. */
  readonly query?: string;
  /** The window size, when not the app's own. */
  readonly size?: readonly [number, number];
}

/** Opens a fixture app (`fixtures/apps/open <app> '<query>'`) and waits until its window is stable. */
export async function openFixture(desktop: Desktop, app: string, options: FixtureOptions = {}): Promise<OpenApp> {
  const session = await desktop.launch({
    launch: `${FIXTURES}/open ${app} '${options.query ?? ''}'`,
    window: fixture(app).title,
    ...(options.size ? { env: { RETRACE_WINDOW_SIZE: options.size.join(',') } } : {}),
  });
  const window = (await session.window()).region;
  const grab = (): Promise<Frame> => desktop.capture.grab(window);
  // A freshly mapped chromium window paints in a few steps: wait for a long quiet.
  const settled = await waitForStable(grab, { quietMs: 300, timeoutMs: 10_000 });
  return { app: session, window, frame: settled.frame, grab };
}

/** Opens a fixture app, runs `work` with it, and closes it whatever happens. */
export async function withFixture<T>(
  desktop: Desktop,
  app: string,
  work: (open: OpenApp) => Promise<T>,
  options: FixtureOptions = {},
): Promise<T> {
  const open = await openFixture(desktop, app, options);
  try {
    return await work(open);
  } finally {
    await open.app.close();
  }
}
