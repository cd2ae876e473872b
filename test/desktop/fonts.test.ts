/**
 * The fonts apps get on retrace's displays: the X server's core font path is built in only, and
 * fontconfig (through the display's FONTCONFIG_FILE) knows only DejaVu, however many more fonts
 * the machine has. "More fonts" is the fontconfig of another machine (test/support/other-fonts.ts):
 * read by fontconfig's own tools, fc-list and fc-match, as any app reads it.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, test } from 'vitest';
import { acquireDisplay } from '../../src/desktop/index.ts';
import { findDejavu } from '../../src/desktop/session/fonts.ts';
import { InfrastructureError } from '../../src/errors.ts';
import type { Display } from '../../src/desktop/types.ts';
import { withProcessEnv } from '../support/process-env.ts';
import { EXTRA_FONTS, otherMachineFontconfig } from '../support/other-fonts.ts';

const run = promisify(execFile);
const started: Display[] = [];
const open = async (options: Parameters<typeof acquireDisplay>[0]): Promise<Display> => {
  const display = await acquireDisplay(options);
  started.push(display);
  return display;
};

afterEach(async () => {
  await Promise.all(started.splice(0).map((d) => d.stop()));
});

/** The families and files fontconfig offers an app with `env`, over this process's environment. */
const fontsSeen = async (env: Readonly<Record<string, string>>): Promise<{ families: string[]; files: string[] }> => {
  const { stdout } = await run('fc-list', ['--format', '%{family[0]}|%{file}\\n'], { env: { ...process.env, ...env } });
  const rows = stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('|') as [string, string]);
  return {
    families: [...new Set(rows.map(([family]) => family))].sort(),
    files: rows.map(([, file]) => file.replace(/^.*\/\d+-/, '')).sort(),
  };
};

const match = async (pattern: string, env: Readonly<Record<string, string>>): Promise<string> =>
  (await run('fc-match', ['--format', '%{family[0]}', pattern], { env: { ...process.env, ...env } })).stdout;

const DEJAVU = ['DejaVu Sans', 'DejaVu Sans Mono', 'DejaVu Serif'];

