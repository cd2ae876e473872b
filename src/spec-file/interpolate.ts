/**
 * `${env.NAME}` and `${secret.NAME}` placeholders.
 *
 * Strings keep their placeholders in a loaded spec and in path files; they are resolved only
 * when a value is used (an action performed, a command run), so a secret never reaches a file.
 * Both namespaces read the process environment: `${secret.TOKEN}` is the variable `TOKEN`, but
 * its value is masked in every output. `$${` writes a literal `${`.
 */
import { InvalidInputError } from '../errors.ts';
import { MASK, secretMasker, type SecretMasker } from './secrets.ts';

/** An environment, such as `process.env`. */
export type Env = Readonly<Record<string, string | undefined>>;

export const NAMESPACES = ['env', 'secret'] as const;
export type Namespace = (typeof NAMESPACES)[number];

export interface Placeholder {
  readonly namespace: Namespace;
  readonly name: string;
  /** As written, e.g. `${secret.TOKEN}`. */
  readonly raw: string;
  /** Offset of `$` in the template. */
  readonly index: number;
}

export type TemplatePart = { readonly literal: string } | { readonly placeholder: Placeholder };

export type TemplateProblem =
  | { readonly kind: 'unterminated' | 'malformed'; readonly raw: string; readonly index: number }
  | {
      readonly kind: 'unknown-namespace';
      readonly namespace: string;
      readonly raw: string;
      readonly index: number;
    };

export interface ParsedTemplate {
  readonly parts: readonly TemplatePart[];
  readonly problems: readonly TemplateProblem[];
}

const INNER = /^([A-Za-z_][A-Za-z0-9_-]*)\.([A-Za-z_][A-Za-z0-9_]*)$/;

const isNamespace = (s: string): s is Namespace => (NAMESPACES as readonly string[]).includes(s);

/** Splits a template into literals and placeholders; never throws. */
export function parseTemplate(template: string): ParsedTemplate {
  const parts: TemplatePart[] = [];
  const problems: TemplateProblem[] = [];
  let literal = '';
  let i = 0;
  while (i < template.length) {
    if (template.startsWith('$${', i)) {
      literal += '${';
      i += 3;
      continue;
    }
    if (!template.startsWith('${', i)) {
      literal += template[i];
      i += 1;
      continue;
    }
    const close = template.indexOf('}', i + 2);
    if (close < 0) {
      problems.push({ kind: 'unterminated', raw: template.slice(i), index: i });
      literal += template.slice(i);
      break;
    }
    const raw = template.slice(i, close + 1);
    const match = INNER.exec(template.slice(i + 2, close).trim());
    if (!match) {
      problems.push({ kind: 'malformed', raw, index: i });
      literal += raw;
    } else if (!isNamespace(match[1] ?? '')) {
      problems.push({ kind: 'unknown-namespace', namespace: match[1] ?? '', raw, index: i });
      literal += raw;
    } else {
      if (literal) parts.push({ literal });
      literal = '';
      parts.push({
        placeholder: { namespace: match[1] as Namespace, name: match[2] ?? '', raw, index: i },
      });
    }
    i = close + 1;
  }
  if (literal) parts.push({ literal });
  return { parts, problems };
}

/** The well-formed placeholders of a template, in order. */
export const placeholders = (template: string): readonly Placeholder[] =>
  parseTemplate(template).parts.flatMap((p) => ('placeholder' in p ? [p.placeholder] : []));

/** Whether typing or showing this template would reveal a secret. */
export const containsSecret = (template: string): boolean => placeholders(template).some((p) => p.namespace === 'secret');

/** A template for people to read: `${secret.X}` shows as `••••`, the rest as written. */
export function describeForDisplay(template: string): string {
  let out = template;
  for (const p of [...placeholders(template)].reverse()) {
    if (p.namespace === 'secret') out = out.slice(0, p.index) + MASK + out.slice(p.index + p.raw.length);
  }
  return out;
}

/** The sentence a message uses for a template problem. */
export function describeTemplateProblem(problem: TemplateProblem): string {
  switch (problem.kind) {
    case 'unterminated':
      return `has an unterminated placeholder "${problem.raw}": close it with } (write $\${ for a literal \${)`;
    case 'malformed':
      return `has a malformed placeholder "${problem.raw}": write \${env.NAME} or \${secret.NAME}`;
    case 'unknown-namespace':
      return `uses ${problem.raw}: unknown namespace "${problem.namespace}" (expected env or secret)`;
  }
}

/** The sentence a message uses for a placeholder whose variable is not set. */
export const describeUnset = (p: Placeholder): string =>
  p.namespace === 'env'
    ? `uses ${p.raw}, but the environment variable ${p.name} is not set`
    : `uses ${p.raw}, but the secret ${p.name} is not set (secrets are read from the environment variable ${p.name})`;

export type Resolution =
  | { readonly ok: true; readonly value: string; readonly secrets: readonly string[] }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Resolves a template without side effects: the value, the secret values it used, or every
 * problem (malformed placeholders, unset variables) as sentences.
 */
export function resolveTemplate(template: string, env: Env): Resolution {
  const { parts, problems } = parseTemplate(template);
  const messages = problems.map(describeTemplateProblem);
  const secrets: string[] = [];
  let value = '';
  for (const part of parts) {
    if ('literal' in part) {
      value += part.literal;
      continue;
    }
    const resolved = env[part.placeholder.name];
    if (resolved === undefined) {
      messages.push(describeUnset(part.placeholder));
      continue;
    }
    if (part.placeholder.namespace === 'secret') secrets.push(resolved);
    value += resolved;
  }
  return messages.length ? { ok: false, problems: messages } : { ok: true, value, secrets };
}

/**
 * The template with its placeholders replaced by values from `env`. Every secret it resolves
 * is taught to the masker (the process-wide one unless given), so later output masks it.
 * @throws InvalidInputError when a placeholder is malformed or its variable is unset.
 */
export function interpolate(template: string, env: Env, options: { readonly masker?: SecretMasker } = {}): string {
  const result = resolveTemplate(template, env);
  if (!result.ok) {
    throw new InvalidInputError(undefined, `"${describeForDisplay(template)}" ${result.problems.join('; ')}`);
  }
  const masker = options.masker ?? secretMasker;
  for (const secret of result.secrets) masker.learn(secret);
  return result.value;
}
