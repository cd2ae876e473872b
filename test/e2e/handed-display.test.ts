/**
 * The displays a run opens in its main process, while it loads the engine, and hands to its
 * workers: each worker gets its own, and it is one retrace started, pinned as such (keyboard
 * layout, locale, time zone) for the apps launched on it, with its session services (animations
 * switched per launch). Real CLI, real Xvfb, a real X app.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { Project } from '../support/project.ts';

const RUN_MS = 120_000;

/** The app's setup writes what the app will see of its display into `<name>.txt`. */
const specOf = (name: string, animations: 'allow' | 'off'): string => `name: Handed ${name}
app:
  launch: xmessage -name ${name} hello
  window: ${name}
  animations: ${animations}
  setup: echo "$DISPLAY|$TZ|$LANG|$(setxkbmap -query | grep layout)|$(dump_xsettings | grep -o 'Gtk/EnableAnimations [01]')" > "$OUT/${name}.txt"
goals:
  - id: look
    steps:
      - wait: 10
`;

test(
  'two workers: each runs on its own display that the run opened, with the pinned layout, locale and time zone, and switches its animations',
  async () => {
    const project = new Project().write('specs/one.yaml', specOf('one', 'off')).write('specs/two.yaml', specOf('two', 'allow'));
    const result = await project.cli(['run', '--workers', '2'], { OUT: project.root, TZ: 'America/New_York', LANG: 'de_DE.UTF-8' }, RUN_MS);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const seen = ['one', 'two'].map((name) =>
      readFileSync(join(project.root, `${name}.txt`), 'utf8')
        .trim()
        .split('|'),
    );
    for (const [display, tz, lang, layout] of seen) {
      expect(display).toMatch(/^:\d+$/);
      expect([tz, lang, layout?.replace(/\s+/g, ' ')]).toEqual(['UTC', 'C.UTF-8', 'layout: us']);
    }
    expect(seen[0]?.[0]).not.toBe(seen[1]?.[0]);
    // The display's settings manager, switched by the worker for the launch that allows animations.
    expect(seen.map((fields) => fields[4])).toEqual(['Gtk/EnableAnimations 0', 'Gtk/EnableAnimations 1']);
  },
  RUN_MS,
);
