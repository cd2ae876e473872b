/**
 * The spec format (PRODUCT.md, "The spec format"): every key, its type, allowed values,
 * default and documentation. The validator, `specs/spec.schema.json` and the markdown
 * reference are all derived from `specShape`; change the format here and nowhere else.
 */
import { specOptionsShape, sizeShape } from './options-format.ts';
import { MAX_MS } from './defaults.ts';
import { regexProblem, textRegex } from './patterns.ts';
import { bool, int, list, num, obj, oneOf, str, type Field, type Pattern, type Shape } from './shape.ts';
import { keyComboProblem } from './string-problems.ts';

/** Goal ids and screenshot names become file names, so they are restricted to portable characters. */
export const FILE_NAME_PATTERN: Pattern = {
  source: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
  explain: 'letters, digits, _ . - starting with a letter or digit (it names a file)',
};

export const ENV_NAME_PATTERN: Pattern = {
  source: '^[A-Za-z_][A-Za-z0-9_]*$',
  explain: 'letters, digits and _, not starting with a digit',
};

export const KEY_COMBO_PATTERN: Pattern = {
  source: '^(\\+|[^\\s+]+(\\+[^\\s+]+)*)$',
  explain: 'key names joined with +, such as ctrl+s or Enter',
};

/** The most wheel notches one scroll step may give. */
export const MAX_SCROLL_AMOUNT = 1000;

export const TEXT_MATCHES = ['contains', 'substring', 'exact', 'regex', 'fuzzy'] as const;
export const RESTART_MODES = ['goal', 'spec'] as const;
export const ANIMATION_MODES = ['off', 'allow'] as const;
export const ACCESSIBILITY_MODES = ['on', 'off'] as const;
export const SCROLL_DIRECTIONS = ['up', 'down', 'left', 'right'] as const;
/** Notches scrolled when a step or a rules clause gives no amount. */
export const DEFAULT_SCROLL_AMOUNT = 3;

const EXIT_LABEL = 'an exit code from 0 to 255, or any';

const text = (minLength = 1): Shape => str({ minLength, placeholders: 'all' });

/** X coordinates and sizes are 16-bit: a point or region past this is on no screen. */
export const MAX_COORDINATE = 32767;

export const regionShape: Shape = {
  type: 'tuple',
  ref: 'region',
  doc: 'A window-relative rectangle [x, y, width, height] in pixels.',
  label: `[x, y, width, height]: integers up to ${MAX_COORDINATE}, x and y ≥ 0, width and height > 0`,
  items: [
    { name: 'x', shape: { type: 'integer', minimum: 0, maximum: MAX_COORDINATE } },
    { name: 'y', shape: { type: 'integer', minimum: 0, maximum: MAX_COORDINATE } },
    { name: 'width', shape: { type: 'integer', minimum: 1, maximum: MAX_COORDINATE } },
    { name: 'height', shape: { type: 'integer', minimum: 1, maximum: MAX_COORDINATE } },
  ],
};

const coordinate = (doc: string): Field => ({ doc, shape: int({ minimum: 0, maximum: MAX_COORDINATE }), required: true });

/** An element's name or text in a spec: exact, or `/regex/flags`. */
const pattern = (): Shape => str({ minLength: 1, placeholders: 'all', format: 'title' });

/** More equal elements than this in one window is no place to pick one by its number. */
const MAX_NTH = 999;

/** The keys that find an element the app publishes (AT-SPI): shared by targets and `element:` expectations. */
const elementFields = {
  role: {
    doc: "The element's role: button, entry, textarea, checkbox, radio, combobox, list, item, label, link, menuitem, tab, … (or the toolkit's own role name)",
    shape: str({ minLength: 1 }),
    required: true,
  },
  name: {
    doc: 'Its accessible name (for a field without one, its label): exact, or /regex/flags',
    shape: pattern(),
  },
  nth: { doc: 'Which of several equal matches, from 0, in the order the app lists them', shape: int({ minimum: 0, maximum: MAX_NTH }) },
} satisfies Record<string, Field>;

