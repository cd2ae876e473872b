/**
 * AT-SPI's numbers (roles, states, relations) and retrace's names for them. The toolkit role
 * names are at-spi2's own (`atspi_role_get_name`), in the order of its AtspiRole enum.
 */
import type { ElementRole } from '../../domain.ts';

/** AtspiRole, by number. */
// biome-ignore format: a table, packed as at-spi2 lists it
const TOOLKIT_ROLES = [
  'invalid', 'accelerator label', 'alert', 'animation', 'arrow', 'calendar', 'canvas', 'check box',
  'check menu item', 'color chooser', 'column header', 'combo box', 'date editor', 'desktop icon',
  'desktop frame', 'dial', 'dialog', 'directory pane', 'drawing area', 'file chooser', 'filler',
  'focus traversable', 'font chooser', 'frame', 'glass pane', 'html container', 'icon', 'image',
  'internal frame', 'label', 'layered pane', 'list', 'list item', 'menu', 'menu bar', 'menu item',
  'option pane', 'page tab', 'page tab list', 'panel', 'password text', 'popup menu', 'progress bar',
  'push button', 'radio button', 'radio menu item', 'root pane', 'row header', 'scroll bar',
  'scroll pane', 'separator', 'slider', 'spin button', 'split pane', 'status bar', 'table',
  'table cell', 'table column header', 'table row header', 'tear off menu item', 'terminal', 'text',
  'toggle button', 'tool bar', 'tool tip', 'tree', 'tree table', 'unknown', 'viewport', 'window',
  'extended', 'header', 'footer', 'paragraph', 'ruler', 'application', 'autocomplete', 'edit bar',
  'embedded component', 'entry', 'chart', 'caption', 'document frame', 'heading', 'page', 'section',
  'redundant object', 'form', 'link', 'input method window', 'table row', 'tree item',
  'document spreadsheet', 'document presentation', 'document text', 'document web', 'document email',
  'comment', 'list box', 'grouping', 'image map', 'notification', 'info bar', 'level bar',
  'title bar', 'block quote', 'audio', 'video', 'definition', 'article', 'landmark', 'log', 'marquee',
  'math', 'rating', 'timer', 'static', 'math fraction', 'math root', 'subscript', 'superscript',
  'description list', 'description term', 'description value', 'footnote', 'content deletion',
  'content insertion', 'mark', 'suggestion', 'push button menu',
] as const;

export const ROLE_APPLICATION = 75;

export const toolkitRoleName = (role: number): string => TOOLKIT_ROLES[role] ?? `role ${role}`;

/**
 * retrace's role names for toolkit roles: the words a spec uses (`click button "OK"`). Entries
 * and text areas are told apart by the multi-line state (see retraceRole).
 */
// biome-ignore format: a table, related roles on one line
export const ROLES: Readonly<Record<string, ElementRole>> = {
  'push button': 'button', 'toggle button': 'button', 'push button menu': 'button',
  'check box': 'checkbox', 'radio button': 'radio',
  text: 'entry', entry: 'entry', 'password text': 'entry', 'spin button': 'spinbutton',
  label: 'label', static: 'label', caption: 'label', 'accelerator label': 'label',
  heading: 'heading', paragraph: 'paragraph', link: 'link', image: 'image', icon: 'image',
  'combo box': 'combobox', list: 'list', 'list box': 'list', 'list item': 'item',
  tree: 'tree', 'tree table': 'table', table: 'table', 'tree item': 'item', 'table cell': 'cell',
  'table row': 'row', 'column header': 'columnheader', 'table column header': 'columnheader',
  menu: 'menu', 'popup menu': 'menu', 'menu bar': 'menubar', 'menu item': 'menuitem',
  'check menu item': 'menuitem', 'radio menu item': 'menuitem', 'tear off menu item': 'menuitem',
  'page tab': 'tab', 'page tab list': 'tablist', slider: 'slider', 'scroll bar': 'scrollbar',
  'progress bar': 'progressbar', 'level bar': 'progressbar', 'tool bar': 'toolbar',
  'status bar': 'statusbar', separator: 'separator', 'tool tip': 'tooltip', terminal: 'terminal',
  frame: 'window', window: 'window', dialog: 'dialog', alert: 'dialog', 'file chooser': 'dialog',
  'color chooser': 'dialog', 'font chooser': 'dialog',
  'document web': 'document', 'document frame': 'document', 'document text': 'document',
  'document email': 'document', 'document spreadsheet': 'document', 'document presentation': 'document',
  panel: 'group', filler: 'group', section: 'group', grouping: 'group', form: 'group',
  landmark: 'group', 'scroll pane': 'group', viewport: 'group', 'layered pane': 'group',
  'split pane': 'group', 'root pane': 'group', 'glass pane': 'group', 'internal frame': 'group',
  'option pane': 'group', 'html container': 'group', 'redundant object': 'group', article: 'group',
  'block quote': 'group', 'info bar': 'group', notification: 'group', 'embedded component': 'group',
};

