/**
 * Runs in every worker before each of its test files. For a spec file it makes sure the worker's
 * display exists before any module binds to `$DISPLAY`; an ordinary test file in the same vitest
 * run starts no display at all.
 */
import { beforeAll, inject } from 'vitest';
import { workerDesktop } from './worker-desktop.ts';
import { isSpecFile } from './spec-module.ts';

// A run of specs only starts the display here, before vitest imports the spec module (and with
// it the whole engine of retrace): the X server and its services start while the worker loads.
const run = inject('retrace');
// The early start is this file's set-up: a failed one is not tried a second time before the goals.
const early = run.eagerDisplay ? workerDesktop(run) : undefined;
early?.catch(() => {
  // The hook below reports nothing either: each goal opens it again and is broken by the fault.
});

// vitest wants the first argument (the context) destructured; the suite is the second.
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a hook's fixtures from the destructuring of its first parameter
beforeAll(async ({}, suite) => {
  if (!isSpecFile(suite.file.filepath)) return;
  await (early ?? workerDesktop(inject('retrace'))).catch(() => {
    // Each goal opens it again and is broken by the fault, which the run prints with its message.
  });
});
