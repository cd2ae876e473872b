/**
 * The fonts of the apps retrace launches, pinned as the locale and the keyboard layout are: a
 * fontconfig of retrace's own that knows only the fonts the project names (DejaVu by default)
 * and renders them one way (antialiasing, hinting, no subpixel colours), and reads no system or
 * user configuration. Without it, which font draws "Sans" or "Monospace", and how, depends on
 * what else the machine has installed: a baseline taken on one machine failed on another that
 * had fonts-noto-mono and fonts-urw-base35 besides.
 *
 * The X server's core fonts (xterm, xcalc) are pinned where retrace starts the server (xvfb.ts).
 */
import { type Dirent, existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { InfrastructureError } from '../../errors.ts';
import { escapeHtml } from '../../safe-text.ts';

/**
 * The X core font path of a display retrace starts: the server's compiled-in `fixed` and
 * `cursor` only. The default path names font folders (misc, 75dpi, Type1…) whose content is
 * whatever packages the machine has: with xfonts-base, xcalc's "8x13" exists and its keys draw
 * in it; without, they fall back to `fixed`.
 */
export const CORE_FONT_PATH = 'built-ins';

/**
 * The default fonts: DejaVu Sans, Sans Mono and Serif, each upright and slanted, regular and
 * bold (Debian splits them: fonts-dejavu-core and fonts-dejavu-extra). All twelve or none: with
 * the slanted ones missing, italic text would be the upright glyphs sheared, other pixels than on
 * a machine that has them. The widths and weights beside (Condensed, ExtraLight) are left out.
 */
const DEJAVU_FILES = ['Sans', 'SansMono', 'Serif'].flatMap((family) => {
  const slant = family === 'Serif' ? 'Italic' : 'Oblique';
  return ['', '-Bold', `-${slant}`, `-Bold${slant}`].map((style) => `DejaVu${family}${style}.ttf`);
});

/** Where distributions install fonts; searched a few levels deep for the DejaVu files. */
const SYSTEM_FONT_DIRS = ['/usr/share/fonts', '/usr/local/share/fonts'];
const SEARCH_DEPTH = 3;

/** What apps ask for by a generic name, and the DejaVu family that answers. */
const GENERIC_FAMILIES: Readonly<Record<string, string>> = {
  'sans-serif': 'DejaVu Sans',
  sans: 'DejaVu Sans',
  'system-ui': 'DejaVu Sans',
  serif: 'DejaVu Serif',
  monospace: 'DejaVu Sans Mono',
  mono: 'DejaVu Sans Mono',
};

/**
 * Words in the name of a family that is not there which say how to draw it, as fontconfig's own
 * rules (45-latin.conf) class the families they know: a terminal asking for "Liberation Mono"
 * gets DejaVu Sans Mono, not a proportional font.
 */
const GENERIC_BY_WORD: readonly (readonly [string, readonly string[]])[] = [
  ['monospace', ['mono', 'courier', 'consol', 'code', 'terminal', 'fixed']],
  ['serif', ['serif', 'times', 'georgia', 'roman']],
];

/** The file of each name in `wanted`, the first found under `dirs` in name order. */
const findFiles = (dirs: readonly string[], wanted: ReadonlySet<string>): Map<string, string> => {
  const found = new Map<string, string>();
  const walk = (dir: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth > 0) walk(path, depth - 1);
      else if (wanted.has(entry.name) && !found.has(entry.name)) found.set(entry.name, path);
    }
  };
  for (const dir of dirs) walk(dir, SEARCH_DEPTH);
  return found;
};

/** The DejaVu files under `dirs`, or an error naming the ones missing and the packages. */
export const findDejavu = (dirs: readonly string[]): readonly string[] => {
  const found = findFiles(dirs, new Set(DEJAVU_FILES));
  const missing = DEJAVU_FILES.filter((name) => !found.has(name));
  if (missing.length > 0) {
    throw new InfrastructureError(
      'MISSING_TOOL',
      `The apps retrace launches draw their text in DejaVu, and ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} ` +
        `not under ${dirs.join(' or ')}. Install ${missing.length === 1 ? 'it' : 'them'} ` +
        '(Debian/Ubuntu: apt-get install fonts-dejavu-core fonts-dejavu-extra), ' +
        'or name the fonts of the project in display.fonts (retrace.config.yaml).',
    );
  }
  return DEJAVU_FILES.map((name) => found.get(name) as string);
};

let dejavu: readonly string[] | undefined;

/** This machine's DejaVu files, looked up once per process. */
const dejavuFiles = (): readonly string[] => {
  dejavu ??= findDejavu(SYSTEM_FONT_DIRS);
  return dejavu;
};

