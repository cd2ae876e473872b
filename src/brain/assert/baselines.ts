/**
 * Baseline files: `fixtures/baselines/<spec>/<name>-<platform>-<W>x<H>.png`. W×H is the size
 * of what was captured, so baselines of other platforms or sizes are never compared.
 */
import { join } from 'node:path';
import { specDirName } from '../../paths/location.ts';

export function baselineFile(baselinesDir: string, specId: string, name: string, size: { width: number; height: number }): string {
  return join(baselinesDir, specDirName(specId), `${name}-${process.platform}-${size.width}x${size.height}.png`);
}
