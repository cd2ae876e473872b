/**
 * Secret masking. PRODUCT.md: "A secret is never written to a path file, a report, a log, or
 * a prompt". Paths keep the `${secret.X}` placeholder; everything else that could carry a
 * resolved value (log lines, report text, OCR text, error messages) goes through `mask`.
 *
 * Short values: a secret of one or two characters is masked too — wherever those characters
 * occur, so a secret "7" turns every 7 in every log into ••••. That is the safe side of the
 * trade-off; such a value protects little anyway, so prefer longer secrets.
 * An empty value has nothing to hide and is not learned.
 *
 * OCR variants: text read off the screen spells a secret the way OCR saw it ("Zebra7QuartZ",
 * "Zebra7 Quartz"). A word, or two neighbouring words run together, within a small edit distance
 * of a secret of 6 or more characters is masked as well. Shorter secrets are matched exactly
 * only: their near misses would be half of every log.
 */
import { editDistance, fuzzyTolerance } from '../edit-distance.ts';

/** What a secret looks like in any output. */
export const MASK = '••••';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `word` with its core (the part between edge punctuation) masked. */
const maskCore = (word: string): string => word.replace(word.replace(EDGE_PUNCTUATION, ''), MASK);

/** Secrets shorter than this are masked only where they are spelled exactly. */
const FUZZY_MIN_LENGTH = 6;
/** Punctuation OCR or a message puts around a word (quotes, brackets, a full stop). */
const EDGE_PUNCTUATION = /^[\s"'`([{<]+|[\s"'`)\]}>.,;:!?]+$/g;

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
      [...this.#values]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|'),
      'g',
    );
    return this.#maskVariants(text.replace(this.#pattern, MASK));
  }

  /** Whether `word` is a secret as OCR might read it: exact, or within a small edit distance. */
  isVariant(word: string): boolean {
    const core = word.replace(EDGE_PUNCTUATION, '').toLowerCase();
    if (core.length === 0) return false;
    for (const value of this.#values) {
      if (value.length < FUZZY_MIN_LENGTH) {
        if (core === value.toLowerCase()) return true;
        continue;
      }
      const tolerance = fuzzyTolerance(value.length);
      if (Math.abs(core.length - value.length) > tolerance) continue;
      if (editDistance(core, value.toLowerCase()) <= tolerance) return true;
    }
    return false;
  }

  #maskVariants(text: string): string {
    if (![...this.#values].some((v) => v.length >= FUZZY_MIN_LENGTH)) return text;
    // Words with the spaces after them, so two neighbours can be tried as one ("Zebra7 Quartz").
    const parts = text.split(/(\s+)/);
    for (let i = 0; i < parts.length; i += 2) {
      const word = parts[i] ?? '';
      if (word.length === 0 || word === MASK) continue;
      const pair = parts[i + 1] === ' ' && parts[i + 2] !== undefined ? word + parts[i + 2] : undefined;
      if (pair !== undefined && !this.isVariant(word) && this.isVariant(pair)) {
        parts.splice(i, 3, maskCore(pair));
        continue;
      }
      if (this.isVariant(word)) parts[i] = maskCore(word);
    }
    return parts.join('');
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