export const targetShape: Shape = {
  type: 'union',
  ref: 'target',
  doc:
    'What an action points at: a text found on screen by OCR ("New" or { text: New }), a window-relative point { x, y }, ' +
    'or an element the app publishes, by role and name ({ role: button, name: OK }).',
  label: 'a text, { text }, { x, y } or { role, name, nth }',
  variants: [
    text(),
    obj({ text: { doc: 'Text on screen, found by OCR', shape: text(), required: true } }),
    obj({
      x: coordinate('Pixels from the left edge of the window'),
      y: coordinate('Pixels from the top edge of the window'),
    }),
    obj(elementFields),
  ],
};

const target = (doc: string, required = false): Field => ({ doc, shape: targetShape, required });
const timeoutMs = (doc: string): Field => ({ doc, shape: int({ minimum: 1, maximum: MAX_MS }) });
const region = (doc: string): Field => ({ doc, shape: regionShape });

const clickDoc = (what: string): string => `${what} a target: "text", { text } (found by OCR) or { x, y } (window-relative)`;

/** A key combo the desktop could not press is invalid input here, before anything runs. */
export function keyComboProblems(combo: unknown): { key: string; detail: string }[] {
  const problem = typeof combo === 'string' ? keyComboProblem(combo) : undefined;
  return problem === undefined ? [] : [{ key: 'key', detail: `"${combo as string}" ${problem}` }];
}

/** Beside a click or a type: the action is expected to change nothing, so learning keeps it. */
const changesField = {
  changes: {
    doc: "nothing: the action is expected to change nothing on screen or in the app's elements; without it, learning refuses a type that changed nothing",
    shape: oneOf(['nothing'] as const),
  },
};

export const stepShape: Shape = {
  type: 'tagged',
  ref: 'step',
  noun: 'step',
  doc: 'One action of a hand-written path; a mapping with exactly one key, the kind of action.',
  variants: {
    click: { doc: clickDoc('Click'), value: targetShape, fields: changesField },
    'double-click': { doc: clickDoc('Double-click'), value: targetShape, fields: changesField },
    'right-click': { doc: clickDoc('Right-click'), value: targetShape, fields: changesField },
    type: {
      doc: 'Type a text ("S"), or { text, into } to click a target first',
      value: {
        type: 'union',
        label: 'a text or { text, into }',
        variants: [
          text(),
          obj({
            text: { doc: 'The text to type', shape: text(), required: true },
            into: target('Click this target before typing'),
          }),
        ],
      },
      fields: changesField,
    },
    key: {
      doc: 'Press a key combination, such as ctrl+s or Enter',
      value: str({ pattern: KEY_COMBO_PATTERN }),
      fields: {},
      refine: (item) => keyComboProblems(item['key']),
    },
    check: {
      doc: 'Check a checkbox (or toggle) unless it is checked already: its name ("Dark mode"), or a target',
      value: targetShape,
      fields: {},
    },
    uncheck: {
      doc: 'Uncheck a checkbox (or toggle) unless it is unchecked already: its name, or a target',
      value: targetShape,
      fields: {},
    },
    select: {
      doc: 'Pick an option in a list or combo box, opening it when needed: { option, in }',
      value: obj({
        option: { doc: "The option's name", shape: text(), required: true },
        in: target('The list or combo box, e.g. { role: combobox, name: City }', true),
      }),
      fields: {},
    },
    wait: { doc: 'Wait a fixed time (milliseconds, at most an hour)', value: int({ minimum: 0, maximum: MAX_MS }), fields: {} },
    'wait-for': {
      doc: 'Wait until a text is shown: "T" or { text, timeoutMs }',
      value: {
        type: 'union',
        label: 'a text or { text, timeoutMs }',
        variants: [
          text(),
          obj({
            text: { doc: 'Text to wait for (OCR)', shape: text(), required: true },
            timeoutMs: timeoutMs('Longest wait in milliseconds (default: timeouts.actionMs)'),
          }),
        ],
      },
      fields: {},
    },
    scroll: {
      doc: 'Scroll the wheel: { direction, amount, in }',
      value: obj({
        direction: { doc: 'Which way to scroll', shape: oneOf(SCROLL_DIRECTIONS), required: true },
        amount: { doc: 'Wheel notches', shape: int({ minimum: 1, maximum: MAX_SCROLL_AMOUNT }), default: DEFAULT_SCROLL_AMOUNT },
        in: target('Move the pointer over this target first'),
      }),
      fields: {},
    },
    drag: {
      doc: 'Drag from one target to another: { from, to }',
      value: obj({
        from: target('Where the drag starts', true),
        to: target('Where the drag ends', true),
      }),
      fields: {},
    },
  },
};

