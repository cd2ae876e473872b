/**
 * `kill -9` at seeded points of learning and replay, 10 times: the whole process group of the
 * CLI (its vitest workers, their Xvfb) dies at once, with no chance to clean up. Afterwards,
 * every time: `retrace validate` passes (the path file parses), the history parses (a torn last
 * line at most, which readHistory tolerates), the summary parses, and no lock file blocks (its
 * owner is dead, so it is recovered). At the end a complete run passes and nothing of the killed
 * runs is left running.
 *
 * The choices (learn or replay, when to kill) come from a seeded generator, so the test makes
 * the same choices every time; only the machine's timing varies.
 */
import { describe, expect, test } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Project } from '../support/project.ts';
import { allProcs, groupMembers, isAlive, pollFor, startCli, type CliProcess } from '../support/faults-cli.ts';
import { readHistory } from '../../src/report/history.ts';

const SPEC = `name: Calculator
app:
  launch: \${env.FIXTURES}/open calculator
  window: Retrace Calculator
goals:
  - id: add
    goal: click "7", click "+", click "8", click "="
    expect:
      - text: "15"
`;

const KILLS = 10;
const SEED = 0x5eed_0009;

/** mulberry32: a small seeded generator, uniform in [0, 1). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const filesUnder = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
    : [];

/** Processes started for this test's runs (they inherit the marker in their environment). */
function marked(marker: string): number[] {
  return allProcs()
    .filter((p) => p.state !== 'Z' && p.state !== 'X')
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p.pid}/environ`, 'utf8').includes(`RETRACE_FAULT_MARK=${marker}`);
      } catch {
        return false;
      }
    })
    .map((p) => p.pid);
}

interface Plan {
  readonly learn: boolean;
  /** Kill this long after the anchor. */
  readonly delayMs: number;
  /** The progress line to count the delay from; undefined: from the spawn. */
  readonly anchor?: RegExp;
}

/**
 * Anchors near the writes, each with the range of the delay after it: the last action, the
 * checks, the save of the path file (learning only), and the verdict (after it: closing the app,
 * the summary, the history append).
 */
const ANCHORS: readonly { readonly line: RegExp; readonly rangeMs: number; readonly learnOnly?: boolean }[] = [
  { line: /add: action 4/, rangeMs: 300 },
  { line: /add: checking/, rangeMs: 600 },
  { line: /add: saving/, rangeMs: 150, learnOnly: true },
  { line: /✓ specs\/calc\.yaml › add/, rangeMs: 700 },
];

describe('kill -9 during learning and replay', () => {
  test(`${KILLS} kills at seeded random points leave no corrupt file and no stuck lock`, { timeout: 420_000 }, async () => {
    const project = new Project().write('specs/calc.yaml', SPEC);
    const marker = randomUUID();
    const env = { RETRACE_FAULT_MARK: marker };
    const reports = join(project.root, 'reports');
    const pathFile = join(project.root, 'paths/specs/calc/add.path.json');
    const random = seeded(SEED);

    // A complete learn and a complete replay: their normal times, and a path to replay.
    const timed = async (args: string[]): Promise<number> => {
      const cli = startCli(project, args, env);
      const end = await cli.ended;
      expect(end.code, cli.output).toBe(0);
      return end.endedAt - cli.startedAt;
    };
    const learnMs = await timed(['run']);
    const replayMs = await timed(['run']);
    expect(project.summary().goals[0]).toMatchObject({ status: 'passed', mode: 'replayed' });

    // Every anchor once in learning and once in replay (where it occurs), then anywhere in a run.
    const anchored: Plan[] = [true, false].flatMap((learn) =>
      ANCHORS.filter((a) => learn || !a.learnOnly).map((a) => ({ learn, anchor: a.line, delayMs: Math.floor(random() * a.rangeMs) })),
    );
    const anywhere: Plan[] = Array.from({ length: KILLS - anchored.length }, () => {
      const learn = random() < 0.5;
      // Up to about where the run ends on its own.
      return { learn, delayMs: Math.floor(random() * 0.9 * (learn ? learnMs : replayMs)) };
    });
    const plans = [...anchored, ...anywhere];

    const log: string[] = [];
    let staleLocks = 0;
    let tornLines = 0;
    for (const [i, plan] of plans.entries()) {
      const cli: CliProcess = startCli(project, plan.learn ? ['run', '--learn', 'force'] : ['run'], env);
      let base = cli.startedAt;
      if (plan.anchor) {
        // A run may be quicker than the line (or end first): then it is killed as soon as seen, or not at all.
        base = (await cli.line(plan.anchor, 60_000).catch(() => ({ at: Date.now() }))).at;
      }
      const wait = base + plan.delayMs - Date.now();
      if (wait > 0) await Promise.race([cli.ended, new Promise((r) => setTimeout(r, wait))]);
      cli.killGroup('SIGKILL');
      const end = await cli.ended;
      await pollFor(`the process group of kill ${i + 1} to be gone`, () => (groupMembers(cli.pid).length === 0 ? true : undefined), 10_000);
      log.push(
        `#${i + 1} ${plan.learn ? 'learn ' : 'replay'} ${plan.anchor ? `${plan.anchor.source}+` : '@'}${plan.delayMs} ms → ${end.signal ?? `exit ${end.code}`}`,
      );

      // The path file (and every spec) still validates.
      const validate = startCli(project, ['validate'], env);
      const validated = await validate.ended;
      expect(validated.code, `after kill ${i + 1}: ${validate.output}`).toBe(0);
      if (existsSync(pathFile)) expect(() => JSON.parse(readFileSync(pathFile, 'utf8')), `after kill ${i + 1}`).not.toThrow();

      // The history parses; at most its last line is torn.
      const warnings: string[] = [];
      await expect(readHistory(reports, { warn: (m) => warnings.push(m) }), `after kill ${i + 1}`).resolves.toBeInstanceOf(Array);
      tornLines += warnings.length;

      // The summary is written atomically: absent or whole.
      if (project.exists('reports/summary.json')) expect(() => project.summary(), `after kill ${i + 1}`).not.toThrow();

      // A lock file left behind belongs to a dead process: the next writer recovers it.
      for (const lock of filesUnder(project.root).filter((f) => f.endsWith('.lock'))) {
        staleLocks++;
        let owner: { pid?: unknown } = {};
        try {
          owner = JSON.parse(readFileSync(lock, 'utf8')) as { pid?: unknown };
        } catch {
          continue; // Half-written: counts as stale for the lock's reader.
        }
        expect(typeof owner.pid === 'number' && isAlive(owner.pid), `${relative(project.root, lock)} held by a live process`).toBe(false);
      }
    }

    // The next run, one that writes the path (so it takes its lock), passes: a lock it could not
    // recover would have ended it with exit 3 after the 30 s wait for a live owner.
    const finalCli = startCli(project, ['run', '--learn', 'force'], env);
    const final = await finalCli.ended;
    expect(final.code, `${log.join('\n')}\n${finalCli.output}`).toBe(0);
    expect(project.summary().goals[0]).toMatchObject({ status: 'passed', mode: 'learned' });
    expect(filesUnder(project.root).filter((f) => f.endsWith('.lock'))).toEqual([]);
    const records = await readHistory(reports, { warn: () => undefined });
    // Two complete runs before, one after; each killed run appended its line or none.
    expect(records.length).toBeGreaterThanOrEqual(3);
    expect(records.length).toBeLessThanOrEqual(3 + KILLS);

    // Nothing of the killed runs is left running (the app lives in its own session).
    await pollFor('no process of the killed runs to survive', () => (marked(marker).length === 0 ? true : undefined), 15_000, 100).catch(
      () => undefined,
    );
    const survivors = marked(marker).flatMap((pid) => {
      try {
        return [`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, 3).join(' ')}`];
      } catch {
        return []; // Gone meanwhile.
      }
    });
    expect(survivors, log.join('\n')).toEqual([]);
    console.info(
      `kill -9: ${log.length} kills, ${staleLocks} lock file(s) left behind, ${tornLines} torn line warning(s)\n${log.join('\n')}`,
    );
  });
});
