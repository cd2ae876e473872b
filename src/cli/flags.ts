/**
 * One declarative table of commands and their flags, and the parser that reads argv against
 * it. A wrong flag is invalid input (exit 2) with a message that says what was expected.
 */
import { InvalidInputError } from '../errors.ts';
import { closest } from '../spec-file/suggest.ts';

export type FlagType = 'boolean' | 'string' | 'number' | 'list';

export interface FlagSpec {
  readonly type: FlagType;
  readonly description: string;
  /** Allowed values of a string flag. */
  readonly choices?: readonly string[];
  /** Shown in help. */
  readonly defaultText?: string;
  /** A string flag that may be given bare (`--html`): it then stands for its default (`true`). */
  readonly valueOptional?: boolean;
}

export interface CommandSpec {
  readonly summary: string;
  /** e.g. "[files or folders…]" */
  readonly args: string;
  readonly flags: Readonly<Record<string, FlagSpec>>;
}

const DIRS: Record<string, FlagSpec> = {
  paths: { type: 'string', description: 'directory of path files', defaultText: 'paths/' },
  reports: { type: 'string', description: 'directory of reports', defaultText: 'reports/' },
};

export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  run: {
    summary: 'learn or replay the goals of specs, verify them and report',
    args: '[files or folders…] (default: specs/)',
    flags: {
      learn: {
        type: 'string',
        choices: ['auto', 'off', 'force'],
        description: 'learn goals without a (fresh) path; off fails them; force relearns all',
        defaultText: 'auto',
      },
      planner: {
        type: 'string',
        choices: ['auto', 'claude', 'rules'],
        description: 'who learns: Claude (needs ANTHROPIC_API_KEY) or the offline rules planner',
        defaultText: 'auto',
      },
      relearn: {
        type: 'boolean',
        description:
          'learn a goal again when its replay fails for good; the goal still fails, the new path is proposed (retrace paths accept)',
      },
      'heal-with-model': { type: 'boolean', description: 'let replay ask the model to find a lost target' },
      strict: { type: 'boolean', description: 'a replayed action that had to be done again (the app ignored it once) fails the goal' },
      'unexpected-changes': {
        type: 'string',
        choices: ['fail', 'warn'],
        description: 'what a change no recorded effect accounts for does to the goal',
        defaultText: 'fail',
      },
      trace: {
        type: 'string',
        choices: ['off', 'on', 'retain-on-failure'],
        description: "keep each goal's trace under <reports>/traces/ (open it with retrace trace show)",
        defaultText: 'retain-on-failure',
      },
      'update-baselines': {
        type: 'string',
        choices: ['missing', 'changed', 'all', 'none'],
        description: 'which screenshot baselines may be written',
        defaultText: 'missing; none when CI=true',
      },
      goal: { type: 'list', description: 'run only this goal id (repeatable)' },
      bail: { type: 'boolean', description: 'stop at the first failure' },
      workers: { type: 'number', description: 'parallel workers, each on its own virtual display', defaultText: '1' },
      shard: { type: 'string', description: 'run shard i of n (split by spec file), e.g. 1/3' },
      model: {
        type: 'string',
        description: 'Claude model for learning and healing (also RETRACE_MODEL)',
        defaultText: 'claude-sonnet-5-5',
      },
      retry: {
        type: 'number',
        description: 'retry a failed goal up to N times (a goal that passes on retry is flagged flaky)',
        defaultText: '0',
      },
      junit: { type: 'string', description: 'also write a JUnit XML report to this file (for CI systems that read it)' },
      'keep-open': { type: 'boolean', description: 'leave the app and its display running after a failed goal' },
      live: {
        type: 'boolean',
        description:
          "watch the run in a browser: every worker's display, with its goal and action in progress, on one view-only page on a local port (address printed)",
      },
      quiet: { type: 'boolean', description: 'print only failures and the result' },
      verbose: { type: 'boolean', description: 'print every step' },
      ...DIRS,
    },
  },
  validate: {
    summary: 'check specs, the config file and path files; run nothing',
    args: '[files or folders…] (default: specs/)',
    flags: { ...DIRS },
  },
  report: {
    summary: 'build the Allure HTML report and the flaky-path report',
    args: '',
    flags: { ...DIRS },
  },
  paths: {
    summary: 'list paths with their statistics; show one as a storyboard; accept or reject a healed proposal',
    args: '[show|accept|reject <spec>#<goal>]',
    flags: {
      json: { type: 'boolean', description: 'print JSON' },
      html: {
        type: 'string',
        valueOptional: true,
        description: 'paths show: write the storyboard page to this file',
        defaultText: '<reports>/storyboards/<spec>/<goal>.html',
      },
      ...DIRS,
    },
  },
  inspect: {
    summary:
      "launch a spec's app and write what retrace sees: the window, OCR words, controls (a page with boxes and ready-to-paste targets)",
    args: '<spec file>',
    flags: {
      goal: { type: 'string', description: "replay this goal's path first and inspect where it ends" },
      out: {
        type: 'string',
        description: 'directory of window.png, inspect.json and index.html',
        defaultText: '<reports>/inspect/<spec>/',
      },
      ...DIRS,
    },
  },
  record: {
    summary: "record a goal's path from a person's demonstration; Ctrl-C ends it, then expect: is checked and the path saved",
    args: '<spec file>',
    flags: {
      goal: { type: 'string', description: 'the goal to record (required)' },
      ...DIRS,
    },
  },
  merge: {
    summary: 'merge the reports of shards (history, Allure results, summaries) into --reports',
    args: '<report dirs…>',
    flags: { ...DIRS },
  },
  trace: {
    summary:
      "open a goal's trace (reports/traces/<spec>/<goal>/) in a local page: each action's window before and after, rungs, effects, expectations; Ctrl-C ends it",
    args: 'show <trace folder or its trace.json>',
    flags: {
      port: { type: 'number', description: 'the local port to serve the page on', defaultText: 'a free one' },
    },
  },
  init: {
    summary: 'scaffold specs/example.yaml, paths/, fixtures/ and a vitest config',
    args: '',
    flags: {},
  },
  doctor: {
    summary: 'check the display, input, focus, the accessibility bus, OCR data, app launch and the API key',
    args: '[spec] (count the elements its app publishes)',
    flags: {},
  },
};

