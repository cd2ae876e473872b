/**
 * Secret masking. PRODUCT.md: "A secret is never written to a path file, a report, a log, or
 * a prompt". Paths keep the `${secret.X}` placeholder; everything else that could carry a
 * resolved value (log lines, report text, OCR text, error messages) goes through `mask`.
 *
 * Short values: a secret of one or two characters is masked too — wherever those characters
 * occur, so a secret "7" turns every 7 in every log into ••••. That is the safe side of the
 * trade-off; such a value protects little anyway, so prefer longer secrets.
 * An empty value has nothing to hide and is not learned.
 */

/** What a secret looks like in any output. */
export const MASK = '••••';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class SecretMasker {
  readonly #values = new Set<string>();
  /** One alternation, longest value first, so an overlap masks the longer secret whole. */
  #pattern: RegExp | undefined;

  /**
   * Remember a resolved secret. Its JSON-escaped spelling is learned as well, because reports
   * and `summary.json` hold strings JSON-encoded (a secret with a quote or a backslash in it
   * would otherwise slip through).
   */
  learn(value: string): void {
    for (const v of [value, JSON.stringify(value).slice(1, -1)]) {
      if (v.length === 0 || this.#values.has(v)) continue;
      this.#values.add(v);
      this.#pattern = undefined;
    }
  }

  /** `text` with every occurrence of every learned secret replaced by `••••`. */
  mask(text: string): string {
    if (this.#values.size === 0) return text;
    this.#pattern ??= new RegExp(
      [...this.#values].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'),
      'g',
    );
    return text.replace(this.#pattern, MASK);
  }

  /** Whether `text` holds a learned secret. */
  reveals(text: string): boolean {
    return this.mask(text) !== text;
  }

  /** Number of learned spellings. */
  get size(): number {
    return this.#values.size;
  }

  /** Forget everything (tests, or a long-lived process between runs). */
  clear(): void {
    this.#values.clear();
    this.#pattern = undefined;
  }
}

/**
 * The process-wide masker: `interpolate` teaches it every secret it resolves, and every
 * writer of logs and reports masks through it. Creating it has no other side effect.
 */
export const secretMasker = new SecretMasker();
