/** A loaded, validated spec. Strings keep their `${env.X}` / `${secret.X}` placeholders. */
import type { Action, ElementStateQuery, Region } from '../domain.ts';
import type { BaselineUpdate, Bounds, LearnMode, PlannerChoice, Timeouts, TraceMode, UnexpectedChanges } from './defaults.ts';

export type TextMatch = 'contains' | 'substring' | 'exact' | 'regex' | 'fuzzy';

export type Expectation =
  | {
      readonly kind: 'text';
      readonly text: string;
      readonly match: TextMatch;
      readonly region?: Region;
      readonly timeoutMs?: number;
      readonly line: number;
    }
  | {
      readonly kind: 'absent';
      readonly text: string;
      readonly region?: Region;
      readonly timeoutMs?: number;
      readonly line: number;
    }
  | {
      readonly kind: 'screenshot';
      readonly name: string;
      readonly region?: Region;
      readonly mask: readonly Region[];
      readonly threshold?: number;
      readonly maxDiffPixels?: number;
      readonly maxDiffPixelRatio?: number;
      readonly line: number;
    }
  | { readonly kind: 'window'; readonly title: string; readonly line: number }
  /** The app has exited with this code (`any`: with any code, not killed by a signal). */
  | { readonly kind: 'exited'; readonly code: number | 'any'; readonly timeoutMs?: number; readonly line: number }
  | ({
      readonly kind: 'element';
      readonly role: string;
      /** Exact, or `/regex/flags`. */
      readonly name?: string;
      readonly nth?: number;
      readonly timeoutMs?: number;
      readonly line: number;
    } & ElementStateQuery);

export interface GoalSpec {
  readonly id: string;
  /** Free-form goal text (for a planner), when no steps are given. */
  readonly goal?: string;
  /** Hand-written path. */
  readonly steps?: readonly Action[];
  readonly expect: readonly Expectation[];
  /** 1-based line of the goal in its file. */
  readonly line: number;
}

export interface AppSpec {
  readonly launch: string;
  readonly window: string;
  readonly size?: readonly [number, number];
  readonly restart: 'goal' | 'spec';
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly setup?: string;
  readonly teardown?: string;
  readonly windowTimeoutMs?: number;
  readonly animations: 'off' | 'allow';
  readonly accessibility: 'on' | 'off';
  readonly isolate: boolean;
}

export interface Spec {
  /** Absolute file path. */
  readonly file: string;
  /** Path relative to the project root (or the file name, for a spec outside the root). */
  readonly id: string;
  readonly name: string;
  readonly app: AppSpec;
  readonly goals: readonly GoalSpec[];
  /** The spec's `options:` overrides (always set by `loadSpec`; `{}` when absent). */
  readonly options?: SpecOptions;
}

/**
 * Run options a spec may override in `options:`. Each absent key falls through to the config
 * file, then to the defaults (`resolveOptions`).
 */
export interface SpecOptions {
  readonly learn?: LearnMode;
  readonly planner?: PlannerChoice;
  readonly model?: string;
  readonly relearn?: boolean;
  readonly healWithModel?: boolean;
  readonly strict?: boolean;
  readonly unexpectedChanges?: UnexpectedChanges;
  readonly trace?: TraceMode;
  readonly timeouts?: Partial<Timeouts>;
  readonly bounds?: Partial<Bounds>;
}

/** The keys of `retrace.config.yaml`: the spec options plus the run-wide ones. */
export interface ConfigOptions extends SpecOptions {
  readonly updateBaselines?: BaselineUpdate;
  readonly workers?: number;
  /** As written: relative to the project root. */
  readonly paths?: string;
  readonly reports?: string;
  /** `fonts` as written: relative to the project root. */
  readonly display?: { readonly size?: readonly [number, number]; readonly fonts?: readonly string[] };
}
