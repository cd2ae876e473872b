import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * `npm run test:unit`: the tests that need no display, no app, no browser and no OCR of real
 * screens — the one-minute loop. CI runs everything (vitest.config.ts); a test that starts a
 * display belongs in one of the folders or files excluded here.
 */
export default mergeConfig(
  base,
  defineConfig({
    test: {
      // Many of these wait on simulated apps' timers rather than the CPU: more files at once.
      maxWorkers: 4,
      // Files share their worker's module cache: importing the transformed sources was half the
      // time (134 s -> 77 s under load). These tests keep no state across files; a test that must
      // change process-wide state belongs with the display tests.
      isolate: false,
      // Fails any test here that starts an X server or a browser, with where it belongs.
      globalSetup: ['test/support/unit-guard.ts'],
      exclude: [
        'test/e2e/**',
        'test/faults/**',
        // Each runs the retrace command on a display of its own.
        'test/verdicts/{counter,expectations,toolkits,verdicts,zoom}.test.ts',
        // Real X servers: capture, input, windows, apps, fonts, the accessibility bus.
        'test/desktop/{app,capture,display,drawing,elements,fonts,input,process-exit,providers,session,toolkit-boxes,tree-read-failure,typing,vnc-access,windows}.test.ts',
      ],
    },
  }),
);
