/**
 * The rules grammar of the offline planner (PRODUCT.md, "The rules grammar"): a goal written
 * as clauses, each one action, turned into `Action`s without any model. A goal outside the
 * grammar is a *result* (`ok: false`) that carries the grammar, because the caller then needs
 * Claude, and without an API key it must tell the user what it can do offline.
 *
 *   goal    := clause ( ("," | ";" | "then") clause )*
 *   clause  := ("click" | "double-click" | "right-click") TARGET
 *            | "type" TEXT [ "into" TARGET ]
 *            | ("check" | "uncheck") TARGET          (a bare TEXT is a checkbox's name)
 *            | "select" TEXT "in" ROLE TEXT
 *            | "press" COMBO
 *            | "scroll" ("up" | "down" | "left" | "right") [N] [ "in" TARGET ]
 *            | "wait" "for" TEXT
 *            | "wait" N ("ms" | "s")
 *   TARGET  := [ROLE] TEXT       a text found by OCR, or with a role an element (button, entry…)
 *   TEXT    := a quoted string: "…", '…', “…” or ‘…’; a backslash escapes a quote or itself
 *
 * Keywords are case-insensitive; separators inside quotes do not count; a final "." is ignored.
 */
import { ELEMENT_ROLES, type Action, type Target } from '../domain.ts';
import { DEFAULT_SCROLL_AMOUNT, KEY_COMBO_PATTERN, SCROLL_DIRECTIONS } from '../spec-file/format.ts';

/** The role words a target may start with: retrace's names of the toolkits' roles. */
export const ROLE_WORDS: ReadonlySet<string> = new Set(ELEMENT_ROLES);
const SOME_ROLES = 'button, entry, checkbox, radio, combobox, list, item, label, link, menuitem, tab…';

export const RULES_GRAMMAR_HELP = [
  'The rules grammar (offline, no API key needed): clauses separated by "," ";" or "then":',
  '  click "T"   double-click "T"   right-click "T"',
  '  type "S"   type "S" into "T"',
  `  a role before "T" names an element: click button "OK", type "S" into entry "Name" (${SOME_ROLES})`,
  '  check checkbox "T"   uncheck checkbox "T"   select "S" in list "T"   (S: the option\'s name)',
  '  press <combo>            e.g. press ctrl+s, press Enter',
  `  scroll up|down|left|right [N] [in "T"]   (N wheel notches, default ${DEFAULT_SCROLL_AMOUNT})`,
  '  wait for "T"   wait N ms',
  'Quote texts with "…", \'…\' or “…”; write \\" for a quote inside. Keywords are case-insensitive.',
  'Example: click "7", click "+", click "8", click "="',
].join('\n');

export type RulesParse =
  | { readonly ok: true; readonly actions: readonly Action[] }
  | { readonly ok: false; readonly error: string; readonly grammar: string };

type Token =
  | { readonly kind: 'word'; readonly text: string; readonly start: number; readonly end: number }
  | { readonly kind: 'text'; readonly text: string; readonly start: number; readonly end: number }
  | { readonly kind: 'sep'; readonly start: number; readonly end: number };

const DOUBLE_OPEN = '"“”„';
const DOUBLE_CLOSE = '"“”';
const SINGLE_OPEN = "'‘’‚";
const SINGLE_CLOSE = "'’‘";

class GrammarError extends Error {}

function tokenize(goal: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < goal.length) {
    const c = goal[i] ?? '';
    if (/\s/.test(c)) {
      i++;
    } else if (c === ',' || c === ';') {
      tokens.push({ kind: 'sep', start: i, end: i + 1 });
      i++;
    } else if (DOUBLE_OPEN.includes(c) || SINGLE_OPEN.includes(c)) {
      const closers = DOUBLE_OPEN.includes(c) ? DOUBLE_CLOSE : SINGLE_CLOSE;
      const start = i;
      let text = '';
      i++;
      for (;;) {
        const d = goal[i];
        if (d === undefined) throw new GrammarError(`unterminated quote ${c} at character ${start + 1}`);
        if (d === '\\' && i + 1 < goal.length) {
          const next = goal[i + 1] ?? '';
          // Escapes are for quotes and backslashes only, so C:\temp keeps its backslash.
          text += next === '\\' || DOUBLE_OPEN.includes(next) || SINGLE_OPEN.includes(next) ? next : d + next;
          i += 2;
          continue;
        }
        i++;
        if (closers.includes(d)) break;
        text += d;
      }
      tokens.push({ kind: 'text', text, start, end: i });
    } else {
      const start = i;
      while (i < goal.length && !/[\s,;]/.test(goal[i] ?? '') && !DOUBLE_OPEN.includes(goal[i] ?? '')) i++;
      const text = goal.slice(start, i);
      tokens.push(text.toLowerCase() === 'then' ? { kind: 'sep', start, end: i } : { kind: 'word', text, start, end: i });
    }
  }
  return tokens;
}

