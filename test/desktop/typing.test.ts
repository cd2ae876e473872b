/**
 * Typing into a third-party GTK editor (mousepad) and saving with ctrl+s: the saved bytes
 * must be exactly what was typed.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { Desktop } from '../../src/desktop/types.ts';
import { getTestDesktop } from '../support/desktop.ts';

const ASCII = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');

/** Polls the file until it holds `expected` (or 5 s pass) and returns what it holds. */
const savedText = async (file: string, expected: string): Promise<string> => {
  const deadline = Date.now() + 5_000;
  let text = readFileSync(file, 'latin1');
  for (let wait = 5; text !== expected && Date.now() < deadline; wait = Math.min(wait * 2, 50)) {
    await new Promise((r) => setTimeout(r, wait));
    text = readFileSync(file, 'latin1');
  }
  return text;
};

const openEditor = async (desktop: Desktop, name: string) => {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-typing-'));
  const file = join(dir, name);
  // An existing file: ctrl+s then saves in place instead of opening a Save As dialog.
  writeFileSync(file, '');
  const app = await desktop.launch({
    launch: `mousepad ${file}`,
    window: `/${name.replace('.', '\\.')} - Mousepad$/`,
    size: [900, 500],
    // A private config dir and in-memory settings: no state from, or warnings about, the host.
    env: { XDG_CONFIG_HOME: join(dir, 'config'), GSETTINGS_BACKEND: 'memory', NO_AT_BRIDGE: '1' },
  });
  return { app, file };
};

test('every printable ASCII character reaches mousepad and is saved exactly', async () => {
  const desktop = await getTestDesktop();
  const { app, file } = await openEditor(desktop, 'ascii.txt');
  try {
    expect((await app.window()).region).toMatchObject({ width: 900, height: 500 });
    const text = `${ASCII}\n${[...ASCII].reverse().join('')}`;
    const start = performance.now();
    await desktop.input.type(text);
    const seconds = (performance.now() - start) / 1000;
    console.log(`typing: ${text.length} chars in ${(seconds * 1000).toFixed(0)} ms = ${(text.length / seconds).toFixed(0)} chars/s`);
    await desktop.input.key('ctrl+s');
    expect(await savedText(file, text)).toBe(text);
  } finally {
    await app.close();
  }
});

test('editing keys and combos act in the editor', async () => {
  const desktop = await getTestDesktop();
  const { app, file } = await openEditor(desktop, 'keys.txt');
  try {
    await desktop.input.type('hello world');
    await desktop.input.key('ctrl+a');
    await desktop.input.type('first');
    await desktop.input.key('Enter');
    await desktop.input.type('second!');
    await desktop.input.key('BackSpace');
    await desktop.input.key('Home');
    await desktop.input.key('shift+End');
    await desktop.input.key('ctrl+c');
    await desktop.input.key('End');
    await desktop.input.key('Return');
    await desktop.input.key('ctrl+v');
    await desktop.input.key('Control+S');
    expect(await savedText(file, 'first\nsecond\nsecond')).toBe('first\nsecond\nsecond');
  } finally {
    await app.close();
  }
});
