/**
 * An xterm that records every byte it receives: keys as the terminal encodes them, and mouse
 * events as SGR reports (`ESC [ < button ; column ; row M|m`, any-motion tracking on). The
 * recording is exact, so input tests can check what the app really got, not a screenshot.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Point } from '../../src/domain.ts';
import type { AppSession, Desktop } from '../../src/desktop/types.ts';

const SCRIPT = `stty raw -echo
printf '\\033[?1003h\\033[?1006h'
: > "$OUT.ready"
exec cat > "$OUT"
`;

export interface MouseReport {
  readonly button: number;
  readonly column: number;
  readonly row: number;
  readonly press: boolean;
}

export class TerminalProbe {
  private mark = 0;

  private constructor(
    readonly app: AppSession,
    private readonly out: string,
    private readonly desktop: Desktop,
  ) {}

  /** Starts an 80×24 xterm with no internal border at `at`, titled `title`. */
  static async open(desktop: Desktop, title: string, at: Point = { x: 0, y: 0 }): Promise<TerminalProbe> {
    const dir = mkdtempSync(join(tmpdir(), 'retrace-probe-'));
    const out = join(dir, 'received');
    writeFileSync(join(dir, 'probe.sh'), SCRIPT);
    const app = await desktop.launch({
      launch: `xterm -b 0 -geometry 80x24+${at.x}+${at.y} -title ${title} -e sh probe.sh`,
      window: title,
      cwd: dir,
      env: { OUT: out },
    });
    const probe = new TerminalProbe(app, out, desktop);
    await probe.until(() => existsSync(`${out}.ready`), 'the probe script to start');
    return probe;
  }

  /** The screen point at the centre of a 1-based cell. */
  async cell(column: number, row: number): Promise<Point> {
    const { region } = await this.app.window();
    const width = region.width / 80;
    const height = region.height / 24;
    return { x: region.x + (column - 0.5) * width, y: region.y + (row - 0.5) * height };
  }

  /** Bytes received since the last call, once `done` holds for them (polled, 5 s at most). */
  async received(done: (text: string) => boolean): Promise<string> {
    let text = '';
    await this.until(() => {
      text = this.read().slice(this.mark);
      return done(text);
    }, 'the expected input');
    this.mark += text.length;
    return text;
  }

  /** Mouse reports in `text`. */
  static mouse(text: string): MouseReport[] {
    return [...text.matchAll(/\x1b\[<(\d+);(\d+);(\d+)([Mm])/g)].map((m) => ({
      button: Number(m[1]),
      column: Number(m[2]),
      row: Number(m[3]),
      press: m[4] === 'M',
    }));
  }

  async focus(): Promise<void> {
    await this.desktop.windows.focus((await this.app.window()).id);
  }

  close(): Promise<void> {
    return this.app.close();
  }

  private read(): string {
    return existsSync(this.out) ? readFileSync(this.out, 'latin1') : '';
  }

  private async until(condition: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 5_000;
    let wait = 2;
    while (!condition()) {
      if (Date.now() > deadline) {
        throw new Error(`Timed out waiting for ${what}; received so far: ${JSON.stringify(this.read().slice(this.mark))}`);
      }
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.min(wait * 2, 50);
    }
  }
}
