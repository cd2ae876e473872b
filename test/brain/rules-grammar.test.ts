import { describe, expect, it } from 'vitest';
import { parseRulesGoal, RULES_GRAMMAR_HELP } from '../../src/brain/rules-grammar.ts';
import type { Action } from '../../src/domain.ts';

const actions = (goal: string): readonly Action[] => {
  const r = parseRulesGoal(goal);
  if (!r.ok) throw new Error(`expected ${goal} to parse, got: ${r.error}`);
  return r.actions;
};

const error = (goal: string): string => {
  const r = parseRulesGoal(goal);
  if (r.ok) throw new Error(`expected ${goal} to be outside the grammar`);
  expect(r.grammar).toBe(RULES_GRAMMAR_HELP);
  return r.error;
};

describe('parseRulesGoal: inside the grammar', () => {
  it('reads the PRODUCT.md example as four clicks', () => {
    expect(actions('click "7", click "+", click "8", click "="')).toEqual([
      { kind: 'click', target: { text: '7' } },
      { kind: 'click', target: { text: '+' } },
      { kind: 'click', target: { text: '8' } },
      { kind: 'click', target: { text: '=' } },
    ]);
  });

  it('splits on , ; and then, but not inside quotes', () => {
    expect(actions('click "a, b"; double-click "c then d" then right-click "e; f"')).toEqual([
      { kind: 'click', target: { text: 'a, b' } },
      { kind: 'double-click', target: { text: 'c then d' } },
      { kind: 'right-click', target: { text: 'e; f' } },
    ]);
    expect(actions('click "A", then click "B"')).toHaveLength(2);
  });

  it('reads type, type … into, press', () => {
    expect(actions('type "hello" into "Name", press ctrl+s, press Enter, type "${secret.PASSWORD}"')).toEqual([
      { kind: 'type', text: 'hello', into: { text: 'Name' } },
      { kind: 'key', combo: 'ctrl+s' },
      { kind: 'key', combo: 'Enter' },
      { kind: 'type', text: '${secret.PASSWORD}' },
    ]);
  });

  it('reads scroll with and without amount and target', () => {
    expect(actions('scroll down; scroll up 5; scroll down 2 in "Results"; scroll left in "Map"')).toEqual([
      { kind: 'scroll', direction: 'down', amount: 3 },
      { kind: 'scroll', direction: 'up', amount: 5 },
      { kind: 'scroll', direction: 'down', amount: 2, target: { text: 'Results' } },
      { kind: 'scroll', direction: 'left', amount: 3, target: { text: 'Map' } },
    ]);
  });

  it('reads wait for and wait N ms', () => {
    expect(actions('wait for "Saved", wait 200 ms, wait 50ms, wait 2 s')).toEqual([
      { kind: 'wait-for', text: 'Saved' },
      { kind: 'wait', ms: 200 },
      { kind: 'wait', ms: 50 },
      { kind: 'wait', ms: 2000 },
    ]);
  });

  it('takes keywords in any case', () => {
    expect(actions('CLICK "OK" THEN Type "x" INTO "y" Then PRESS Enter, Wait For "z", SCROLL DOWN 1 IN "w"')).toEqual([
      { kind: 'click', target: { text: 'OK' } },
      { kind: 'type', text: 'x', into: { text: 'y' } },
      { kind: 'key', combo: 'Enter' },
      { kind: 'wait-for', text: 'z' },
      { kind: 'scroll', direction: 'down', amount: 1, target: { text: 'w' } },
    ]);
  });

  it('takes straight, single and curly quotes, and escaped quotes', () => {
    expect(actions("click “Save as…”, click 'Open', click ‘Close’, type \"say \\\"hi\\\"\", type 'it\\'s'")).toEqual([
      { kind: 'click', target: { text: 'Save as…' } },
      { kind: 'click', target: { text: 'Open' } },
      { kind: 'click', target: { text: 'Close' } },
      { kind: 'type', text: 'say "hi"' },
      { kind: 'type', text: "it's" },
    ]);
    expect(actions('type "C:\\temp\\\\x"')).toEqual([{ kind: 'type', text: 'C:\\temp\\x' }]);
  });

  it('ignores a final period and extra separators', () => {
    expect(actions('click "OK".')).toEqual([{ kind: 'click', target: { text: 'OK' } }]);
    expect(actions('press Enter.')).toEqual([{ kind: 'key', combo: 'Enter' }]);
    expect(actions(' , click "A" ,, then ; ')).toEqual([{ kind: 'click', target: { text: 'A' } }]);
  });
});

