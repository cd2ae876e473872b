/**
 * Which computer-use tool a Claude model speaks, and how it is declared.
 *
 * Anthropic ships the computer-use tool in dated versions. A model accepts the versions it was
 * trained with and answers 400 to the others, so the tool follows the model:
 *
 * | model family                                                     | tool                         | beta header               |
 * |------------------------------------------------------------------|------------------------------|---------------------------|
 * | Opus/Sonnet/Haiku 5.5, Fable/Mythos 5.2 (toolset only)            | `computer_toolset_20260801`  | none (GA)                 |
 * | Opus 5, Sonnet 5, Fable/Mythos 5 and 5.1, Opus 4.8                | `computer_toolset_20260801`  | none (GA)                 |
 * | Opus 4.7, Opus 4.6, Sonnet 4.6, Opus 4.5                           | `computer_20251124`          | `computer-use-2025-11-24` |
 * | Sonnet 4.5, Haiku 4.5, Opus 4.1, Opus 4, Sonnet 4, Sonnet 3.7      | `computer_20250124`          | `computer-use-2025-01-24` |
 * | Sonnet 3.5 (new)                                                  | `computer_20241022`          | `computer-use-2024-10-22` |
 *
 * Sources: platform.claude.com "Computer use tool" (toolset page and its "Earlier tool versions"),
 * and the types of @anthropic-ai/sdk 1.12.0. A model family this table does not know gets the
 * newest version, with a note saying so; `RETRACE_COMPUTER_TOOL` overrides the choice.
 *
 * Two wire shapes exist. The dated versions (`computer_2024…`/`computer_2025…`) declare one tool
 * named `computer` with the display size, and the model sends `{ action, …params }`. The toolset
 * (`computer_toolset_20260801`) declares a family of member tools: each call is a `tool_use`
 * named after the action (`left_click`, `type`, …) carrying `toolset_name: "computer"`, its
 * coordinates are in screenshot pixels, and every `tool_result` answering it repeats the
 * `toolset_name`.
 */
import { InvalidInputError } from '../../errors.ts';
import { DEFAULT_OPTIONS } from '../../spec-file/defaults.ts';
import { computerToolSwitch, modelSwitch } from '../../switches.ts';

/** The model a run uses unless told otherwise: the one default, kept with the other run options. */
export const DEFAULT_MODEL = DEFAULT_OPTIONS.model;

export type ComputerToolType = 'computer_toolset_20260801' | 'computer_20251124' | 'computer_20250124' | 'computer_20241022';

export interface ComputerToolVersion {
  readonly type: ComputerToolType;
  /** `single`: one `computer` tool with an `action` field; `toolset`: one tool_use per member. */
  readonly shape: 'single' | 'toolset';
  /** The `anthropic-beta` flag the version needs, if any. */
  readonly beta?: string;
}

/** Every version retrace can speak, newest first. */
export const COMPUTER_TOOL_VERSIONS: readonly ComputerToolVersion[] = Object.freeze([
  { type: 'computer_toolset_20260801', shape: 'toolset' },
  { type: 'computer_20251124', shape: 'single', beta: 'computer-use-2025-11-24' },
  { type: 'computer_20250124', shape: 'single', beta: 'computer-use-2025-01-24' },
  { type: 'computer_20241022', shape: 'single', beta: 'computer-use-2024-10-22' },
]);

const NEWEST: ComputerToolVersion = COMPUTER_TOOL_VERSIONS[0]!;

const versionOf = (type: ComputerToolType): ComputerToolVersion => COMPUTER_TOOL_VERSIONS.find((v) => v.type === type)!;

