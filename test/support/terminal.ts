/**
 * What a terminal shows after a stream of output: the few escapes retrace's console uses
 * (cursor to the start of a line n lines up, erase to the end of the screen, colours) applied to a
 * screen of lines. Enough to check what the user sees, not a full emulator.
 */
export class Screen {
  readonly lines: string[] = [''];
  private row = 0;

  write(text: string): void {
    // Colours change nothing on the screen's text.
    const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
    for (let i = 0; i < plain.length; i++) {
      const c = plain[i] as string;
      if (c === '\x1b') {
        const m = /^\x1b\[(\??)(\d*)([A-Za-z])/.exec(plain.slice(i));
        if (!m) throw new Error(`unknown escape at ${JSON.stringify(plain.slice(i, i + 8))}`);
        i += m[0].length - 1;
        // Private modes (a hidden cursor) change nothing on the screen's text.
        if (m[1] === '?') continue;
        const n = Number(m[2] || '1');
        const code = m[3];
        if (code === 'F') this.row = Math.max(0, this.row - n);
        if (code === 'J') {
          this.lines[this.row] = '';
          this.lines.length = this.row + 1;
        }
        if (code === 'K') this.lines[this.row] = '';
      } else if (c === '\r') {
        // A pty turns "\n" into "\r\n"; a lone "\r" starts the line over (what follows overwrites it).
        if (plain[i + 1] !== '\n') this.lines[this.row] = '';
      } else if (c === '\n') {
        this.row++;
        if (this.lines.length <= this.row) this.lines.push('');
      } else {
        this.lines[this.row] += c;
      }
    }
  }

  /** The lines on screen, without the empty one the cursor sits on at the end. */
  shown(): string[] {
    return this.lines.filter((line, i) => !(i === this.lines.length - 1 && line === ''));
  }
}
