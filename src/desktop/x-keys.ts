/** Neutral key combos (src/key-combo.ts) as the X keysym names xdotool understands. */
import type { Key, KeyCombo, NamedKey } from '../key-combo.ts';

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