export const expectationShape: Shape = {
  type: 'tagged',
  ref: 'expectation',
  noun: 'expectation',
  doc: "What must hold once the goal is reached: a mapping with one key naming the kind (text, absent, screenshot, window, element, exited) and that kind's options.",
  variants: {
    text: {
      doc: 'This text is shown (OCR)',
      value: text(),
      fields: {
        match: {
          doc: 'How the text is compared: contains (as whole words and numbers: "42" is not in "420"), substring (anywhere, inside a word or number too), exact, regex (the text is a regular expression) or fuzzy (OCR-tolerant)',
          shape: oneOf(TEXT_MATCHES),
          default: 'contains',
        },
        region: region('Only read this part of the window'),
        timeoutMs: timeoutMs('How long to poll for the text (default: timeouts.expectMs)'),
      },
      refine: (item, resolve) => {
        if (item['match'] !== 'regex' || typeof item['text'] !== 'string') return [];
        const why = regexProblem(() => textRegex(resolve(item['text'] as string)));
        return why ? [{ key: 'text', detail: `is not a valid regular expression (match: regex): ${why}` }] : [];
      },
    },
    absent: {
      doc: 'This text must not be shown (OCR)',
      value: text(),
      fields: {
        region: region('Only read this part of the window'),
        timeoutMs: timeoutMs('How long to wait for the text to go (default: timeouts.expectMs)'),
      },
    },
    screenshot: {
      doc: 'The window (or a region) matches the baseline image of this name',
      value: str({ pattern: FILE_NAME_PATTERN }),
      fields: {
        region: region('Compare only this part of the window'),
        mask: {
          doc: 'Regions left out of the comparison',
          shape: list(regionShape),
          default: [],
        },
        threshold: {
          doc: 'Per-pixel color tolerance of pixelmatch, 0 (exact) to 1 (default 0.05)',
          shape: num({ minimum: 0, maximum: 1 }),
        },
        maxDiffPixels: {
          doc: 'How many pixels may differ',
          shape: int({ minimum: 0 }),
        },
        maxDiffPixelRatio: {
          doc: 'Which fraction of the pixels may differ, 0 to 1',
          shape: num({ minimum: 0, maximum: 1 }),
        },
      },
    },
    window: {
      doc: 'The focused window has this title: a substring, or /regex/ with optional flags',
      value: str({ minLength: 1, placeholders: 'all', format: 'title' }),
      fields: {},
    },
    element: {
      doc: 'An element the app publishes (AT-SPI) is shown, with these properties, read from the toolkit (no OCR)',
      value: obj({
        ...elementFields,
        text: { doc: "Its text (an entry's content; else its name): exact, or /regex/flags", shape: pattern() },
        value: { doc: 'Its value (a slider, a spin button, a progress bar)', shape: num() },
        checked: { doc: 'Checked (a checkbox, radio or toggle) or not', shape: bool() },
        sensitive: { doc: 'Takes input (true) or is greyed out (false)', shape: bool() },
        focused: { doc: 'Holds the keyboard focus or not', shape: bool() },
        selected: { doc: 'Selected (a tab, a list item or row) or not', shape: bool() },
      }),
      fields: {
        timeoutMs: timeoutMs('How long to poll for the element (default: timeouts.expectMs)'),
      },
    },
    exited: {
      doc: 'The application has exited with this exit code (0 to 255), or with any code (any): a goal that ends by closing the app',
      value: {
        type: 'union',
        label: EXIT_LABEL,
        variants: [
          { ...int({ minimum: 0, maximum: 255 }), label: EXIT_LABEL },
          { ...oneOf(['any']), label: EXIT_LABEL },
        ],
      },
      fields: {
        timeoutMs: timeoutMs('How long to wait for the app to exit (default: timeouts.expectMs)'),
      },
    },
  },
};