export type FlagValue = boolean | string | number | readonly string[];

export interface ParsedArgs {
  readonly command: string;
  readonly positionals: readonly string[];
  readonly flags: Readonly<Record<string, FlagValue>>;
}

const usage = (detail: string): InvalidInputError => new InvalidInputError({ file: 'command line' }, detail);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const [command, ...rest] = argv;
  if (command === undefined) throw usage('no command given; try "retrace run" or "retrace --help"');
  const spec = COMMANDS[command];
  if (!spec) {
    const hint = closest(command, Object.keys(COMMANDS));
    throw usage(`unknown command "${command}"${hint ? ` (did you mean "${hint}"?)` : ''}; commands: ${Object.keys(COMMANDS).join(', ')}`);
  }
  const flags: Record<string, FlagValue> = {};
  const positionals: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (!arg.startsWith('--') || arg === '--') {
      if (arg !== '--') positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const flag = spec.flags[name];
    if (!flag) {
      const hint = closest(name, Object.keys(spec.flags));
      throw usage(`unknown flag --${name} for "retrace ${command}"${hint ? ` (did you mean --${hint}?)` : ''}`);
    }
    if (flag.type === 'boolean') {
      if (eq !== -1) throw usage(`--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    const next = rest[i + 1];
    if (eq === -1 && flag.valueOptional && (next === undefined || next.startsWith('--'))) {
      flags[name] = true;
      continue;
    }
    const value = eq !== -1 ? arg.slice(eq + 1) : rest[++i];
    if (value === undefined || (eq === -1 && value.startsWith('--'))) throw usage(`--${name} needs a value`);
    if (flag.choices && !flag.choices.includes(value)) {
      throw usage(`--${name} must be one of ${flag.choices.join(', ')} (got "${value}")`);
    }
    if (flag.type === 'number') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0) throw usage(`--${name} must be a whole number (got "${value}")`);
      flags[name] = n;
    } else if (flag.type === 'list') {
      flags[name] = [...((flags[name] as readonly string[] | undefined) ?? []), value];
    } else {
      flags[name] = value;
    }
  }
  return { command, positionals, flags };
}

/** `--shard i/n` as numbers, checked. */
export function parseShard(value: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw usage(`--shard must be i/n with 1 ≤ i ≤ n (got "${value}")`);
  }
  return { index, count };
}

const commandHelp = (name: string, spec: CommandSpec): string[] => {
  const lines = [`  retrace ${name} ${spec.args}`.trimEnd(), `      ${spec.summary}`];
  for (const [flag, f] of Object.entries(spec.flags)) {
    const type = f.choices ? f.choices.join('|') : f.valueOptional ? `${f.type}, optional` : f.type;
    lines.push(`      --${flag.padEnd(18)} [${type}] ${f.description}${f.defaultText ? ` (default: ${f.defaultText})` : ''}`);
  }
  return lines;
};

const EXIT_CODES = 'Exit codes: 0 all goals passed; 1 a goal failed; 2 invalid input (nothing written); 3 broken (infrastructure).';

/** Help for every command, or for one (`retrace run --help`). */
export function helpText(command?: string): string {
  const one = command === undefined ? undefined : COMMANDS[command];
  if (one && command) return ['Usage:', ...commandHelp(command, one), '', EXIT_CODES].join('\n');
  const lines = ['retrace — learn, replay and verify GUI goals', '', 'Usage: retrace <command> [options]', ''];
  for (const [name, spec] of Object.entries(COMMANDS)) lines.push(...commandHelp(name, spec), '');
  lines.push(EXIT_CODES);
  return lines.join('\n');
}

/** `retrace <command> --help` (or -h), before a `--` that ends the options. */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}
