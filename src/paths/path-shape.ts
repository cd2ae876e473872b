/**
 * A path file in the shape language (spec-file/shape.ts), checked by spec-file/check-value.ts
 * like a run-history line and summary.json. Replay trusts what it reads, so every action's kind
 * and fields are described, image names are plain file names inside the goal's assets folder, and
 * every point and region lies inside the window the path was recorded in: the shape of the actions
 * is made for that window (`pathShape`), once `WINDOW_SHAPE` accepted it. Mappings are open, as
 * the walker before them was: a key added without a new version (`pointer`, `beforeLine`, an
 * element's `box`) does not make an older retrace refuse the file.
 */
import { bool, int, list, num, obj, oneOf, str, type Field, type Shape } from '../spec-file/shape.ts';

/**
 * 2: effects say what they mean (`kind`: feedback, text or look; `role` of a text's colours).
 * Version 1 files still load: an effect without a kind is verified as text when it has text, as
 * a look otherwise.
 * 3: element effects may say that an element appeared or went (`change`) and where it was
 * (`box`); a pixel effect on such an element is `element` (evidence, decided by the tree).
 * Version 2 files still load: their element effects are changes, their pixel effects conditions.
 */
export const PATH_FORMAT_VERSION = 3;

/** What an image of a path may be called: a file name in `<goal>.assets/`, nothing more. */
export const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*\.png$/;

/** The largest window X can make, and so the largest coordinate a path may hold. */
const MAX_WINDOW_SIDE = 32_767;
/** A fixed wait or a wait-for longer than an hour is not a recording. */
const MAX_PATH_WAIT_MS = 3_600_000;

type Fields = Readonly<Record<string, Field>>;
const need = (doc: string, shape: Shape): Field => ({ doc, shape, required: true });
const may = (doc: string, shape: Shape): Field => ({ doc, shape });
const record = (fields: Fields, extra: { label?: string; whole?: boolean } = {}): Shape => obj(fields, { open: true, ...extra });

const side = int({ minimum: 0, maximum: MAX_WINDOW_SIDE });
const waitMs = int({ minimum: 0, maximum: MAX_PATH_WAIT_MS });

export const WINDOW_SHAPE = record(
  {
    width: need('pixels', int({ minimum: 1, maximum: MAX_WINDOW_SIDE })),
    height: need('pixels', int({ minimum: 1, maximum: MAX_WINDOW_SIDE })),
  },
  { whole: true, label: `{ width, height } in pixels, from 1 to ${MAX_WINDOW_SIDE}` },
);

export interface RecordedWindow {
  readonly width: number;
  readonly height: number;
}

const asset = str({
  pattern: { source: ASSET_NAME.source, explain: 'a PNG file name' },
  label: "the file name of a PNG image in the goal's .assets folder, without any folder part",
});

/** An element's box may reach past the window (a scrolled list); it only has to be one. */
const box = record(
  { x: need('pixels', int()), y: need('pixels', int()), width: need('pixels', side), height: need('pixels', side) },
  { whole: true, label: 'a box { x, y, width, height } in whole pixels' },
);

/** Where an element sits: its role and index at each level from its window down. */
const elementPath: Shape = {
  ...list(record({ role: need('its role', str()), index: need('among its siblings', int({ minimum: 0, maximum: 100_000 })) })),
  label: 'a list of { role, index }',
};

const elementEffect = record({
  role: need('its role', str()),
  name: need('its accessible name', str()),
  path: need('where it sits', elementPath),
  after: need('what changed', record({}, { label: 'the properties it changed' })),
  change: may('appeared or gone; absent: it changed', oneOf(['appeared', 'gone'])),
  box: may('its box, window-relative', box),
});

const exitStatus = record(
  { code: { ...need('exit code', int()), nullable: true }, signal: { ...need('signal name', str()), nullable: true } },
  { whole: true, label: '{ code, signal }: an exit code (or null) and a signal name (or null)' },
);

