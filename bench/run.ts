/**
 * `npm run bench`: measures retrace against the performance targets of PRODUCT.md and writes
 * reports/bench.json, reports/bench.md and the table on stdout (progress goes to stderr).
 *
 * The in-process groups share one Xvfb of the benchmark's own (1280×800; nut-js drives one
 * display per process); the CLI runs are child processes that start their own displays.
 * Environment: BENCH_ROUNDS — rounds of learn + replay runs (default 2); BENCH_REAL_REPLAYS — replays
 * of the real-app corpus on each kind of display (default 5).
 * Arguments: words that pick groups by name (`npm run bench -- click` runs "replay per click"
 * alone; `run` runs the group keyed "run:" alone); none runs them all.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Desktop } from '../src/desktop/types.ts';
import { benchCapture } from './capture.ts';
import { benchClicks } from './clicks.ts';
import { benchCost } from './cost.ts';
import { REPO, startDesktop } from './desktop.ts';
import { progress, type Measurement } from './measure.ts';
import { benchOcr } from './ocr.ts';
import { benchOcrAccuracy } from './ocr-accuracy.ts';
import { benchRealApps } from './real-apps.ts';
import { benchSession } from './session.ts';
import { benchSettle } from './settle.ts';
import { benchStartup } from './startup.ts';
import { benchSuite } from './suite.ts';
import { renderReport, renderTable, renderVerdictLine, type Machine } from './table.ts';
import { benchTyping } from './typing.ts';
import { benchVerdicts } from './verdicts.ts';
import { benchVerify } from './verify.ts';
import { benchVision } from './vision.ts';

function machine(): Machine {
  let os: string = process.platform;
  try {
    os = /^PRETTY_NAME="?([^"\n]*)/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? os;
  } catch {
    // Not Linux, or no os-release: the platform name will do.
  }
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGiB: totalmem() / 2 ** 30,
    os,
    node: process.version,
    loadAverage: loadavg(),
    date: new Date().toISOString(),
  };
}

const GROUPS: readonly [string, (desktop: Promise<Desktop>) => Promise<Measurement[]>][] = [
  ['run: start-up and time split (CLI runs)', () => benchStartup()],
  ['capture', benchCapture],
  ['diff & vision', benchVision],
  ['verification', benchVerify],
  ['settle', benchSettle],
  ['desktop session (elements, animations)', benchSession],
  ['replay per click (CLI runs)', () => benchClicks()],
  ['typing', benchTyping],
  ['OCR', benchOcr],
  ['OCR accuracy', () => benchOcrAccuracy()],
  ['cost of learning with Claude', benchCost],
  ['replay vs learn, scale (CLI runs)', () => benchSuite()],
  ['verdicts', () => benchVerdicts()],
  ['real apps (specs/real)', benchRealApps],
];

async function main(): Promise<void> {
  const started = performance.now();
  const host = machine();
  progress(`starting on ${host.cpu}, ${host.cores} cores`);
  const desktop = startDesktop();
  desktop.catch(() => undefined); // each group reports a failed start as its own reason
  const words = process.argv.slice(2).map((w) => w.toLowerCase());
  // A word that names a group by its key ("run" of "run: …") picks that group alone.
  const picks = (w: string, name: string): boolean =>
    GROUPS.some(([n]) => n.toLowerCase().startsWith(`${w}:`)) ? name.toLowerCase().startsWith(`${w}:`) : name.toLowerCase().includes(w);
  const groups = words.length === 0 ? GROUPS : GROUPS.filter(([name]) => words.some((w) => picks(w, name)));
  if (groups.length === 0)
    throw new Error(`no benchmark group is named like ${words.join(', ')}: ${GROUPS.map(([name]) => name).join('; ')}`);
  const results: Measurement[] = [];
  for (const [name, run] of groups) {
    const t = performance.now();
    progress(`${name}…`);
    results.push(...(await run(desktop)));
    progress(`${name}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const durationMs = performance.now() - started;

  const dir = join(REPO, 'reports');
  mkdirSync(dir, { recursive: true });
  // A run of some groups leaves the last full run's files alone.
  const file = words.length === 0 ? 'bench' : `bench-${words.join('-')}`;
  writeFileSync(join(dir, `${file}.json`), `${JSON.stringify({ machine: host, durationMs: Math.round(durationMs), results }, null, 2)}\n`);
  writeFileSync(join(dir, `${file}.md`), renderReport(host, durationMs, results));
  process.stdout.write(`${renderTable(results)}\n\n${renderVerdictLine(results)}\n`);
  progress(`done in ${(durationMs / 1000).toFixed(0)} s: reports/${file}.json, reports/${file}.md`);
}

main().then(
  // The Xvfb, the OCR workers and the apps' watchers must not keep the process alive; the
  // display's watchdog stops the server when this process exits.
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
