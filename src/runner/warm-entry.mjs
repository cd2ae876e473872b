// The entry of a warm worker (warm-workers.ts): forked before vitest asks for a worker, it loads
// retrace's engine (in the installed package) while the CLI loads vitest. Taken over, it is sent
// the environment vitest asked for, which vitest added to while it loaded, then becomes the
// worker vitest would have forked: its entry loaded, as the one program on its command line.
import { pathToFileURL } from 'node:url';

const [entry, preload] = process.argv.splice(2);
process.argv[1] = entry;
// A preload that fails is vitest's to report, when the spec's module imports it.
const loaded = preload ? import(preload).catch(() => undefined) : Promise.resolve();

process.once('message', async (env) => {
  await loaded;
  // As a spawn reads it: a variable set to undefined is left out.
  for (const key of Object.keys(process.env)) if (env[key] === undefined) delete process.env[key];
  for (const [key, value] of Object.entries(env)) if (value !== undefined) process.env[key] = value;
  await import(pathToFileURL(entry).href);
  process.send({ retraceWarm: 'ready' });
});