/** The shape of a path's recorded actions, for the window it was recorded in. */
function actionsShape({ width, height }: RecordedWindow): Shape {
  const inside = `inside the recorded ${width}×${height} window`;
  const point = record(
    { x: need('pixels', int({ minimum: 0, maximum: width - 1 })), y: need('pixels', int({ minimum: 0, maximum: height - 1 })) },
    { whole: true, label: `a point ${inside}` },
  );
  // A region must overlap the window: a region wholly outside it can hold nothing of the app.
  const region = record(
    {
      x: need('pixels', int({ minimum: 0, maximum: width - 1 })),
      y: need('pixels', int({ minimum: 0, maximum: height - 1 })),
      width: need('pixels', side),
      height: need('pixels', side),
    },
    { whole: true, label: `a region { x, y, width, height } starting ${inside}` },
  );
  const target: Shape = {
    type: 'union',
    variants: [
      record({ text: need('found by OCR', str()) }, { label: '{ text }' }),
      record(
        {
          role: need('element role', str()),
          name: may('accessible name', str()),
          nth: may('which one', int({ minimum: 0, maximum: 10_000 })),
        },
        { label: '{ role, name, nth }' },
      ),
      point,
    ],
  };
  const kind = (...kinds: string[]): Field => need('what the action does', oneOf(kinds));
  const changes = may('expected to change nothing', oneOf(['nothing']));
  const action: Shape = {
    type: 'union',
    key: 'kind',
    label: 'an action { kind, … }',
    variants: [
      record({ kind: kind('click', 'double-click', 'right-click'), target: need('where', target), changes }),
      record({ kind: kind('type'), text: need('what', str()), into: may('where', target), changes }),
      record({ kind: kind('key'), combo: need('the keys', str({ format: 'key-combo' })) }),
      record({
        kind: kind('scroll'),
        direction: need('which way', oneOf(['up', 'down', 'left', 'right'])),
        amount: need('notches', { ...int({ minimum: 1, maximum: 1000 }), label: 'a whole number of notches from 1 to 1000' }),
        target: may('where', target),
      }),
      record({ kind: kind('drag'), from: need('from', target), to: need('to', target) }),
      record({ kind: kind('check'), target: need('where', target), checked: need('the state wanted', bool()) }),
      record({ kind: kind('select'), option: need('the item', str()), target: need('the list', target) }),
      record({ kind: kind('wait'), ms: need('how long', waitMs) }),
      record({ kind: kind('wait-for'), text: need('what', str()), timeoutMs: may('how long', waitMs) }),
    ],
  };
  const effectFields = {
    region: need('where it changed', region),
    image: may('how it looked after', asset),
    text: may('what OCR read', str()),
    role: may("its colours' role", oneOf(['alert', 'success'])),
  };
  const effect: Shape = {
    type: 'union',
    key: 'kind',
    variants: [
      record({ kind: may('what it means', oneOf(['feedback', 'text', 'look', 'element'])), ...effectFields }),
      record({ kind: kind('exit'), ...effectFields, exit: need('how the app ended', exitStatus) }),
    ],
  };
  const fingerprint = { ...str(), label: 'a fingerprint (a string)' };
  const anchor = record({
    point: need('the point', point),
    box: need('the crop', region),
    image: need('the crop image', asset),
    text: may('OCR text under the point', str()),
    element: may(
      'the element under the point',
      record({ role: need('role', str()), name: need('name', str()), box: need('box', box), path: need('path', elementPath) }),
    ),
  });
  return list(
    record({
      action: need('what was done', action),
      anchor: may('what was under the pointer', anchor),
      before: need('the window before', fingerprint),
      after: need('the window after', fingerprint),
      effects: need('what changed', list(effect)),
      elements: may("what changed in the app's elements", list(elementEffect)),
      dynamic: need('what changed on its own', { ...list(region), label: 'a list of regions' }),
      settleMs: need('the settle time seen', num()),
      secret: may('it typed a secret', bool()),
      beforeLine: may('the first line before the action', record({ region: need('where', region), image: need('how', asset) })),
    }),
  );
}

/** A path file recorded in `window` (checked first, with WINDOW_SHAPE). */
export function pathShape(window: RecordedWindow): Shape {
  return record({
    version: need('the format version', int({ minimum: 1, maximum: PATH_FORMAT_VERSION })),
    spec: need('the spec file', str()),
    goal: need('the goal id', str()),
    planner: need('who made it', str()),
    model: may('the model that made it', str()),
    source: need(
      'the goal text or steps it was made from',
      record({ kind: may('goal or steps', oneOf(['goal', 'steps'])), hash: need('its hash', str()), text: need('its text', str()) }),
    ),
    window: need('the window size when recorded', WINDOW_SHAPE),
    pointer: may(
      'where the pointer rested before the first action',
      record(
        {
          x: need('pixels', int({ minimum: -MAX_WINDOW_SIDE, maximum: MAX_WINDOW_SIDE })),
          y: need('pixels', int({ minimum: -MAX_WINDOW_SIDE, maximum: MAX_WINDOW_SIDE })),
        },
        { whole: true, label: `{ x, y } in whole pixels relative to the window, within ±${MAX_WINDOW_SIDE}` },
      ),
    ),
    actions: need('what was done, in order', actionsShape(window)),
  });
}
