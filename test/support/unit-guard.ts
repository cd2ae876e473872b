/**
 * The unit set's guard (vitest.unit.config.ts): the one-minute loop stays one minute only while
 * nothing in it starts an X server or a browser. The guard puts stand-ins for them first on PATH
 * (inherited by every child, so a retrace command a test runs is caught too); a stand-in fails
 * with what to do.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const STARTERS = ['Xvfb', 'Xephyr', 'xvfb-run', 'chromium', 'chromium-browser'];

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-unit-guard-'));
  for (const name of STARTERS) {
    const file = join(dir, name);
    writeFileSync(
      file,
      `#!/bin/sh\necho "${name} started by a test of npm run test:unit: a test that needs a display belongs in the list excluded by vitest.unit.config.ts" >&2\nexit 97\n`,
    );
    chmodSync(file, 0o755);
  }
  process.env.PATH = `${dir}${delimiter}${process.env.PATH ?? ''}`;
  return () => rmSync(dir, { recursive: true, force: true });
}
