/**
 * Checks of a string's *content* that its type cannot express: its placeholders (allowed
 * here? well-formed? set in the environment?), for a window title, that a `/regex/`
 * compiles once its placeholders are resolved, and that a key combo is one a keyboard presses. Returns sentences that follow the key path
 * in a message ("app.launch uses ${env.X}, but …").
 */
import { parseKeyCombo } from '../key-combo.ts';
import { describeTemplateProblem, describeUnset, parseTemplate, resolveTemplate, type Env } from './interpolate.ts';
import { parseTitlePattern, regexProblem } from './patterns.ts';
import { SecretMasker } from './secrets.ts';
import type { StringShape } from './shape.ts';

/** Why `combo` is no key combo the desktop could press ("is not a key combo: …"), or undefined. */
export function keyComboProblem(combo: string): string | undefined {
  try {
    parseKeyCombo(combo);
    return undefined;
  } catch (error) {
    return `is not a key combo: ${(error as Error).message.replace(/^Invalid key combo "[^"]*": /, '')}`;
  }
}

export function stringProblems(value: string, shape: StringShape, env: Env): string[] {
  const policy = shape.placeholders ?? 'none';
  const parsed = parseTemplate(value);
  const problems: string[] = [];
  // A command line, a title or a text with a NUL in it cannot be passed on: it would be cut there.
  if (value.includes('\0')) problems.push('holds a NUL character (\\x00), which no command line, title or typed text can carry');
  for (const part of parsed.parts) {
    if (!('placeholder' in part)) continue;
    const p = part.placeholder;
    if (policy === 'none') {
      // The key is never interpolated: a placeholder would silently stay literal.
      problems.push(`cannot hold placeholders such as ${p.raw}; it is used as written`);
    } else if (policy === 'env' && p.namespace === 'secret') {
      problems.push(`cannot use a secret (${p.raw}); only \${env.NAME} is allowed here`);
    } else if (env[p.name] === undefined) {
      problems.push(describeUnset(p));
    }
  }
  // Where placeholders are not interpolated, a "${" that is no placeholder is just text.
  if (policy !== 'none') problems.push(...parsed.problems.map(describeTemplateProblem));
  const combo = !problems.length && shape.format === 'key-combo' ? keyComboProblem(value) : undefined;
  if (combo !== undefined) problems.push(combo);
  if (problems.length || shape.format !== 'title') return problems;

  const resolved = resolveTemplate(value, env);
  if (!resolved.ok) return [];
  const why = regexProblem(() => parseTitlePattern(resolved.value));
  if (!why) return [];
  // The engine's message quotes the resolved pattern; a secret in it must not reach the output.
  const secrets = new SecretMasker();
  for (const secret of resolved.secrets) secrets.learn(secret);
  return [`is not a valid /regex/: ${secrets.mask(why)}`];
}