/** Splits tokens into clauses; empty clauses (", then") are dropped; a final "." goes. */
function clauses(tokens: readonly Token[]): Token[][] {
  const out: Token[][] = [[]];
  for (const t of tokens) {
    if (t.kind === 'sep') out.push([]);
    else out[out.length - 1]?.push(t);
  }
  return out
    .filter((c) => c.length > 0)
    .map((c) => {
      const last = c[c.length - 1];
      if (last?.kind === 'word' && last.text.length > 1 && last.text.endsWith('.')) {
        return [...c.slice(0, -1), { ...last, text: last.text.slice(0, -1), end: last.end - 1 }];
      }
      return c.filter((t) => !(t.kind === 'word' && t.text === '.'));
    })
    .filter((c) => c.length > 0);
}

const ACTIONS = ['click', 'double-click', 'right-click', 'type', 'check', 'uncheck', 'select', 'press', 'scroll', 'wait'] as const;
const COMBO = new RegExp(KEY_COMBO_PATTERN.source);

/** Reads one clause; throws GrammarError with what was expected. */
function parseClause(tokens: readonly Token[]): Action {
  let at = 0;
  const peek = (): Token | undefined => tokens[at];
  const word = (): string | undefined => {
    const t = peek();
    return t?.kind === 'word' ? t.text.toLowerCase() : undefined;
  };
  const text = (what: string, example: string): string => {
    const t = peek();
    if (t?.kind !== 'text') throw new GrammarError(`${what} needs a quoted text, as in ${example}`);
    if (t.text.length === 0) throw new GrammarError(`${what} needs a non-empty text, as in ${example}`);
    at++;
    return t.text;
  };
  /** A target: a quoted text, or a role word and the element's quoted name. */
  const target = (what: string, example: string, defaultRole?: string): Target => {
    const role = word();
    if (role === undefined || tokens[at + 1]?.kind !== 'text') {
      const t = text(what, example);
      return defaultRole === undefined ? { text: t } : { role: defaultRole, name: t };
    }
    if (!ROLE_WORDS.has(role)) throw new GrammarError(`unknown role "${role}" in ${what}; a role is one of ${SOME_ROLES}`);
    at++;
    return { role, name: text(what, example) };
  };
  const shown = (t: Target): string => ('text' in t ? `"${t.text}"` : 'role' in t ? `${t.role} "${t.name ?? ''}"` : '');
  const end = (what: string): void => {
    const t = peek();
    if (!t) return;
    const shown = t.kind === 'text' ? `"${t.text}"` : t.kind === 'word' ? t.text : ',';
    throw new GrammarError(`unexpected ${shown} after ${what}`);
  };

  const keyword = word();
  if (keyword === undefined) {
    throw new GrammarError(`a clause must start with an action (${ACTIONS.join(', ')})`);
  }
  at++;
  switch (keyword) {
    case 'click':
    case 'double-click':
    case 'right-click': {
      const clicked = target(keyword, `${keyword} "OK" or ${keyword} button "OK"`);
      end(`${keyword} ${shown(clicked)}`);
      return { kind: keyword, target: clicked };
    }
    case 'check':
    case 'uncheck': {
      const box = target(keyword, `${keyword} checkbox "Dark mode"`, 'checkbox');
      end(`${keyword} ${shown(box)}`);
      return { kind: 'check', target: box, checked: keyword === 'check' };
    }
    case 'select': {
      const option = text('select', 'select "Paris" in list "City"');
      if (word() !== 'in') throw new GrammarError('select needs the list it picks in, as in select "Paris" in list "City"');
      at++;
      const list = target('select … in', 'select "Paris" in combobox "City"');
      if (!('role' in list))
        throw new GrammarError(
          `select needs the role of the list, as in select "${option}" in list "${'text' in list ? list.text : ''}" (or combobox, table, tree)`,
        );
      end(`select "${option}" in ${shown(list)}`);
      return { kind: 'select', option, target: list };
    }
    case 'type': {
      const typed = text('type', 'type "hello"');
      if (word() !== 'into') {
        end(`type "${typed}"`);
        return { kind: 'type', text: typed };
      }
      at++;
      const into = target('type … into', 'type "hello" into "Name" or into entry "Name"');
      end(`type … into ${shown(into)}`);
      return { kind: 'type', text: typed, into };
    }
    case 'press': {
      const t = peek();
      const combo = t?.kind === 'word' || t?.kind === 'text' ? t.text : '';
      if (!COMBO.test(combo)) {
        throw new GrammarError('press needs one key combination without spaces, as in press ctrl+s or press Enter');
      }
      at++;
      end(`press ${combo}`);
      return { kind: 'key', combo };
    }
    case 'scroll': {
      const direction = word();
      const directions: readonly string[] = SCROLL_DIRECTIONS;
      if (direction === undefined || !directions.includes(direction)) {
        throw new GrammarError(`scroll needs a direction (${SCROLL_DIRECTIONS.join(', ')}), as in scroll down 3`);
      }
      at++;
      let amount = DEFAULT_SCROLL_AMOUNT;
      const n = word();
      if (n !== undefined && /^\d+$/.test(n)) {
        amount = Number(n);
        if (amount < 1) throw new GrammarError('scroll needs an amount of at least 1');
        at++;
      }
      let over: Target | undefined;
      if (word() === 'in') {
        at++;
        over = target('scroll … in', 'scroll down in "List" or in list "Cities"');
      }
      end(`scroll ${direction}`);
      const dir = direction as (typeof SCROLL_DIRECTIONS)[number];
      return over ? { kind: 'scroll', direction: dir, amount, target: over } : { kind: 'scroll', direction: dir, amount };
    }
    case 'wait': {
      if (word() === 'for') {
        at++;
        const awaited = text('wait for', 'wait for "Saved"');
        end(`wait for "${awaited}"`);
        return { kind: 'wait-for', text: awaited };
      }
      // "wait 200 ms", "wait 200ms", "wait 2 s": at most a number and a unit.
      const joined =
        tokens.length - at > 2
          ? ''
          : tokens
              .slice(at)
              .map((t) => (t.kind === 'word' ? t.text.toLowerCase() : '\u0000'))
              .join('');
      const m = /^(\d+)(ms|s)$/.exec(joined);
      if (!m) throw new GrammarError('wait needs for "T" or a duration, as in wait for "Saved" or wait 200 ms');
      return { kind: 'wait', ms: Number(m[1]) * (m[2] === 's' ? 1000 : 1) };
    }
    default: {
      const hint = keyword === 'double' || keyword === 'right' ? ` (write ${keyword}-click)` : '';
      throw new GrammarError(
        `unknown action "${tokens[0]?.kind === 'word' ? tokens[0].text : keyword}"${hint}; expected one of: ${ACTIONS.join(', ')}`,
      );
    }
  }
}

/** Parses a goal written in the rules grammar; a goal outside it is `ok: false`, never a throw. */
export function parseRulesGoal(goal: string): RulesParse {
  const fail = (error: string): RulesParse => ({ ok: false, error, grammar: RULES_GRAMMAR_HELP });
  let tokens: Token[];
  try {
    tokens = tokenize(goal);
  } catch (e) {
    if (e instanceof GrammarError) return fail(`not in the rules grammar: ${e.message}`);
    throw e;
  }
  const parts = clauses(tokens);
  if (parts.length === 0) return fail('not in the rules grammar: the goal is empty');
  const actions: Action[] = [];
  for (const [i, clause] of parts.entries()) {
    try {
      actions.push(parseClause(clause));
    } catch (e) {
      if (!(e instanceof GrammarError)) throw e;
      const first = clause[0]?.start ?? 0;
      const last = clause[clause.length - 1]?.end ?? goal.length;
      return fail(`not in the rules grammar (clause ${i + 1}: ${goal.slice(first, last)}): ${e.message}`);
    }
  }
  return { ok: true, actions };
}