describe('the DejaVu files', () => {
  test("all twelve, in a distribution's folders; with the slanted ones missing, an error that names them and the packages", () => {
    const system = findDejavu(['/usr/share/fonts']);
    expect(system).toHaveLength(12);
    const machine = mkdtempSync(join(tmpdir(), 'retrace-font-dirs-'));
    const nested = join(machine, 'truetype', 'dejavu');
    mkdirSync(nested, { recursive: true });
    for (const file of system.filter((f) => !/(Oblique|Italic)\.ttf$/.test(f))) symlinkSync(file, join(nested, file.replace(/^.*\//, '')));
    const error = (() => {
      try {
        findDejavu([machine]);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InfrastructureError);
    expect(error).toMatchObject({ code: 'MISSING_TOOL' });
    expect((error as Error).message).not.toContain('\n');
    expect((error as Error).message).toContain(
      'DejaVuSans-Oblique.ttf, DejaVuSans-BoldOblique.ttf, DejaVuSansMono-Oblique.ttf, DejaVuSansMono-BoldOblique.ttf, ' +
        `DejaVuSerif-Italic.ttf, DejaVuSerif-BoldItalic.ttf are not under ${machine}. Install them (Debian/Ubuntu: ` +
        'apt-get install fonts-dejavu-core fonts-dejavu-extra), or name the fonts of the project in display.fonts',
    );
    rmSync(machine, { recursive: true });
  });
});

describe('pinned fonts', () => {
  test('an owned display: core fonts built in only, and a private fontconfig of DejaVu alone on a machine with more fonts, removed at stop', async () => {
    const other = { FONTCONFIG_FILE: otherMachineFontconfig() };
    // The other machine prefers its extra font for monospace text, as Debian's rules do.
    expect(await match('monospace', other)).toBe('Noto Sans Mono');

    const display = await open({ reuseEnv: false, size: [320, 240] });
    const argv = readFileSync(`/proc/${display.pid}/cmdline`, 'utf8').split('\0');
    expect(argv.slice(argv.indexOf('-fp'), argv.indexOf('-fp') + 2)).toEqual(['-fp', 'built-ins']);
    const { stdout } = await run('xset', ['q'], { env: { ...process.env, ...display.env } });
    expect(/Font Path:\n\s+(.*)\n/.exec(stdout)?.[1]).toBe('built-ins');

    const file = display.env.FONTCONFIG_FILE!;
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'utf8')).not.toContain('<include');
    // An app gets the environment of the machine, then the display's on top of it.
    const seen = await fontsSeen({ ...other, ...display.env });
    expect(seen.families).toEqual(DEJAVU);
    expect(seen.files).toEqual([
      'DejaVuSans-Bold.ttf',
      'DejaVuSans-BoldOblique.ttf',
      'DejaVuSans-Oblique.ttf',
      'DejaVuSans.ttf',
      'DejaVuSansMono-Bold.ttf',
      'DejaVuSansMono-BoldOblique.ttf',
      'DejaVuSansMono-Oblique.ttf',
      'DejaVuSansMono.ttf',
      'DejaVuSerif-Bold.ttf',
      'DejaVuSerif-BoldItalic.ttf',
      'DejaVuSerif-Italic.ttf',
      'DejaVuSerif.ttf',
    ]);
    for (const [asked, drawn] of [
      ['monospace', 'DejaVu Sans Mono'],
      ['Sans', 'DejaVu Sans'],
      ['serif', 'DejaVu Serif'],
      ['Cantarell', 'DejaVu Sans'],
      // A family that is not there is drawn by the generic one its name says, as fontconfig's own rules do.
      ['Noto Sans Mono', 'DejaVu Sans Mono'],
      ['Courier New', 'DejaVu Sans Mono'],
      ['Times New Roman', 'DejaVu Serif'],
      ['Sans Serif', 'DejaVu Sans'],
    ] as const) {
      expect(await match(asked, { ...other, ...display.env }), asked).toBe(drawn);
    }
    // The rendering is the config's, not the machine's.
    const { stdout: rendering } = await run('fc-match', ['--format', '%{antialias} %{hintstyle} %{rgba} %{lcdfilter}', 'monospace'], {
      env: { ...process.env, ...other, ...display.env },
    });
    expect(rendering).toBe('True 1 5 1');

    await display.stop();
    expect(existsSync(dirname(file))).toBe(false);
  });

  test('a display retrace did not start: the same fontconfig for its apps, in a private folder removed at stop; the server is left alone', async () => {
    const owned = await open({ reuseEnv: false, size: [320, 240] });
    const reused = await withProcessEnv(
      { DISPLAY: owned.name, XAUTHORITY: owned.env.XAUTHORITY, DBUS_SESSION_BUS_ADDRESS: owned.sessionBus },
      () => open({ reuseEnv: true }),
    );
    expect(reused.owned).toBe(false);
    const file = reused.env.FONTCONFIG_FILE!;
    expect(file).not.toBe(owned.env.FONTCONFIG_FILE);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    expect((await fontsSeen({ FONTCONFIG_FILE: otherMachineFontconfig(), ...reused.env })).families).toEqual(DEJAVU);
    await reused.stop();
    expect(existsSync(dirname(file))).toBe(false);
    expect(existsSync(owned.env.FONTCONFIG_FILE!)).toBe(true);
  });

  test('the fonts a project names replace DejaVu: a folder and a file', async () => {
    const font = join(EXTRA_FONTS, readdirSync(EXTRA_FONTS).find((f) => f.endsWith('.ttf'))!);
    for (const named of [EXTRA_FONTS, font]) {
      const display = await open({ reuseEnv: false, size: [320, 240], fonts: [named] });
      expect((await fontsSeen(display.env)).families, named).toEqual(['Noto Sans Mono']);
      expect(await match('sans-serif', display.env)).toBe('Noto Sans Mono');
    }
  });
});