/** Model families (ids without their date suffix) and the tool version each one speaks. */
export const MODEL_COMPUTER_TOOLS: Readonly<Record<string, ComputerToolType>> = Object.freeze({
  'claude-opus-5-5': 'computer_toolset_20260801',
  'claude-sonnet-5-5': 'computer_toolset_20260801',
  'claude-haiku-5-5': 'computer_toolset_20260801',
  'claude-fable-5-2': 'computer_toolset_20260801',
  'claude-mythos-5-2': 'computer_toolset_20260801',
  'claude-fable-5-1': 'computer_toolset_20260801',
  'claude-mythos-5-1': 'computer_toolset_20260801',
  'claude-fable-5': 'computer_toolset_20260801',
  'claude-mythos-5': 'computer_toolset_20260801',
  'claude-opus-5': 'computer_toolset_20260801',
  'claude-sonnet-5': 'computer_toolset_20260801',
  'claude-opus-4-8': 'computer_toolset_20260801',
  'claude-opus-4-7': 'computer_20251124',
  'claude-opus-4-6': 'computer_20251124',
  'claude-sonnet-4-6': 'computer_20251124',
  'claude-opus-4-5': 'computer_20251124',
  'claude-sonnet-4-5': 'computer_20250124',
  'claude-haiku-4-5': 'computer_20250124',
  'claude-opus-4-1': 'computer_20250124',
  'claude-opus-4': 'computer_20250124',
  'claude-opus-4-0': 'computer_20250124',
  'claude-sonnet-4': 'computer_20250124',
  'claude-sonnet-4-0': 'computer_20250124',
  'claude-3-7-sonnet': 'computer_20250124',
  'claude-3-5-sonnet': 'computer_20241022',
});

export interface ResolvedComputerTool extends ComputerToolVersion {
  /** The model family the version was chosen for, when the table knew it. */
  readonly family?: string;
  /** Why the version was chosen, when it was not straight from the table. */
  readonly note?: string;
}

/**
 * The model family of an id: `claude-opus-4-5-20251101` → `claude-opus-4-5`. Accepts the
 * date suffixes of the Claude API (`-YYYYMMDD`), Vertex (`@YYYYMMDD`) and Bedrock
 * (`anthropic.…-v1:0`), and the `-latest` alias. Undefined for an id the table does not know.
 */
export function modelFamily(model: string): string | undefined {
  const id = model
    .trim()
    .toLowerCase()
    .replace(/^.*?(?=claude-)/, '');
  const stem = id.replace(/(?:[-@]\d{8})?(?:-v\d+(?::\d+)?)?(?:-latest)?$/, '');
  return Object.hasOwn(MODEL_COMPUTER_TOOLS, stem) ? stem : undefined;
}

/**
 * The model to use: the caller's (CLI, spec or config file), else `RETRACE_MODEL`, else
 * {@link DEFAULT_MODEL}.
 */
export function resolveModel(model?: string, env: string | undefined = modelSwitch()): string {
  const chosen = model?.trim() || env?.trim();
  return chosen || DEFAULT_MODEL;
}

/**
 * The computer-use tool version for `model`.
 * @param override a tool type (e.g. `computer_20250124`); @default RETRACE_COMPUTER_TOOL
 * @throws InvalidInputError when the override names no known version
 */
export function resolveComputerTool(model: string, override: string | undefined = computerToolSwitch()): ResolvedComputerTool {
  const family = modelFamily(model);
  const forced = override?.trim();
  if (forced) {
    const version = COMPUTER_TOOL_VERSIONS.find((v) => v.type === forced);
    if (!version) {
      throw new InvalidInputError(
        undefined,
        `RETRACE_COMPUTER_TOOL=${forced} is not a computer-use tool version. ` +
          `Use one of: ${COMPUTER_TOOL_VERSIONS.map((v) => v.type).join(', ')}`,
      );
    }
    return { ...version, ...(family ? { family } : {}), note: `set by RETRACE_COMPUTER_TOOL` };
  }
  if (family) return { ...versionOf(MODEL_COMPUTER_TOOLS[family]!), family };
  return {
    ...NEWEST,
    note:
      `model ${model} is not in retrace's table of computer-use tool versions; using the newest, ` +
      `${NEWEST.type}. If the API rejects it, set RETRACE_COMPUTER_TOOL to the version the model supports.`,
  };
}

/**
 * Toolset members retrace does not perform (no matching Action), switched off in the
 * declaration so the model is not offered them.
 */
export const DISABLED_TOOLSET_MEMBERS = Object.freeze([
  'cursor_position',
  'hold_key',
  'left_mouse_down',
  'left_mouse_up',
  'middle_click',
  'triple_click',
  'zoom',
] as const);

/** The `tools[]` entry for a version, for a screenshot of `width` × `height` pixels. */
export function computerToolDeclaration(
  version: ComputerToolVersion,
  display: { readonly width: number; readonly height: number },
): Record<string, unknown> {
  if (version.shape === 'toolset') {
    const configs = Object.fromEntries(DISABLED_TOOLSET_MEMBERS.map((m) => [m, { enabled: false }]));
    return { type: version.type, configs };
  }
  return {
    type: version.type,
    name: 'computer',
    display_width_px: display.width,
    display_height_px: display.height,
  };
}
