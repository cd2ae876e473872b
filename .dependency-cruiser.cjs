/**
 * The layers of docs/architecture.md, checked on every import of src/ (`npm run lint`).
 * What this cannot see (it reads imports, not code): reading or setting `process.env.DISPLAY`,
 * spawning an X tool by a name in a string, a socket path to /tmp/.X11-unix. Biome's plugin
 * lint/display-env.grit covers the first; the others stay review's job.
 */

// Lowest first. A folder may import its own layer and those below, never one above; the order is
// strict, so no two folders can import each other (no folder-level cycle).
const LAYERS = [
  { name: 'vocabulary', path: '^src/(domain|errors|key-combo|edit-distance|switches|safe-text)\\.ts$' },
  { name: 'spec-file', path: '^src/spec-file/' },
  { name: 'desktop', path: '^src/desktop/' },
  { name: 'vision', path: '^src/vision/' },
  { name: 'paths', path: '^src/paths/' },
  { name: 'brain', path: '^src/brain/' },
  { name: 'report', path: '^src/report/' },
  { name: 'runner', path: '^src/runner/' },
  { name: 'author', path: '^src/author/' },
  { name: 'cli', path: '^src/cli/' },
];

// Siblings: each may import the other's layers below, not each other.
const SIBLINGS = [
  ['desktop', 'vision'],
  ['brain', 'report'],
];

const layerRules = LAYERS.map((layer, i) => {
  const siblings = SIBLINGS.filter((pair) => pair.includes(layer.name)).flat().filter((n) => n !== layer.name);
  const below = LAYERS.slice(0, i + 1).filter((l) => !siblings.includes(l.name));
  return {
    name: `layer-${layer.name}`,
    comment: `${layer.name} imports only the layers below it (docs/architecture.md)`,
    severity: 'error',
    from: { path: layer.path },
    to: { path: '^src/', pathNot: below.map((l) => l.path) },
  };
});

/** A package that only one folder may import. */
const owned = (name, packages, owner, why) => ({
  name: `only-${name}`,
  comment: why,
  severity: 'error',
  from: { pathNot: owner },
  to: { dependencyTypes: ['npm', 'npm-dev', 'npm-peer', 'npm-optional'], path: `^node_modules/(${packages.join('|')})/` },
});

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'desktop-public-surface',
      comment: 'outside src/desktop only its factory (index.ts) and interfaces (types.ts) are visible: no X class is reached past the Desktop interface',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/desktop/' },
      to: { path: '^src/desktop/', pathNot: '^src/desktop/(index|types)\\.ts$' },
    },
    {
      name: 'cycle-strategies-apart',
      comment: 'learning and replay are two strategies of the action cycle: neither imports the cycle\'s body nor the other',
      severity: 'error',
      from: { path: '^src/brain/(learn-step|replay-(step|target|effects|news|hold))\\.ts$' },
      to: { path: '^src/brain/(cycle|learn-step)\\.ts$' },
    },
    {
      name: 'replay-strategy-apart',
      comment: 'learning (learn-step.ts) imports nothing of replay\'s strategy',
      severity: 'error',
      from: { path: '^src/brain/learn-step\\.ts$' },
      to: { path: '^src/brain/replay-(step|target|effects|news|hold)\\.ts$' },
    },
    {
      name: 'assert-below-the-goal',
      comment: 'the expectations use the brain\'s stage, settle, exit and element snapshots, never the learner, replayer, cycle or planners that call them',
      severity: 'error',
      from: { path: '^src/brain/assert/' },
      to: { path: '^src/brain/', pathNot: ['^src/brain/assert/', '^src/brain/(stage|settle|exit|elements|secret-screen|thresholds)\\.ts$'] },
    },
    {
      name: 'only-desktop-touches-the-os',
      comment:
        'processes and sockets are the desktop\'s (X, D-Bus, apps). Allowed elsewhere: the run\'s own progress channel between its workers and its main process (runner/console.ts, runner/progress.ts), the engine\'s worker processes forked ahead (runner/warm-workers.ts) and the Allure generator (report/allure-html.ts)',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/desktop/', '^src/runner/(console|progress|warm-workers)\\.ts$', '^src/report/allure-html\\.ts$'] },
      to: { dependencyTypes: ['core'], path: '^(node:)?(child_process|net|dgram|cluster)$' },
    },
    {
      name: 'vision-is-pure',
      comment: 'frame algorithms read no file and start nothing; only the OCR engine (vision/ocr) loads its model',
      severity: 'error',
      from: { path: '^src/vision/', pathNot: '^src/vision/ocr/' },
      to: { dependencyTypes: ['core'] },
    },
    owned('desktop-libraries', ['@nut-tree-fork/nut-js', 'uiohook-napi', 'dbus-next', 'ws'], '^src/desktop/', 'nut-js, the input hook, D-Bus and the VNC bridge are the desktop\'s'),
    owned('anthropic-sdk', ['@anthropic-ai/sdk'], '^src/brain/planners/', 'the model is reached by the Claude planner only'),
    owned('tesseract', ['tesseract\\.js', '@tesseract\\.js-data'], '^src/vision/ocr/', 'OCR sits behind the TextReader interface of src/vision/ocr'),
    owned('vitest', ['vitest', '@vitest'], '^src/runner/', 'vitest is the engine of src/runner'),
    owned('allure', ['allure', 'allure-js-commons'], '^src/report/', 'Allure results are written by src/report'),
    owned('image-libraries', ['pngjs', 'pixelmatch'], '^src/vision/', 'images are decoded, encoded and compared in src/vision'),
    {
      name: 'no-circular',
      comment: 'modules that load each other (a cycle through type-only imports loads nothing and is allowed)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(test|bench|dist|examples)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
