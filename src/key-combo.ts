/**
 * Key combos as specs, the rules grammar and the model write them (`ctrl+s`, `shift+Tab`,
 * `Enter`, `ctrl+shift+z`, `ctrl++`), parsed into neutral key names that mean the same on every
 * platform. The desktop layer maps them to its own names (X keysyms, src/desktop/x-keys.ts).
 * Pure, so validation rejects a bad combo before anything runs.
 *
 * Rules: parts are joined by `+`; modifiers are case-insensitive (ctrl/control, alt/option,
 * shift, super/meta/cmd/command/win); named keys are case-insensitive, with common aliases
 * (enter/return, esc, pgup/prior, left/arrowleft…); F1–F24; one printable ASCII character. Any
 * other name made of letters, digits and `_` is a platform's own key name, passed through as
 * written (`KP_Enter`, `XF86AudioMute`). A single letter with modifiers means the key, not the
 * character: `ctrl+S` is `ctrl+s`; write `ctrl+shift+s` for the shifted one.
 */
import { InvalidInputError } from './errors.ts';

export type Modifier = 'ctrl' | 'alt' | 'shift' | 'super';

/** Keys with a name of their own, named as in the W3C `KeyboardEvent.key` values. */
export type NamedKey =
  | 'Enter'
  | 'Tab'
  | 'Escape'
  | 'Space'
  | 'Backspace'
  | 'Delete'
  | 'Insert'
  | 'Home'
  | 'End'
  | 'PageUp'
  | 'PageDown'
  | 'ArrowUp'
  | 'ArrowDown'
  | 'ArrowLeft'
  | 'ArrowRight'
  | 'ContextMenu'
  | 'PrintScreen'
  | 'Pause'
  | 'CapsLock'
  | 'NumLock'
  | 'ScrollLock'
  | 'Control'
  | 'Alt'
  | 'Shift'
  | 'Super';

export type Key =
  | { readonly kind: 'named'; readonly name: NamedKey }
  /** F1–F24. */
  | { readonly kind: 'function'; readonly number: number }
  /** One printable ASCII character, the key that types it. */
  | { readonly kind: 'char'; readonly char: string }
  /** A platform's own key name, for keys no neutral name covers. */
  | { readonly kind: 'native'; readonly name: string };

export interface KeyCombo {
  readonly modifiers: readonly Modifier[];
  readonly key: Key;
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

const LONE_MODIFIER: Readonly<Record<Modifier, NamedKey>> = { ctrl: 'Control', alt: 'Alt', shift: 'Shift', super: 'Super' };

/** Lower-case spellings of the named keys, X's names among them (the model writes those). */
const KEY_ALIASES: Readonly<Record<string, NamedKey>> = {
  enter: 'Enter',
  return: 'Enter',
  tab: 'Tab',
  esc: 'Escape',
  escape: 'Escape',
  space: 'Space',
  spacebar: 'Space',
  backspace: 'Backspace',
  delete: 'Delete',
  del: 'Delete',
  insert: 'Insert',
  ins: 'Insert',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  page_up: 'PageUp',
  pgup: 'PageUp',
  prior: 'PageUp',
  pagedown: 'PageDown',
  page_down: 'PageDown',
  pgdn: 'PageDown',
  next: 'PageDown',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  arrowup: 'ArrowUp',
  arrowdown: 'ArrowDown',
  arrowleft: 'ArrowLeft',
  arrowright: 'ArrowRight',
  menu: 'ContextMenu',
  contextmenu: 'ContextMenu',
  print: 'PrintScreen',
  printscreen: 'PrintScreen',
  pause: 'Pause',
  capslock: 'CapsLock',
  caps_lock: 'CapsLock',
  numlock: 'NumLock',
  num_lock: 'NumLock',
  scrolllock: 'ScrollLock',
  scroll_lock: 'ScrollLock',
};

const invalid = (combo: string, detail: string): InvalidInputError =>
  new InvalidInputError(
    undefined,
    `Invalid key combo "${combo}": ${detail}. Write modifiers and one key joined by "+", ` +
      `e.g. ctrl+s, shift+Tab, Enter, F5, ctrl+shift+z.`,
  );

const splitParts = (combo: string): string[] => {
  if (combo === '+') return ['+'];
  // A trailing "++" is the plus key after a modifier: ctrl++.
  if (combo.endsWith('++')) return [...combo.slice(0, -2).split('+'), '+'];
  return combo.split('+');
};

const keyOf = (combo: string, name: string, hasModifiers: boolean): Key => {
  const alias = KEY_ALIASES[name.toLowerCase()];
  if (alias !== undefined) return { kind: 'named', name: alias };
  const fn = /^f([1-9]|1[0-9]|2[0-4])$/i.exec(name);
  if (fn?.[1] !== undefined) return { kind: 'function', number: Number(fn[1]) };
  if (name.length === 1) {
    if (name < ' ' || name > '~') throw invalid(combo, `"${name}" is not a key name`);
    return { kind: 'char', char: /[a-z]/i.test(name) && hasModifiers ? name.toLowerCase() : name };
  }
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw invalid(combo, `"${name}" is not a key name`);
  return { kind: 'native', name };
};

/** Parses a combo; an InvalidInputError (without a location: the caller adds it) when it is not one. */
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
  const key: Key = lone === undefined ? keyOf(combo, keyName, modifiers.length > 0) : { kind: 'named', name: LONE_MODIFIER[lone] };
  return { modifiers, key };
};
