/**
 * The run history: `reports/history/runs.jsonl`, one JSON line per goal attempt, appended by the
 * worker as soon as the attempt ends (so a run killed later keeps the rows of the goals it
 * finished). A goal retried by `--retry` leaves one line per attempt.
 *
 * Append-only and mergeable by concatenation, so shards and CI caches combine with `cat`.
 * Path statistics (`stats.ts`) are computed from it.
 *
 * Concurrency: every record is ONE write(2) on a descriptor opened with O_APPEND. The kernel
 * moves the offset to the end and writes the bytes under the inode lock, so lines from parallel
 * workers never interleave and none is lost. Lines are kept small (reasons are truncated) so
 * the guarantee also holds on filesystems that only promise it up to a page (4 KB).
 *
 * A torn line: only a writer killed inside write(2) by a crash or a full disk can leave a final
 * line without its newline. A reader ignores such a final line with a warning. The next
 * appender terminates it with TORN_MARK + "\n" before its own line, so the fragment stays
 * recognisable as torn (and skipped) instead of turning into a malformed line mid-file.
 * Reads are not serialised with writes, so an appender may glimpse another's write half-copied;
 * it looks twice before sealing. Should it still misfire, the mark lands after that (complete)
 * line as a line of its own, which readers skip silently.
 */
import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { FailureCategory, Mode, Status, Verdict } from '../domain.ts';
import { InfrastructureError, InvalidInputError } from '../errors.ts';
import { CATEGORIES, MODES, STATUSES } from './json-check.ts';
import { isObject, shown, valueProblem } from '../spec-file/check-value.ts';
import { bool, num, obj, oneOf, str } from '../spec-file/shape.ts';

export const HISTORY_VERSION = 1;

/** One goal run. `reason` is short and secret-free: the caller masks secrets before appending. */
export interface HistoryRecord {
  readonly v: typeof HISTORY_VERSION;
  /** Identifies the `retrace run` invocation (shared by all goals of that run). */
  readonly runId: string;
  /** ISO 8601 time the goal run ended. */
  readonly ts: string;
  /** Spec path relative to the project root, as in summary.json. */
  readonly spec: string;
  readonly goal: string;
  readonly status: Status;
  readonly mode: Mode;
  readonly modelCalls: number;
  readonly durationMs: number;
  /** Attempts of this goal in this run before this one (vitest `--retry`). */
  readonly retries: number;
  /**
   * Which attempt of the goal in its run this line is, from 1. Absent on lines written before
   * retrace wrote one line per attempt: such a line stood for the whole goal, its failed attempts
   * only counted in `retries`.
   */
  readonly attempt?: number;
  /** True when a target was found below the "recorded" rung. */
  readonly healed: boolean;
  /** Index of the action where the run failed, if an action failed. */
  readonly failedAction?: number;
  readonly category?: FailureCategory;
  readonly reason?: string;
  /** A hash of the spec's app and goal as the run read them (absent on lines of older versions). */
  readonly specHash?: string;
  /** A hash of the goal's path file when the attempt ended; null when it had none (absent on older lines). */
  readonly pathHash?: string | null;
}

/** The history line of one attempt of a goal: `retries` attempts of it ran before, in this run. */
export function recordOfVerdict(
  verdict: Verdict,
  run: {
    readonly runId: string;
    readonly retries: number;
    readonly ts?: Date;
    readonly basis?: { readonly specHash: string; readonly pathHash: string | null };
  },
): HistoryRecord {
  return {
    v: HISTORY_VERSION,
    runId: run.runId,
    ts: (run.ts ?? new Date()).toISOString(),
    spec: verdict.spec,
    goal: verdict.goal,
    status: verdict.status,
    mode: verdict.mode,
    modelCalls: verdict.modelCalls,
    durationMs: verdict.durationMs,
    retries: run.retries,
    attempt: run.retries + 1,
    healed: verdict.mode === 'healed',
    ...(verdict.failedAction !== undefined ? { failedAction: verdict.failedAction } : {}),
    ...(verdict.category ? { category: verdict.category } : {}),
    ...(verdict.message ? { reason: verdict.message.split('\n')[0] } : {}),
    ...(run.basis ?? {}),
  };
}

/** Reasons longer than this are cut, to keep every line far below 4 KB. */
export const MAX_REASON_CHARS = 300;
const MAX_LINE_BYTES = 4096;

/** Terminates a torn line left by a killed writer. JSON.stringify never emits a raw U+001E. */
export const TORN_MARK = '\u001e';

/** `reports/history/runs.jsonl`, relative to the reports dir; used in messages. */
export const HISTORY_FILE = 'history/runs.jsonl';

export const historyFile = (reportsDir: string): string => join(reportsDir, 'history', 'runs.jsonl');

const truncate = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** One record as one line, with its reason cut until the line fits in MAX_LINE_BYTES. */
export function serializeRecord(record: HistoryRecord): string {
  let reasonMax = MAX_REASON_CHARS;
  for (;;) {
    const fitted = record.reason === undefined ? record : { ...record, reason: truncate(record.reason, reasonMax) };
    const line = `${JSON.stringify(fitted)}\n`;
    // Over the limit only with absurd spec or goal names; then write it anyway (still one write).
    if (Buffer.byteLength(line) <= MAX_LINE_BYTES || fitted.reason === undefined || reasonMax <= 20) return line;
    reasonMax = Math.floor(reasonMax / 2);
  }
}

/**
 * Appends records to the history, each as a single O_APPEND write. Safe to call from many
 * processes at once. Creates `history/` when missing.
 */
