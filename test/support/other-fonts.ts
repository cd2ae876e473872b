/**
 * The fonts of another machine, as the issue met them: this one's fontconfig plus one more font
 * package (fonts-noto-mono's Noto Sans Mono, in fixtures/fonts), which Debian's own rules then
 * prefer for every "monospace" text. Given to a process as FONTCONFIG_FILE, it is what an app
 * would find on a CI machine with more packages installed; nothing of this machine changes.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './project.ts';

export const EXTRA_FONTS = join(REPO, 'fixtures', 'fonts');

/** Writes the other machine's fontconfig into a new temporary folder; returns its file. */
export function otherMachineFontconfig(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'retrace-other-fonts-')), 'fonts.conf');
  writeFileSync(
    file,
    [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
      '<fontconfig>',
      '  <include>/etc/fonts/fonts.conf</include>',
      `  <dir>${EXTRA_FONTS}</dir>`,
      '</fontconfig>',
      '',
    ].join('\n'),
  );
  return file;
}
