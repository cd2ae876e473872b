/**
 * The environment switches retrace reads, each here and nowhere else (docs/architecture.md
 * lists them). Read when used, from `process.env` unless the caller passes another environment.
 */
type Env = Readonly<Record<string, string | undefined>>;

const isOff = (value: string | undefined): boolean => /^(0|off|false|no)$/i.test(value?.trim() ?? '');

const given = (value: string | undefined): string | undefined => value?.trim() || undefined;

/** RETRACE_DRAWING=off (or 0, false, no): the X server's drawing reports are not used; every wait polls. */
export const drawingReportsWanted = (env: Env = process.env): boolean => !isOff(env.RETRACE_DRAWING);

/** RETRACE_ACCESSIBILITY=off (or 0, false, no): retrace's displays run no accessibility bus. */
export const accessibilityWanted = (env: Env = process.env): boolean => !isOff(env.RETRACE_ACCESSIBILITY);

/** RETRACE_MODEL: the Claude model, as if given by `--model`; undefined when unset or blank. */
export const modelSwitch = (env: Env = process.env): string | undefined => given(env.RETRACE_MODEL);

/** RETRACE_COMPUTER_TOOL: a computer-use tool version that overrides the model's own. */
export const computerToolSwitch = (env: Env = process.env): string | undefined => given(env.RETRACE_COMPUTER_TOOL);
