/**
 * The format of run options, shared by `retrace.config.yaml` (every key) and a spec's
 * `options:` mapping (the keys that make sense for one spec). Defaults come from
 * `DEFAULT_OPTIONS`; both objects are `partial`: the validator does not fill defaults in,
 * `resolveOptions` merges the layers once.
 */
import { BASELINE_UPDATES, DEFAULT_OPTIONS as D, MAX_MS, LEARN_MODES, PLANNERS, TRACE_MODES, UNEXPECTED_CHANGES } from './defaults.ts';
import { bool, int, list, obj, oneOf, str, type Field, type Shape } from './shape.ts';

const ms = (doc: string, value: number): Field => ({
  doc: `${doc} (milliseconds)`,
  shape: int({ minimum: 1, maximum: MAX_MS }),
  default: value,
});

export const timeoutsShape: Shape = obj(
  {
    goalMs: ms('Wall clock for one goal: its actions plus its expectations', D.timeouts.goalMs),
    actionMs: ms('One action: wait for a stable screen, resolve the target, act, settle, verify', D.timeouts.actionMs),
    settleMs: ms('Longest wait for the screen to settle after an action', D.timeouts.settleMs),
    windowMs: ms(
      "How long to wait for the application's window after launch (a spec's app.windowTimeoutMs also sets it)",
      D.timeouts.windowMs,
    ),
    expectMs: ms('How long an expectation polls before it fails, unless it sets its own timeoutMs', D.timeouts.expectMs),
  },
  { ref: 'timeouts', doc: 'Time limits in milliseconds.', partial: true },
);

export const boundsShape: Shape = obj(
  {
    maxSteps: { doc: 'Most actions a learning loop may take for one goal', shape: int({ minimum: 1 }), default: D.bounds.maxSteps },
    maxModelCalls: {
      doc: 'Most model calls for one goal (learning and healing)',
      shape: int({ minimum: 0 }),
      default: D.bounds.maxModelCalls,
    },
    maxTokens: {
      doc: 'Most tokens (input plus output) for one goal',
      shape: int({ minimum: 0 }),
      default: D.bounds.maxTokens,
    },
    maxWallMs: ms('Wall clock limit of one learning loop', D.bounds.maxWallMs),
  },
  { ref: 'bounds', doc: "Bounds of one goal's learning loop; each stop has a reason.", partial: true },
);

/** Keys that a spec's `options:` may override, as well as the config file. */
const perSpecFields: Readonly<Record<string, Field>> = {
  learn: {
    doc: 'auto: learn goals that have no path or a stale one; off: such a goal fails (strict CI); force: relearn every goal',
    shape: oneOf(LEARN_MODES),
    default: D.learn,
  },
  planner: {
    doc: 'auto: Claude when ANTHROPIC_API_KEY is set, else the offline rules planner',
    shape: oneOf(PLANNERS),
    default: D.planner,
  },
  model: {
    doc: 'Claude model id for planning and healing (the RETRACE_MODEL variable overrides it like a CLI flag)',
    shape: str({ minLength: 1 }),
    default: D.model,
  },
  relearn: { doc: 'When a replay fails for good, learn the goal again', shape: bool(), default: D.relearn },
  healWithModel: {
    doc: 'Let replay ask the model to find a lost target (the goal is then "healed")',
    shape: bool(),
    default: D.healWithModel,
  },
  strict: {
    doc: 'A replayed action whose effect appeared only when it was done again (the app ignored it the first time) fails the goal',
    shape: bool(),
    default: D.strict,
  },
  unexpectedChanges: {
    doc: "fail: a change an action caused that its path did not record (an error message, a dialog, another screen), at once or later (up to the app's elements read once more after the expectations), fails the goal; warn: it is reported and the goal may pass",
    shape: oneOf(UNEXPECTED_CHANGES),
    default: D.unexpectedChanges,
  },
  trace: {
    doc: "When a goal keeps its trace under <reports>/traces/ (every action's window before and after, rungs, effects, expectations; open it with retrace trace show): off, on, or retain-on-failure",
    shape: oneOf(TRACE_MODES),
    default: D.trace,
  },
  timeouts: { doc: 'Time limits in milliseconds', shape: timeoutsShape },
  bounds: { doc: "Bounds of one goal's learning loop", shape: boundsShape },
};

export const specOptionsShape: Shape = obj(perSpecFields, {
  ref: 'options',
  doc: 'Overrides of run options for this spec. Precedence: CLI > spec > config file > defaults.',
  partial: true,
});

const size = (doc: string): Shape => ({
  type: 'tuple',
  items: [
    { name: 'width', shape: { type: 'integer', minimum: 1 } },
    { name: 'height', shape: { type: 'integer', minimum: 1 } },
  ],
  doc,
  label: '[width, height]: positive integers',
});

const dir = { type: 'string', minLength: 1 } as const satisfies Shape;

export const configShape: Shape = obj(
  {
    ...perSpecFields,
    updateBaselines: {
      doc: 'Which screenshot baselines a run may write: missing, changed, all or none. A baseline written by a run is reported as new, never as a pass',
      shape: oneOf(BASELINE_UPDATES),
      default: D.updateBaselines,
      defaultText: `${D.updateBaselines} (none when CI is set)`,
    },
    workers: {
      doc: 'Parallel workers, each on its own virtual display',
      shape: int({ minimum: 1 }),
      default: D.workers,
    },
    paths: { doc: 'Directory of path files, relative to the project root', shape: dir, default: D.paths },
    reports: { doc: 'Directory of reports, relative to the project root', shape: dir, default: D.reports },
    display: {
      doc: 'The virtual display retrace starts, and the fonts of the apps it launches on any display',
      shape: obj(
        {
          size: {
            doc: 'Screen size of the virtual display',
            shape: size('[width, height] in pixels'),
            default: D.display.size,
          },
          fonts: {
            doc:
              'The only fonts the apps retrace launches may use: font files or folders, relative to the project root. ' +
              'Rendering is fixed too (antialiased, slight hinting, no subpixel colours), so a screenshot baseline holds on any machine',
            shape: list(str({ minLength: 1 }), { minItems: 1 }),
            defaultText: 'DejaVu Sans, Sans Mono and Serif (upright and slanted, regular and bold), found under /usr/share/fonts',
          },
        },
        { partial: true },
      ),
    },
  },
  { doc: 'retrace.config.yaml: project-wide defaults. Precedence: CLI > spec > config file > defaults.', partial: true },
);

export { size as sizeShape };
