/**
 * "Animations off", per toolkit, as Playwright turns them off for screenshots: an animation or a
 * blinking caret makes every wait for a still screen last longer, and a screenshot differ.
 * docs/troubleshooting.md ("Animations") lists what each toolkit gets.
 */

/**
 * The XSETTINGS that xsettingsd publishes on a display retrace owns. GTK 3/4 read them (and
 * Chromium through its GTK integration); they take precedence over a settings.ini.
 */
export const xsettingsConfig = (animationsAllowed: boolean): string => {
  const on = animationsAllowed ? 1 : 0;
  return [
    `Gtk/EnableAnimations ${on}`,
    `Net/EnableAnimations ${on}`,
    `Net/CursorBlink ${on}`,
    'Net/CursorBlinkTime 1200',
    'Gtk/CursorBlinkTimeout 10',
    'Net/EnableEventSounds 0',
    'Net/EnableInputFeedbackSounds 0',
    '',
  ].join('\n');
};

/**
 * GTK's own settings file, written into an app's private configuration: it holds where no
 * XSETTINGS manager says otherwise (a user's display without one).
 */
export const GTK_SETTINGS_INI = '[Settings]\ngtk-enable-animations=0\ngtk-cursor-blink=false\n';

/**
 * The environment of an app launched with animations off. `RETRACE_ANIMATIONS=off` is read by
 * launch scripts that can pass toolkit flags (fixtures/apps/open gives Chromium
 * `--force-prefers-reduced-motion`).
 */
export const animationsEnv = (allowed: boolean): Readonly<Record<string, string>> => (allowed ? {} : { RETRACE_ANIMATIONS: 'off' });