export async function appendHistory(reportsDir: string, records: readonly HistoryRecord[]): Promise<void> {
  if (records.length === 0) return;
  const file = historyFile(reportsDir);
  await mkdir(join(reportsDir, 'history'), { recursive: true });
  // a+ = O_APPEND | O_CREAT | O_RDWR: appends, and lets endsTorn read the last byte.
  const handle = await open(file, 'a+');
  try {
    const lines = records.map(serializeRecord);
    if (await endsTorn(handle)) lines[0] = `${TORN_MARK}\n${lines[0]}`;
    for (const line of lines) {
      const bytes = Buffer.from(line);
      // FileHandle.write issues one write(2); a short write only happens on a full disk.
      const { bytesWritten } = await handle.write(bytes, 0, bytes.length, null);
      if (bytesWritten !== bytes.length) {
        throw new InfrastructureError('IO', `${file}: wrote ${bytesWritten} of ${bytes.length} bytes (disk full?)`);
      }
    }
  } finally {
    await handle.close();
  }
}

/**
 * True when the file ends in a torn line. A tail without "\n" may also be another appender's
 * write caught half-copied, so it must look the same twice, 20 ms apart, to count as torn.
 */
async function endsTorn(handle: FileHandle): Promise<boolean> {
  const tail = async (): Promise<number | undefined> => {
    const { size } = await handle.stat();
    if (size === 0) return undefined;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a ? undefined : size;
  };
  const first = await tail();
  if (first === undefined) return false;
  await new Promise((resolve) => setTimeout(resolve, 20));
  return (await tail()) === first;
}

export interface ReadHistoryOptions {
  /** Where warnings about torn lines go. @default console.warn */
  readonly warn?: (message: string) => void;
}

/**
 * All records, in file order. A missing file is an empty history. A malformed line is invalid
 * input (InvalidInputError naming `reports/history/runs.jsonl:<line>`), except a torn line.
 */
export async function readHistory(reportsDir: string, options: ReadHistoryOptions = {}): Promise<HistoryRecord[]> {
  let text: string;
  try {
    text = await readFile(historyFile(reportsDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return parseHistory(text, historyFile(reportsDir), options);
}

/** Parses the text of a runs.jsonl; `file` names it in errors and warnings. */
export function parseHistory(text: string, file: string, options: ReadHistoryOptions = {}): HistoryRecord[] {
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const lines = text.split('\n');
  const records: HistoryRecord[] = [];
  for (const [index, line] of lines.entries()) {
    const lineNo = index + 1;
    const isFinal = index === lines.length - 1;
    if (line.trim() === '') continue;
    if (line.endsWith(TORN_MARK)) {
      if (line !== TORN_MARK) warn(`${file}:${lineNo}: skipped a line torn by an interrupted writer`);
      continue;
    }
    if (isFinal) {
      // No trailing newline: a writer died mid-line. Its run is lost; the rest is intact.
      warn(`${file}:${lineNo}: ignored an unterminated last line (an interrupted writer left it)`);
      continue;
    }
    records.push(parseLine(line, file, lineNo));
  }
  return records;
}

function parseLine(line: string, file: string, lineNo: number): HistoryRecord {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch {
    throw new InvalidInputError({ file, line: lineNo }, `expected one JSON object per line (a history record), got ${shown(line)}`);
  }
  const problem = recordProblem(data);
  if (problem !== undefined) throw new InvalidInputError({ file, line: lineNo }, `not a history record: ${problem}`);
  return data as HistoryRecord;
}

const count = num({ minimum: 0 });

/** A HistoryRecord in the shape language (`v` is checked first, with its own message). */
const RECORD_SHAPE = obj(
  {
    v: { doc: 'the format version', shape: num(), required: true },
    runId: { doc: 'the `retrace run` invocation', shape: str(), required: true },
    ts: { doc: 'ISO 8601 time the goal run ended', shape: str(), required: true },
    spec: { doc: 'spec path relative to the project root', shape: str(), required: true },
    goal: { doc: 'goal id', shape: str(), required: true },
    status: { doc: 'verdict', shape: oneOf(STATUSES), required: true },
    mode: { doc: 'how the goal ran', shape: oneOf(MODES), required: true },
    modelCalls: { doc: 'model requests', shape: count, required: true },
    durationMs: { doc: 'time taken', shape: count, required: true },
    retries: { doc: 'attempts before this one', shape: count, required: true },
    attempt: { doc: 'which attempt, from 1', shape: count },
    healed: { doc: 'a target found below the recorded rung', shape: bool(), required: true },
    failedAction: { doc: 'index of the failed action', shape: count },
    category: { doc: 'failure category', shape: oneOf(CATEGORIES) },
    reason: { doc: 'short, secret-free reason', shape: str() },
    specHash: { doc: 'hash of the app and goal the attempt ran against', shape: str() },
    pathHash: { doc: 'hash of the path file it replayed (null: none)', shape: str(), nullable: true },
  },
  { open: true },
);

/** The first reason `data` is not a HistoryRecord, or undefined. */
export function recordProblem(data: unknown): string | undefined {
  if (!isObject(data)) return `expected a JSON object, got ${shown(data)}`;
  if (data.v !== HISTORY_VERSION) return `v must be ${HISTORY_VERSION}, got ${shown(data.v)} (written by another retrace version?)`;
  const problem = valueProblem(data, RECORD_SHAPE);
  if (problem !== undefined) return problem;
  if (Number.isNaN(Date.parse(data.ts as string))) return `ts must be an ISO 8601 time, got ${shown(data.ts)}`;
  return undefined;
}
