/**
 * A screenshot of an HTML page from disk in headless Chromium, decoded into a frame: the pages
 * retrace writes (inspect, storyboards) are checked as a person sees them, not as markup.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Frame } from '../../src/domain.ts';
import { decodePng } from '../../src/vision/frame.ts';

const run = promisify(execFile);

export async function screenshotPage(file: string, size: readonly [number, number] = [1200, 900]): Promise<Frame> {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-page-'));
  const png = join(dir, 'page.png');
  try {
    await run(
      '/usr/bin/chromium',
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        `--user-data-dir=${join(dir, 'profile')}`,
        `--window-size=${size[0]},${size[1]}`,
        `--screenshot=${png}`,
        pathToFileURL(file).href,
      ],
      { timeout: 60_000 },
    );
    return decodePng(readFileSync(png));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Pixels whose colour passes `test`. */
export function countPixels(frame: Frame, test: (r: number, g: number, b: number) => boolean): number {
  let n = 0;
  for (let i = 0; i < frame.data.length; i += 4) if (test(frame.data[i]!, frame.data[i + 1]!, frame.data[i + 2]!)) n++;
  return n;
}
