/**
 * A private home for one launch of an app, like a fresh browser context in Playwright: HOME and
 * the XDG config, cache, data, state and runtime directories point into one new directory, and
 * GSettings keeps its values in memory. A run never sees what an earlier run saved (a "restore
 * session?" prompt, a recent-files list, a changed preference), and the user's own files are
 * never read or written. The spec's `setup:` runs with the same environment, so it can seed
 * the directory (`$XDG_CONFIG_HOME/app/app.conf`).
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { GTK_SETTINGS_INI } from './animations.ts';

export interface PrivateHome {
  readonly dir: string;
  /** HOME, XDG_*_HOME, XDG_RUNTIME_DIR, GSETTINGS_BACKEND, and XAUTHORITY when it must be kept. */
  readonly env: Readonly<Record<string, string>>;
  /** Removes the directory; safe to call again. */
  remove(): void;
}

export interface PrivateHomeOptions {
  /** Write GTK's settings.ini with animations and caret blinking off. */
  readonly animationsOff: boolean;
  /**
   * Where to create it: the session services' directory of an owned display, so the watchdog
   * that removes it removes the homes too, even after a SIGKILL. @default the temporary directory
   */
  readonly parent?: string;
  /** The cookie file of the display the app is for (an owned display's), kept over HOME's. */
  readonly xauthority?: string;
}

export const createPrivateHome = (options: PrivateHomeOptions): PrivateHome => {
  const dir = mkdtempSync(join(options.parent ?? tmpdir(), 'retrace-home-'));
  const paths = {
    XDG_CONFIG_HOME: join(dir, '.config'),
    XDG_CACHE_HOME: join(dir, '.cache'),
    XDG_DATA_HOME: join(dir, '.local', 'share'),
    XDG_STATE_HOME: join(dir, '.local', 'state'),
    XDG_RUNTIME_DIR: join(dir, '.runtime'),
  };
  for (const path of Object.values(paths)) mkdirSync(path, { recursive: true });
  // The runtime directory must be private to its user, or GLib and D-Bus refuse it.
  chmodSync(dir, 0o700);
  chmodSync(paths.XDG_RUNTIME_DIR, 0o700);
  if (options.animationsOff) {
    for (const gtk of ['gtk-3.0', 'gtk-4.0']) {
      mkdirSync(join(paths.XDG_CONFIG_HOME, gtk));
      writeFileSync(join(paths.XDG_CONFIG_HOME, gtk, 'settings.ini'), GTK_SETTINGS_INI);
    }
  }
  // Xlib looks for the display's cookie in $HOME/.Xauthority unless told where it is.
  const realCookies = join(process.env.HOME ?? homedir(), '.Xauthority');
  const keepCookies: Record<string, string> = options.xauthority
    ? { XAUTHORITY: options.xauthority }
    : !process.env.XAUTHORITY && existsSync(realCookies)
      ? { XAUTHORITY: realCookies }
      : {};
  return {
    dir,
    env: { HOME: dir, ...paths, GSETTINGS_BACKEND: 'memory', ...keepCookies },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
};
