/**
 * The `window:` key of a spec, as the desktop matches it: the rule itself (a title substring,
 * or `/regex/flags`) lives in `src/spec-file/patterns.ts`, so the validator and the matcher agree.
 * An invalid regex in that form is an input error.
 */
import { InvalidInputError } from '../errors.ts';
import { parseTitlePattern as parseRule, titleMatches } from '../spec-file/patterns.ts';

export interface TitlePattern {
  readonly source: string;
  test(title: string): boolean;
}

export const parseTitlePattern = (source: string): TitlePattern => {
  let rule: ReturnType<typeof parseRule>;
  try {
    rule = parseRule(source);
  } catch (error) {
    throw new InvalidInputError(
      undefined,
      `Invalid window title pattern ${source}: ${(error as Error).message}. Write a title ` + `substring, or /regex/flags.`,
    );
  }
  return { source, test: (title) => titleMatches(rule, title) };
};
