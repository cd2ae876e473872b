/** The spec layer's public API: load and validate specs and config, merge options, handle secrets. */
export { loadSpec, parseSpec, specId, displayName, type LoadSpecOptions } from './load.ts';
export { loadConfig, CONFIG_FILE_NAME, type ProjectConfig, type LoadConfigOptions } from './config.ts';
export {
  resolveOptions,
  checkCliOptions,
  isCi,
  type CliOptions,
  type ResolveOptionsInput,
} from './options.ts';
export {
  DEFAULT_OPTIONS,
  LEARN_MODES,
  PLANNERS,
  BASELINE_UPDATES,
  type ResolvedOptions,
  type Timeouts,
  type Bounds,
  type LearnMode,
  type PlannerChoice,
  type BaselineUpdate,
} from './defaults.ts';
export {
  interpolate,
  resolveTemplate,
  placeholders,
  containsSecret,
  describeForDisplay,
  parseTemplate,
  type Env,
  type Placeholder,
  type Namespace,
  type Resolution,
} from './interpolate.ts';
export { SecretMasker, secretMasker, MASK } from './secrets.ts';
export { parseTitlePattern, titleMatches, textRegex, type TitlePattern } from './patterns.ts';
export { specJsonSchema, configJsonSchema, renderSpecSchema, SPEC_SCHEMA_PATH } from './schema.ts';
export { specReferenceMarkdown } from './reference.ts';
export { DEFAULT_SCROLL_AMOUNT, TEXT_MATCHES, RESTART_MODES, SCROLL_DIRECTIONS } from './format.ts';
export type * from './types.ts';
