/**
 * Runs in every worker before its spec files: makes sure the worker's display exists before any
 * module binds to `$DISPLAY`, and stops retrace's own Xvfb when the worker ends.
 */
import { inject } from 'vitest';
import { workerDesktop } from './worker-desktop.ts';

const context = inject('retrace');
await workerDesktop(context.ownDisplays, context.options.display.size, context.options.reports).catch(() => {
  // The goals report the fault themselves (as broken), with its message.
});
