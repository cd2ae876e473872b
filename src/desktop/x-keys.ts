/**
 * Neutral key combos (src/key-combo.ts) as X keysyms: their names, which xdotool understands,
 * and their values, which the keymap holds (x11/keyboard.ts presses those itself).
 */
import type { Key, KeyCombo, Modifier, NamedKey } from '../key-combo.ts';

const NAMED_KEYSYMS: Readonly<Record<NamedKey, string>> = {
  Enter: 'Return',
  Tab: 'Tab',
  Escape: 'Escape',
  Space: 'space',
  Backspace: 'BackSpace',
  Delete: 'Delete',
  Insert: 'Insert',
  Home: 'Home',
  End: 'End',
  PageUp: 'Prior',
  PageDown: 'Next',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  ContextMenu: 'Menu',
  PrintScreen: 'Print',
  Pause: 'Pause',
  CapsLock: 'Caps_Lock',
  NumLock: 'Num_Lock',
  ScrollLock: 'Scroll_Lock',
  Control: 'Control_L',
  Alt: 'Alt_L',
  Shift: 'Shift_L',
  Super: 'Super_L',
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

/** Values of the named keysyms above (X11/keysymdef.h). */
const KEYSYM_VALUES: Readonly<Record<string, number>> = {
  Return: 0xff0d,
  Tab: 0xff09,
  Escape: 0xff1b,
  space: 0x20,
  BackSpace: 0xff08,
  Delete: 0xffff,
  Insert: 0xff63,
  Home: 0xff50,
  End: 0xff57,
  Prior: 0xff55,
  Next: 0xff56,
  Up: 0xff52,
  Down: 0xff54,
  Left: 0xff51,
  Right: 0xff53,
  Menu: 0xff67,
  Print: 0xff61,
  Pause: 0xff13,
  Caps_Lock: 0xffe5,
  Num_Lock: 0xff7f,
  Scroll_Lock: 0xff14,
  Control_L: 0xffe3,
  Alt_L: 0xffe9,
  Shift_L: 0xffe1,
  Super_L: 0xffeb,
};

const MODIFIER_KEYSYMS: Readonly<Record<Modifier, number>> = { ctrl: 0xffe3, alt: 0xffe9, shift: 0xffe1, super: 0xffeb };
const F1 = 0xffbe;

/**
 * The keysym of a character: Latin-1 is its own code, the rest of Unicode is 0x01000000 plus
 * the code point; a line break types Return (GTK ignores the Linefeed keysym) and a tab Tab.
 */
export const charKeysym = (char: string): number => {
  if (char === '\n') return KEYSYM_VALUES.Return!;
  if (char === '\t') return KEYSYM_VALUES.Tab!;
  const code = char.codePointAt(0) ?? 0;
  return code >= 0x20 && code <= 0xff && code !== 0x7f ? code : 0x01000000 + code;
};

/**
 * The keysyms of a combo, modifiers first; undefined for a platform's own key name, whose value
 * only Xlib's table knows (xdotool looks it up).
 */
export const comboKeysyms = (combo: KeyCombo): number[] | undefined => {
  const { key } = combo;
  const last =
    key.kind === 'named'
      ? KEYSYM_VALUES[NAMED_KEYSYMS[key.name]]
      : key.kind === 'function'
        ? F1 + key.number - 1
        : key.kind === 'char'
          ? charKeysym(key.char)
          : undefined;
  return last === undefined ? undefined : [...combo.modifiers.map((m) => MODIFIER_KEYSYMS[m]), last];
};

export const toKeysym = (key: Key): string => {
  switch (key.kind) {
    case 'named':
      return NAMED_KEYSYMS[key.name];
    case 'function':
      return `F${key.number}`;
    case 'char':
      return SYMBOL_KEYSYMS[key.char] ?? key.char;
    case 'native':
      return key.name;
  }
};

/** The argument of `xdotool key`. */
export const toXdotoolKey = (combo: KeyCombo): string => [...combo.modifiers, toKeysym(combo.key)].join('+');