describe('parseRulesGoal: outside the grammar', () => {
  it('rejects free-form goals, naming the clause and the actions it knows', () => {
    expect(error('Compute 12 times 7 with the on-screen buttons')).toBe(
      'not in the rules grammar (clause 1: Compute 12 times 7 with the on-screen buttons): unknown action "Compute"; expected one of: click, double-click, right-click, type, check, uncheck, select, press, scroll, wait',
    );
    expect(error('click "7", then multiply by 3')).toBe(
      'not in the rules grammar (clause 2: multiply by 3): unknown action "multiply"; expected one of: click, double-click, right-click, type, check, uncheck, select, press, scroll, wait',
    );
  });

  it('rejects targets that are not quoted, or empty', () => {
    expect(error('click OK')).toBe(
      'not in the rules grammar (clause 1: click OK): click needs a quoted text, as in click "OK" or click button "OK"',
    );
    expect(error('click ""')).toContain('click needs a non-empty text');
    expect(error('type "a" into Name')).toContain('type … into needs a quoted text');
  });

  it('rejects trailing words and bad press, scroll and wait clauses', () => {
    expect(error('click "a" "b"')).toContain('unexpected "b" after click "a"');
    expect(error('click "a" twice')).toContain('unexpected twice after click "a"');
    expect(error('press ctrl + s')).toContain('unexpected + after press ctrl');
    expect(error('press')).toContain('press needs one key combination');
    expect(error('scroll sideways')).toContain('scroll needs a direction (up, down, left, right)');
    expect(error('scroll down 0')).toContain('scroll needs an amount of at least 1');
    expect(error('scroll down in List')).toContain('scroll … in needs a quoted text');
    expect(error('wait a moment')).toContain('wait needs for "T" or a duration');
    expect(error('wait 200')).toContain('wait needs for "T" or a duration');
    expect(error('wait for Saved')).toContain('wait for needs a quoted text');
  });

  it('points at the hyphenated form for "double click"', () => {
    expect(error('double click "x"')).toContain('unknown action "double" (write double-click)');
  });

  it('rejects an unterminated quote and an empty goal', () => {
    expect(error('click "OK')).toBe('not in the rules grammar: unterminated quote " at character 7');
    expect(error('   ')).toBe('not in the rules grammar: the goal is empty');
    expect(error('"OK"')).toContain('a clause must start with an action');
  });
});

describe('parseRulesGoal: elements by role and name', () => {
  it('reads a role before the quoted text as an element target, in every place a target goes', () => {
    expect(actions('click button "OK", type "Alice" into entry "Name", right-click item "Paris", scroll down 2 in list "City"')).toEqual([
      { kind: 'click', target: { role: 'button', name: 'OK' } },
      { kind: 'type', text: 'Alice', into: { role: 'entry', name: 'Name' } },
      { kind: 'right-click', target: { role: 'item', name: 'Paris' } },
      { kind: 'scroll', direction: 'down', amount: 2, target: { role: 'list', name: 'City' } },
    ]);
  });

  it('checks and unchecks a checkbox (the role is implied), and selects an option in a list', () => {
    expect(actions('check checkbox "Dark mode", uncheck "Mute", check button "Bold", select "Paris" in combobox "City"')).toEqual([
      { kind: 'check', target: { role: 'checkbox', name: 'Dark mode' }, checked: true },
      { kind: 'check', target: { role: 'checkbox', name: 'Mute' }, checked: false },
      { kind: 'check', target: { role: 'button', name: 'Bold' }, checked: true },
      { kind: 'select', option: 'Paris', target: { role: 'combobox', name: 'City' } },
    ]);
  });

  it('rejects an unknown role, and a select without the role of its list', () => {
    expect(error('click buton "OK"')).toContain('unknown role "buton" in click; a role is one of button, entry');
    expect(error('select "Paris" in "City"')).toContain('select needs the role of the list, as in select "Paris" in list "City"');
    expect(error('select "Paris"')).toContain('select needs the list it picks in');
  });
});

describe('RULES_GRAMMAR_HELP', () => {
  it('shows every form of the grammar', () => {
    for (const form of [
      'click "T"',
      'double-click "T"',
      'right-click "T"',
      'type "S" into "T"',
      'press <combo>',
      'scroll up|down',
      '[in "T"]',
      'wait for "T"',
      'wait N ms',
      'then',
      'click button "OK"',
      'into entry "Name"',
      'check checkbox "T"',
      'select "S" in list "T"',
    ]) {
      expect(RULES_GRAMMAR_HELP).toContain(form);
    }
  });
});
