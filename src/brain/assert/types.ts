/** Results of `expect:` assertions. A failed assertion is a result; the goal runner turns it into a GoalFailure. */
import type { Frame, Region } from '../../domain.ts';

export interface DiffImages {
  readonly expected: Uint8Array;
  readonly actual: Uint8Array;
  readonly diff: Uint8Array;
}

export interface AssertionResult {
  readonly kind: 'text' | 'absent' | 'screenshot' | 'window' | 'element' | 'exited';
  /** e.g. `text "84"`, secret-free. */
  readonly description: string;
  readonly ok: boolean;
  readonly message: string;
  /** What OCR read, the focused window's title, or how the app ended. */
  readonly read?: string;
  /** For screenshot assertions: whether this run wrote the baseline. */
  readonly baseline?: 'matched' | 'new' | 'updated';
  /** The PNG this run wrote as a new baseline, shown in the report as new (not as a comparison). */
  readonly written?: Uint8Array;
  /** Expected/actual/diff PNGs of a failed screenshot assertion. */
  readonly images?: DiffImages;
  /** A text or absent assertion: the window it was last judged on, where it read, and the words it read there. */
  readonly judged?: { readonly frame: Frame; readonly region?: Region; readonly words: readonly Region[] };
  readonly ms: number;
}

export type UpdateBaselines = 'missing' | 'changed' | 'all' | 'none';
