/**
 * Key combos as specs write them (`ctrl+s`, `shift+Tab`, `Enter`, `ctrl+shift+z`, `ctrl++`)
 * turned into the X keysym names xdotool understands. Pure, so spec validation can reject a
 * bad combo before anything runs.
 *
 * Rules: parts are joined by `+`; modifiers are case-insensitive (ctrl/control, alt/option,
 * shift, super/meta/cmd/command/win); common key names are case-insensitive aliases (enter,
 * esc, pageup, arrowleft, f5…); any other name is taken as an X keysym, case-sensitive
 * (`KP_Enter`, `XF86AudioMute`). A single letter with modifiers means the key, not the
 * character: `ctrl+S` is `ctrl+s`; write `ctrl+shift+s` for the shifted one.
 */
import { InvalidInputError } from '../errors.ts';

export type Modifier = 'ctrl' | 'alt' | 'shift' | 'super';

export interface KeyCombo {
  readonly modifiers: readonly Modifier[];
  /** An X keysym name. */
  readonly key: string;
}

const MODIFIERS: Readonly<Record<string, Modifier>> = {
  ctrl: 'ctrl',
  control: 'ctrl',
  ctl: 'ctrl',
  alt: 'alt',
  option: 'alt',
  shift: 'shift',
  super: 'super',
  meta: 'super',
  cmd: 'super',
  command: 'super',
  win: 'super',
};

const KEY_ALIASES: Readonly<Record<string, string>> = {
  enter: 'Return',
  return: 'Return',
  tab: 'Tab',
  esc: 'Escape',
  escape: 'Escape',
  space: 'space',
  spacebar: 'space',
  backspace: 'BackSpace',
  delete: 'Delete',
  del: 'Delete',
  insert: 'Insert',
  ins: 'Insert',
  home: 'Home',
  end: 'End',
  pageup: 'Prior',
  page_up: 'Prior',
  pgup: 'Prior',
  pagedown: 'Next',
  page_down: 'Next',
  pgdn: 'Next',
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  arrowup: 'Up',
  arrowdown: 'Down',
  arrowleft: 'Left',
  arrowright: 'Right',
  menu: 'Menu',
  contextmenu: 'Menu',
  print: 'Print',
  printscreen: 'Print',
  pause: 'Pause',
  capslock: 'Caps_Lock',
  numlock: 'Num_Lock',
  scrolllock: 'Scroll_Lock',
};

/** Keysym names of the printable ASCII characters that are not letters or digits. */
const SYMBOL_KEYSYMS: Readonly<Record<string, string>> = {
  ' ': 'space',
  '!': 'exclam',
  '"': 'quotedbl',
  '#': 'numbersign',
  $: 'dollar',
  '%': 'percent',
  '&': 'ampersand',
  "'": 'apostrophe',
  '(': 'parenleft',
  ')': 'parenright',
  '*': 'asterisk',
  '+': 'plus',
  ',': 'comma',
  '-': 'minus',
  '.': 'period',
  '/': 'slash',
  ':': 'colon',
  ';': 'semicolon',
  '<': 'less',
  '=': 'equal',
  '>': 'greater',
  '?': 'question',
  '@': 'at',
  '[': 'bracketleft',
  '\\': 'backslash',
  ']': 'bracketright',
  '^': 'asciicircum',
  _: 'underscore',
  '`': 'grave',
  '{': 'braceleft',
  '|': 'bar',
  '}': 'braceright',
  '~': 'asciitilde',
};

const invalid = (combo: string, detail: string): InvalidInputError =>
  new InvalidInputError(
    undefined,
    `Invalid key combo "${combo}": ${detail}. Write modifiers and one key joined by "+", ` +
      `e.g. ctrl+s, shift+Tab, Return, F5, ctrl+shift+z.`,
  );

const splitParts = (combo: string): string[] => {
  if (combo === '+') return ['+'];
  // A trailing "++" is the plus key after a modifier: ctrl++.
  if (combo.endsWith('++')) return [...combo.slice(0, -2).split('+'), '+'];
  return combo.split('+');
};

const keysymOf = (combo: string, name: string, hasModifiers: boolean): string => {
  const alias = KEY_ALIASES[name.toLowerCase()];
  if (alias !== undefined) return alias;
  if (/^f([1-9]|1[0-9]|2[0-4])$/i.test(name)) return name.toUpperCase();
  if (name.length === 1) {
    if (/[a-z]/i.test(name)) return hasModifiers ? name.toLowerCase() : name;
    if (/[0-9]/.test(name)) return name;
    const symbol = SYMBOL_KEYSYMS[name];
    if (symbol !== undefined) return symbol;
    throw invalid(combo, `"${name}" is not a key name`);
  }
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw invalid(combo, `"${name}" is not a key name`);
  return name;
};

const LONE_MODIFIER: Readonly<Record<Modifier, string>> = {
  ctrl: 'Control_L',
  alt: 'Alt_L',
  shift: 'Shift_L',
  super: 'Super_L',
};

export const parseKeyCombo = (combo: string): KeyCombo => {
  const trimmed = combo.trim();
  if (trimmed === '') throw invalid(combo, 'it is empty');
  if (/\s/.test(trimmed) && trimmed !== ' ') throw invalid(combo, 'it contains a space');
  const parts = splitParts(trimmed);
  if (parts.some((part) => part === '')) throw invalid(combo, 'it has an empty part');
  const keyName = parts[parts.length - 1] as string;
  const modifiers: Modifier[] = [];
  for (const part of parts.slice(0, -1)) {
    const modifier = MODIFIERS[part.toLowerCase()];
    if (modifier === undefined) throw invalid(combo, `"${part}" is not a modifier`);
    if (!modifiers.includes(modifier)) modifiers.push(modifier);
  }
  // A modifier on its own (`shift`) is a key press too.
  const lone = parts.length === 1 ? MODIFIERS[keyName.toLowerCase()] : undefined;
  const key = lone === undefined ? keysymOf(combo, keyName, modifiers.length > 0) : LONE_MODIFIER[lone];
  return { modifiers, key };
};

/** The argument of `xdotool key`. */
export const toXdotoolKey = (combo: KeyCombo): string => [...combo.modifiers, combo.key].join('+');