/**
 * Every role name a target or expectation may use: retrace's, and the toolkit's own, as at-spi2
 * spells it ("push button") or as retrace names a role it has no word for ("push-button").
 */
export const ROLE_NAMES: ReadonlySet<string> = new Set([
  ...Object.values(ROLES),
  'textarea',
  ...TOOLKIT_ROLES,
  ...TOOLKIT_ROLES.map((r) => r.replace(/\s+/g, '-')),
]);

/** Roles a query for one retrace role also accepts (a GTK switch is a toggle button). */
export const ALSO_MATCHES: Readonly<Record<string, readonly string[]>> = {
  checkbox: ['toggle button', 'check menu item'],
  radio: ['radio menu item'],
  textarea: ['entry'],
  entry: ['textarea'],
};

/** AtspiStateType bits, in the two 32-bit words of a state set. */
export const STATE = {
  checked: 4,
  editable: 7,
  expanded: 10,
  focused: 12,
  multiLine: 17,
  pressed: 20,
  selected: 23,
  sensitive: 24,
  showing: 25,
  visible: 30,
} as const;

export const hasState = (states: readonly number[], bit: number): boolean => (((states[bit >> 5] ?? 0) >>> (bit & 31)) & 1) === 1;

/** retrace's role: a multi-line text is a text area, a single-line one an entry. */
export const retraceRole = (toolkitRole: string, states: readonly number[]): string => {
  const role = ROLES[toolkitRole] ?? toolkitRole.replace(/\s+/g, '-');
  return role === 'entry' && hasState(states, STATE.multiLine) ? 'textarea' : role;
};

/** AtspiRelationType LABEL_FOR and LABELLED_BY. */
export const RELATION_LABEL_FOR = 1;
export const RELATION_LABELLED_BY = 2;

/** Roles whose text is read (Text interface), beside every editable element. */
export const TEXT_ROLES: ReadonlySet<string> = new Set(['text', 'entry', 'password text', 'terminal', 'spin button']);

/** Roles whose value is read (Value interface). */
export const VALUE_ROLES: ReadonlySet<string> = new Set(['slider', 'spin button', 'progress bar', 'scroll bar', 'level bar', 'dial']);

/** Roles whose label relation is read when they have no name of their own. */
export const LABELLED_ROLES: ReadonlySet<string> = new Set([
  'entry',
  'textarea',
  'spinbutton',
  'combobox',
  'slider',
  'list',
  'checkbox',
  'radio',
  'table',
  'tree',
]);

/**
 * Fields a form names by a label beside them: a check box or radio button carries its own
 * text, and an unnamed one (an icon toggle) is not named by whatever text is near.
 */
export const FIELD_ROLES: ReadonlySet<string> = new Set(['entry', 'textarea', 'spinbutton', 'combobox', 'slider', 'list']);