export const appShape: Shape = obj(
  {
    launch: {
      doc: 'Command line that starts the application, run through a shell',
      shape: text(),
      required: true,
    },
    window: {
      doc: "Title of the application's window to wait for: a substring, or /regex/ with optional flags",
      shape: str({ minLength: 1, placeholders: 'all', format: 'title' }),
      required: true,
    },
    size: {
      doc: 'Window geometry [width, height], for reproducible screens',
      shape: sizeShape('[width, height] in pixels'),
    },
    restart: {
      doc: 'goal: a fresh application for every goal; spec: one application, goals chain',
      shape: oneOf(RESTART_MODES),
      default: 'goal',
    },
    env: {
      doc: 'Environment variables of the application (string values)',
      shape: { type: 'record', keyPattern: ENV_NAME_PATTERN, values: text(0) },
      default: {},
    },
    cwd: {
      doc: "Working directory of the application, relative to the spec file's directory; only ${env.X} is allowed, resolved when the spec is loaded",
      shape: str({ minLength: 1, placeholders: 'env' }),
    },
    setup: { doc: 'Shell command run before the application starts', shape: text() },
    teardown: { doc: 'Shell command run after the application is closed', shape: text() },
    windowTimeoutMs: {
      doc: 'How long to wait for the window (milliseconds); same as options.timeouts.windowMs',
      shape: int({ minimum: 1, maximum: MAX_MS }),
    },
    animations: {
      doc: 'off: GTK animations and caret blinking off, reduced motion for Chromium; allow: as the toolkit likes',
      shape: oneOf(ANIMATION_MODES),
      default: 'off',
    },
    accessibility: {
      doc: 'on: the application publishes its widgets (GTK, Qt, Chromium; Java through the ATK wrapper when it is installed); off: no accessibility bridge is switched on for it',
      shape: oneOf(ACCESSIBILITY_MODES),
      default: 'on',
    },
    isolate: {
      doc: 'Run the application with a private HOME and XDG directories (seed them in setup:); false: the real ones',
      shape: bool(),
      default: true,
    },
  },
  { ref: 'app', doc: 'The application under test.' },
);

export const goalShape: Shape = obj(
  {
    id: {
      doc: 'Unique in the file; names the path file',
      shape: str({ pattern: FILE_NAME_PATTERN }),
      required: true,
    },
    goal: {
      doc: 'What to achieve, in plain language (a planner learns it), or a description when steps: are given',
      shape: text(),
    },
    steps: { doc: 'A hand-written path', shape: list(stepShape, { minItems: 1 }) },
    expect: {
      doc: 'What must hold at the end; a goal without expectations gets a warning when learned',
      shape: list(expectationShape),
      default: [],
    },
  },
  {
    ref: 'goal',
    doc: 'One goal: goal: text for a planner, or steps: (goal: is then its description), or only expect: (a path recorded with retrace record).',
    anyOf: ['goal', 'steps', 'expect'],
  },
);

export const specShape: Shape = obj({
  name: {
    doc: 'Suite name',
    shape: str({ minLength: 1 }),
    defaultText: 'the file name without .yaml',
  },
  app: { doc: 'The application under test', shape: appShape, required: true },
  goals: {
    doc: 'The goals, run in order',
    shape: list(goalShape, { minItems: 1, uniqueKey: 'id' }),
    required: true,
  },
  options: {
    doc: 'Overrides of run options for this spec (CLI > spec > config file > defaults)',
    shape: specOptionsShape,
  },
});
