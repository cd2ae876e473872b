/**
 * docs/spec-reference.md may never drift from the code: its generated blocks, between
 * `<!-- NAME:start -->` and `<!-- NAME:end -->`, must equal what the code renders today.
 * The hand-written text around them is left alone.
 *
 * To regenerate the blocks after changing the format or the rules grammar:
 *
 *     RETRACE_UPDATE_DOCS=1 npx vitest run test/docs/spec-reference.test.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES_GRAMMAR_HELP } from '../../src/brain/rules-grammar.ts';
import { specReferenceMarkdown } from '../../src/spec-file/reference.ts';

const FILE = resolve(import.meta.dirname, '../../docs/spec-reference.md');
const REGENERATE = 'RETRACE_UPDATE_DOCS=1 npx vitest run test/docs/spec-reference.test.ts';

/** The generated blocks of the file and what renders each. */
const BLOCKS: Readonly<Record<string, () => string>> = {
  /** The whole format: src/spec-file/format.ts and options-format.ts, via src/spec-file/reference.ts. */
  generated: () => specReferenceMarkdown(),
  /** The rules grammar as the CLI prints it when a goal is outside it (src/brain/rules-grammar.ts). */
  'rules-grammar': () => ['```text', RULES_GRAMMAR_HELP, '```', ''].join('\n'),
};

const startMarker = (name: string): string => `<!-- ${name}:start -->\n`;
const endMarker = (name: string): string => `<!-- ${name}:end -->`;

/** The block's current text, or undefined when its markers are missing. */
function block(text: string, name: string): { from: number; to: number; content: string } | undefined {
  const start = text.indexOf(startMarker(name));
  if (start === -1) return undefined;
  const from = start + startMarker(name).length;
  const to = text.indexOf(endMarker(name), from);
  if (to === -1) return undefined;
  return { from, to, content: text.slice(from, to) };
}

if (process.env.RETRACE_UPDATE_DOCS === '1') {
  let text = readFileSync(FILE, 'utf8');
  for (const [name, render] of Object.entries(BLOCKS)) {
    const found = block(text, name);
    if (!found) throw new Error(`${FILE}: no ${startMarker(name).trim()} … ${endMarker(name)} block to regenerate`);
    text = text.slice(0, found.from) + render() + text.slice(found.to);
  }
  writeFileSync(FILE, text);
}

describe('docs/spec-reference.md', () => {
  const text = readFileSync(FILE, 'utf8');

  for (const [name, render] of Object.entries(BLOCKS)) {
    it(`has the "${name}" block as the code renders it`, () => {
      const found = block(text, name);
      expect(found, `docs/spec-reference.md lost its ${startMarker(name).trim()} … ${endMarker(name)} markers`).toBeDefined();
      expect(found?.content, `docs/spec-reference.md is out of date; regenerate it with:\n  ${REGENERATE}`).toBe(render());
    });
  }

  it('mentions the regeneration command for its readers', () => {
    expect(text).toContain(REGENERATE);
  });
});
