/**
 * The `window:` key of a spec: a title substring, or `/regex/flags`. Only the exact form
 * `/…/` plus flag letters is a regex, so a title holding a path (`/home/me/notes.txt -
 * Mousepad`) is still a plain substring; an invalid regex in that form is an input error.
 */
import { InvalidInputError } from '../errors.ts';

export interface TitlePattern {
  readonly source: string;
  test(title: string): boolean;
}

const REGEX_SYNTAX = /^\/(.+)\/([dgimsuy]*)$/s;

export const parseTitlePattern = (source: string): TitlePattern => {
  const match = REGEX_SYNTAX.exec(source);
  if (match?.[1] !== undefined) {
    let regex: RegExp;
    try {
      // g and y make test() stateful; a title match must not depend on the previous call.
      regex = new RegExp(match[1], (match[2] ?? '').replace(/[gy]/g, ''));
    } catch (error) {
      throw new InvalidInputError(
        undefined,
        `Invalid window title pattern ${source}: ${(error as Error).message}. Write a title ` +
          `substring, or /regex/flags.`,
      );
    }
    return { source, test: (title) => regex.test(title) };
  }
  return { source, test: (title) => title.includes(source) };
};
