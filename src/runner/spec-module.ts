/**
 * Which modules of a vitest run are retrace specs: YAML files (the plugin turns each into a
 * suite). Kept apart from everything heavy, since every worker's setup asks it before each file.
 */
export const isSpecFile = (id: string): boolean => /\.ya?ml$/i.test(id.split('?')[0] ?? '') && !id.includes('/node_modules/');
