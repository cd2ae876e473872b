/**
 * The benchmark's vocabulary: a measured figure with its target, the statistics over repeated
 * samples (median, p10, p90), and the timing helpers every group uses. Defined once, here.
 */

export interface Stats {
  readonly n: number;
  readonly median: number;
  readonly p10: number;
  readonly p90: number;
  readonly min: number;
  readonly max: number;
}

/** A target from PRODUCT.md, "Performance targets". */
export interface Target {
  readonly op: '<=' | '>=' | '==' | '>';
  readonly value: number;
  /** How the table shows it, e.g. "≤ 10 ms". Defaults to op + value + unit. */
  readonly text?: string;
}

/** A row a group plans to report: what, in which unit, against which target. */
export interface Row {
  readonly name: string;
  readonly unit: string;
  readonly target?: Target;
}

/** The targets of PRODUCT.md ("Performance targets"), in one place. */
export const TARGETS = {
  captureMs: { op: '<=', value: 10, text: '≤ 10 ms' },
  captureVerifyMs: { op: '<=', value: 20, text: '≤ 20 ms' },
  settleOverheadMs: { op: '<=', value: 50, text: '≤ 50 ms' },
  typingCharsPerS: { op: '>=', value: 50, text: '≥ 50 chars/s' },
  diffChangedMs: { op: '<=', value: 15, text: '≤ 15 ms' },
  diffIdenticalMs: { op: '<=', value: 3, text: '≤ 3 ms' },
  ocrRegionMs: { op: '<=', value: 150, text: '≤ 150 ms' },
  ocrWordAccuracyPct: { op: '>=', value: 98, text: '≥ 98 %' },
  zeroModelCalls: { op: '==', value: 0, text: '= 0' },
} as const satisfies Record<string, Target>;

export type Verdict = 'ok' | 'MISS' | 'info' | 'not measured';

export interface Measurement {
  /** The measurement group, e.g. "Capture". */
  readonly group: string;
  /** What was measured, e.g. "screen 1280×800 (nut-js)". */
  readonly name: string;
  readonly unit: string;
  /** Repeated samples: the median is the figure, p10–p90 the spread. */
  readonly stats?: Stats;
  /** A single figure (a count, a ratio), when there is no distribution. */
  readonly value?: number;
  readonly target?: Target;
  readonly verdict: Verdict;
  /** Context, or the reason a figure is missing. */
  readonly note?: string;
}

/** The q-quantile (0..1) of samples, linear between order statistics. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

export function summarize(samples: readonly number[]): Stats {
  return {
    n: samples.length,
    median: quantile(samples, 0.5),
    p10: quantile(samples, 0.1),
    p90: quantile(samples, 0.9),
    min: samples.length ? Math.min(...samples) : Number.NaN,
    max: samples.length ? Math.max(...samples) : Number.NaN,
  };
}

/** Milliseconds `work` takes. */
export async function timed<T>(work: () => T | Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await work();
  return { ms: performance.now() - start, result };
}

/**
 * Times each of several alternatives `n` times, interleaved (A B C A B C …) so machine noise
 * falls on all of them alike; `warmup` untimed rounds first.
 */
export async function interleaved(alternatives: readonly (() => unknown)[], n: number, warmup = 2): Promise<number[][]> {
  const samples = alternatives.map(() => [] as number[]);
  for (let round = 0; round < warmup + n; round++) {
    for (const [i, work] of alternatives.entries()) {
      const { ms } = await timed(work);
      if (round >= warmup) samples[i]!.push(ms);
    }
  }
  return samples;
}

function judge(figure: number | undefined, target: Target | undefined): Verdict {
  if (figure === undefined || Number.isNaN(figure)) return 'not measured';
  if (!target) return 'info';
  const ok =
    target.op === '<='
      ? figure <= target.value
      : target.op === '>='
        ? figure >= target.value
        : target.op === '>'
          ? figure > target.value
          : figure === target.value;
  return ok ? 'ok' : 'MISS';
}

interface FigureInput extends Row {
  readonly group: string;
  readonly samples?: readonly number[];
  readonly value?: number;
  readonly target?: Target;
  readonly note?: string;
  /** Forces a miss (e.g. typed bytes differ), whatever the figure says. */
  readonly failed?: boolean;
}

/** A measurement from samples or a single value, judged against its target. */
export function figure(input: FigureInput): Measurement {
  const stats = input.samples && input.samples.length > 0 ? summarize(input.samples) : undefined;
  const value = stats ? undefined : input.value;
  const verdict = input.failed ? 'MISS' : judge(stats?.median ?? value, input.target);
  return {
    group: input.group,
    name: input.name,
    unit: input.unit,
    ...(stats ? { stats } : {}),
    ...(value !== undefined ? { value } : {}),
    ...(input.target ? { target: input.target } : {}),
    verdict,
    ...(input.note ? { note: input.note } : {}),
  };
}

/** A figure that could not be measured, with the reason; its target still shows. */
export function notMeasured(group: string, row: Row, reason: string): Measurement {
  return { group, name: row.name, unit: row.unit, verdict: 'not measured', note: reason, ...(row.target ? { target: row.target } : {}) };
}

/**
 * Runs a group; a crash becomes a "not measured" row, with the reason, for every row it
 * planned, so a missed target never disappears from the table.
 */
export async function guarded(group: string, rows: readonly Row[], work: () => Promise<Measurement[]>): Promise<Measurement[]> {
  try {
    return await work();
  } catch (error) {
    const reason = `the group failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    console.error(`bench: ${group}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return rows.map((row) => notMeasured(group, row, reason));
  }
}

/** Progress on stderr, so stdout carries only the table. */
export const progress = (message: string): void => {
  process.stderr.write(`bench: ${message}\n`);
};

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
