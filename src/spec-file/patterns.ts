/**
 * The two places a spec holds a regular expression, and the one rule for each, so the
 * validator and the code that matches at run time agree:
 * - a window title: a substring, or `/source/flags` (flag letters d g i m s u y; g and y ignored);
 * - a text expectation with `match: regex`: `/source/flags`, or the whole text as the source.
 */

export type TitlePattern = { readonly kind: 'substring'; readonly text: string } | { readonly kind: 'regex'; readonly regex: RegExp };

/** `/…/` plus flag letters. */
const REGEX_TITLE = /^\/(.+)\/([dgimsuy]*)$/s;

/**
 * How a title is matched. A title that does not look like `/…/flags` is a substring (so a
 * title holding a path, `/home/me/notes.txt - Mousepad`, stays one).
 * @throws SyntaxError when it looks like a regex but does not compile.
 */
export function parseTitlePattern(title: string): TitlePattern {
  const m = REGEX_TITLE.exec(title);
  if (!m) return { kind: 'substring', text: title };
  // g and y would make test() remember the previous match; a title check must not.
  return { kind: 'regex', regex: new RegExp(m[1] ?? '', (m[2] ?? '').replace(/[gy]/g, '')) };
}

export const titleMatches = (pattern: TitlePattern, title: string): boolean =>
  pattern.kind === 'substring' ? title.includes(pattern.text) : pattern.regex.test(title);

/**
 * The regex of a `match: regex` expectation: `/source/flags`, or a bare source — the rule of
 * `matchText` in `src/vision/text-match.ts`, so what validates here compiles there.
 * @throws SyntaxError when it does not compile.
 */
export function textRegex(pattern: string): RegExp {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  return m ? new RegExp(m[1] ?? '', m[2]) : new RegExp(pattern);
}

/** Why a regex does not compile (the engine's words), or undefined when it does. */
export function regexProblem(compile: () => unknown): string | undefined {
  try {
    compile();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
