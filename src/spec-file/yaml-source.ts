/**
 * From bytes to a YAML document with positions. Every problem becomes an `Issue` with a
 * 1-based line and column; the caller adds the file name (see `issuesToError`).
 */
import { readFileSync, statSync } from 'node:fs';
import { LineCounter, Parser, parseDocument, type CST, type Document, type YAMLError } from 'yaml';
import { InvalidInputError, InvalidInputErrors } from '../errors.ts';

/** One problem found in a file; line and column are 1-based and absent when unknown. */
export interface Issue {
  readonly line?: number;
  readonly column?: number;
  readonly detail: string;
}

export interface YamlSource {
  readonly text: string;
  readonly doc: Document.Parsed;
  readonly lineCounter: LineCounter;
}

/**
 * Larger files are refused before they are read: a spec or config file is hand-written text, and
 * a 6 MB one already takes 600 MB of memory to parse (60 MB runs out of memory).
 */
export const MAX_YAML_BYTES = 1024 * 1024;

/**
 * Deeper nesting is refused before the document is built: the YAML composer recurses once per
 * level and overflows the stack a few thousand levels down. A spec nests about eight levels.
 */
export const MAX_YAML_DEPTH = 64;

const tooLarge = (bytes: number): Issue => ({
  detail: `is ${(bytes / 1024 / 1024).toFixed(1)} MB, more than the ${MAX_YAML_BYTES / 1024 / 1024} MB a spec or config file may hold; split it into several files`,
});

const lineAt = (bytes: Uint8Array, offset: number): number => {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
};

/** Offset of the first byte that breaks UTF-8, or -1. Only called once decoding has failed. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    const n = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (n < 0) return i;
    for (let k = 1; k <= n; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return -1;
}

/**
 * The file's text, or why it is not a YAML text file: binary data (a NUL byte, which no YAML
 * text holds; UTF-16 files land here too) or bytes that are not UTF-8.
 */
export function decodeText(bytes: Uint8Array): { text: string } | { issue: Issue } {
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    return { issue: { line: lineAt(bytes, nul), detail: 'is not a YAML text file (it holds binary data)' } };
  }
  try {
    // fatal: reject instead of silently turning bad bytes into U+FFFD; a leading BOM is dropped.
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    const at = firstInvalidUtf8(bytes);
    return {
      issue: {
        line: lineAt(bytes, Math.max(at, 0)),
        detail: `is not a YAML text file (not valid UTF-8${at >= 0 ? ` at byte ${at}` : ''}; save it as UTF-8)`,
      },
    };
  }
}

/** "Nested mappings … at line 1, column 6:\n\n<excerpt>" → "Nested mappings …". */
function yamlErrorDetail(error: YAMLError): string {
  if (error.code === 'MULTIPLE_DOCS') {
    return 'holds more than one YAML document (a second ---); keep one document per file';
  }
  const first = error.message.split('\n')[0] ?? error.message;
  return `YAML syntax error: ${first.replace(/ at line \d+, column \d+:?$/, '')}`;
}

/**
 * Where collections first nest deeper than `MAX_YAML_DEPTH` (an offset), or undefined. Walks the
 * parser's token tree with a stack of its own, since it is the recursion that must be avoided.
 */
function tooDeep(text: string): number | undefined {
  const stack: { token: CST.Token | undefined; depth: number }[] = [...new Parser().parse(text)].map((token) => ({ token, depth: 0 }));
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { token, depth } = next;
    if (!token) continue;
    if (token.type === 'document') stack.push({ token: token.value, depth });
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    if (depth + 1 > MAX_YAML_DEPTH) return token.offset;
    for (const item of token.items) {
      stack.push({ token: item.key ?? undefined, depth: depth + 1 }, { token: item.value, depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * Parses YAML text. Warnings (an unknown `!tag`, …) count as issues too: a value the parser
 * guessed at is not a value the user meant.
 */
export function parseYaml(text: string): { source: YamlSource } | { issues: readonly Issue[] } {
  if (text.length > MAX_YAML_BYTES) return { issues: [tooLarge(text.length)] };
  const deep = tooDeep(text);
  if (deep !== undefined) {
    const before = text.slice(0, deep);
    const line = before.split('\n').length;
    return {
      issues: [
        {
          line,
          column: deep - before.lastIndexOf('\n'),
          detail: `nests more than ${MAX_YAML_DEPTH} levels deep (mappings and lists within each other); a spec needs about eight`,
        },
      ],
    };
  }
  const lineCounter = new LineCounter();
  // uniqueKeys: false — duplicates are reported by the validator, which names both lines.
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: true });
  const problems = [...doc.errors, ...doc.warnings];
  if (problems.length) {
    return {
      issues: problems.map((e) => {
        const pos = e.linePos?.[0] ?? lineCounter.linePos(e.pos[0]);
        return { line: pos.line, column: pos.col, detail: yamlErrorDetail(e) };
      }),
    };
  }
  return { source: { text, doc, lineCounter } };
}

/** Reads and parses a YAML file; a missing or unreadable file is an issue, not a crash. */
export function readYaml(file: string): { source: YamlSource } | { issues: readonly Issue[] } {
  let bytes: Uint8Array;
  try {
    const size = statSync(file).size;
    if (size > MAX_YAML_BYTES) return { issues: [tooLarge(size)] };
    bytes = readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String((e as Error).message);
    return { issues: [{ detail: `cannot be read: ${why}` }] };
  }
  const decoded = decodeText(bytes);
  return 'issue' in decoded ? { issues: [decoded.issue] } : parseYaml(decoded.text);
}

/** Issues of one file, as the typed error of the CLI contract (exit 2). */
export const issuesToError = (file: string, issues: readonly Issue[]): InvalidInputErrors =>
  new InvalidInputErrors(
    [...issues]
      .sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0))
      .map((i) => new InvalidInputError({ file, line: i.line, column: i.column }, i.detail)),
  );
