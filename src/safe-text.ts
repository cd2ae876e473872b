/**
 * Text from outside retrace made safe for where it is shown. File names, goal text, window
 * titles, element names and OCR text are anyone's: in HTML they must stay text (`escapeHtml`),
 * and on a terminal they must not drive it (`terminalText`) — an ESC sequence in a file name
 * would clear the screen or set the window title, a right-to-left override would show a line
 * other than the one printed. Every HTML writer and every terminal writer uses these two.
 */

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * C0 controls but tab and newline, DEL, C1 controls (0x9b is a one-byte CSI), and the Unicode
 * format characters that reorder or hide text: bidi embeddings, overrides and isolates, the
 * directional marks, and the line and paragraph separators.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const visible = (c: string): string => {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** `text` with every character that would steer a terminal shown as its escape (`\x1b`, `\u202e`) instead. */
export const terminalText = (text: string): string => text.replace(UNSAFE, visible);