/**
 * The configuration: the named folders, the named files (linked into one folder of ours, since
 * fontconfig takes folders only), a cache beside it, the generic names, and one way of rendering.
 * No <include>: nothing of /etc/fonts or ~/.config/fontconfig applies.
 */
const fontconfigText = (dirs: readonly string[], cacheDir: string): string => {
  const alias = Object.entries(GENERIC_FAMILIES).map(
    ([generic, family]) =>
      `  <alias binding="same"><family>${escapeHtml(generic)}</family><prefer><family>${escapeHtml(family)}</family></prefer></alias>`,
  );
  const assign = (name: string, value: string): string => `    <edit name="${name}" mode="assign">${value}</edit>`;
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
    '<!-- Written by retrace for the apps it launches: only these fonts, rendered one way. -->',
    '<fontconfig>',
    ...dirs.map((dir) => `  <dir>${escapeHtml(dir)}</dir>`),
    `  <cachedir>${escapeHtml(cacheDir)}</cachedir>`,
    ...GENERIC_BY_WORD.flatMap(([generic, words]) =>
      words.flatMap((word) => [
        '  <match target="pattern">',
        `    <test name="family" compare="contains"><string>${word}</string></test>`,
        // "Microsoft Sans Serif" is sans.
        ...(generic === 'serif' ? ['    <test qual="all" name="family" compare="not_contains"><string>sans</string></test>'] : []),
        `    <edit name="family" mode="append_last"><string>${generic}</string></edit>`,
        '  </match>',
      ]),
    ),
    // Any other family that is not there is drawn by the sans-serif one, not by whichever font scores best.
    '  <match target="pattern">',
    ...['sans-serif', 'serif', 'monospace'].map(
      (generic) => `    <test qual="all" name="family" compare="not_eq"><string>${generic}</string></test>`,
    ),
    '    <edit name="family" mode="append_last"><string>sans-serif</string></edit>',
    '  </match>',
    ...alias,
    '  <match target="font">',
    assign('antialias', '<bool>true</bool>'),
    assign('hinting', '<bool>true</bool>'),
    assign('hintstyle', '<const>hintslight</const>'),
    assign('autohint', '<bool>false</bool>'),
    assign('rgba', '<const>none</const>'),
    assign('lcdfilter', '<const>lcddefault</const>'),
    assign('embeddedbitmap', '<bool>false</bool>'),
    '  </match>',
    // A style the fonts lack is made from the regular one, as fontconfig's own 90-synthetic does.
    '  <match target="font">',
    '    <test name="slant"><const>roman</const></test>',
    '    <test target="pattern" name="slant" compare="not_eq"><const>roman</const></test>',
    '    <edit name="matrix" mode="assign"><times><name>matrix</name><matrix><double>1</double><double>0.2</double><double>0</double><double>1</double></matrix></times></edit>',
    '    <edit name="slant" mode="assign"><const>oblique</const></edit>',
    '    <edit name="embeddedbitmap" mode="assign"><bool>false</bool></edit>',
    '  </match>',
    '  <match target="font">',
    '    <test name="weight" compare="less_eq"><const>medium</const></test>',
    '    <test target="pattern" name="weight" compare="more_eq"><const>bold</const></test>',
    '    <edit name="embolden" mode="assign"><bool>true</bool></edit>',
    '    <edit name="weight" mode="assign"><const>bold</const></edit>',
    '  </match>',
    '</fontconfig>',
    '',
  ].join('\n');
};

/**
 * Writes the fontconfig into `dir` (a private folder of the display, removed with it) and
 * returns the environment that makes an app use it. `fonts` are absolute paths of font files
 * or folders; none means DejaVu.
 */
export const writeFontconfig = (dir: string, fonts: readonly string[] = []): Readonly<Record<string, string>> => {
  const named = fonts.length > 0 ? fonts : dejavuFiles();
  const linked = join(dir, 'fonts');
  const cache = join(dir, 'fontconfig-cache');
  mkdirSync(linked, { recursive: true, mode: 0o700 });
  mkdirSync(cache, { recursive: true, mode: 0o700 });
  const folders: string[] = [];
  named.forEach((path, index) => {
    if (!existsSync(path)) {
      throw new InfrastructureError('IO', `The font ${path} does not exist (display.fonts names it).`);
    }
    if (statSync(path).isDirectory()) folders.push(path);
    // Numbered: two fonts of the same file name from two folders must both be there.
    else symlinkSync(path, join(linked, `${index}-${basename(path)}`));
  });
  const file = join(dir, 'fonts.conf');
  writeFileSync(file, fontconfigText([linked, ...folders], cache), { mode: 0o600 });
  return { FONTCONFIG_FILE: file };
};
