/**
 * What toolkits need to draw and publish on an X server with no GPU and no desktop, set for
 * every launched app (a spec's `app.env` still overrides it).
 */

/**
 * - `GDK_BACKEND=x11`, `QT_QPA_PLATFORM=xcb`: capture and input are X's; the variables of a
 *   Wayland session the run was started from must not take GTK or Qt apps elsewhere.
 * - `GSK_RENDERER=cairo`: GTK 4's GL renderer can draw a solid black window on Xvfb's software
 *   GL; cairo draws on the CPU, the same pixels on every machine. A renderer the user chose stays.
 */
export const toolkitEnv = (inherited: NodeJS.ProcessEnv): Readonly<Record<string, string>> => ({
  GDK_BACKEND: 'x11',
  QT_QPA_PLATFORM: 'xcb',
  ...(inherited.GSK_RENDERER ? {} : { GSK_RENDERER: 'cairo' }),
});
