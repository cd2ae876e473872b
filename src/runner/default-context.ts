/** The run context of a plain `npx vitest` run, where no CLI flags exist: config file + environment. */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { loadConfig } from '../spec-file/config.ts';
import { resolveOptions } from '../spec-file/options.ts';
import type { RunContext } from './context.ts';

export function defaultRunContext(root: string = process.cwd()): RunContext {
  const config = loadConfig(root, { env: process.env });
  const options = resolveOptions({ root, config, env: process.env });
  return {
    root,
    options,
    cli: {},
    baselinesDir: join(root, 'fixtures', 'baselines'),
    runId: randomUUID(),
    startedAt: performance.timeOrigin,
    // vitest may run several workers; each gets its own virtual display so they never share a mouse.
    ownDisplays: true,
    keepOpen: false,
    verbosity: 'normal',
    tty: false,
    goals: [],
  };
}
