/**
 * Typing: every printable ASCII character, forwards and backwards, typed through retrace's
 * input driver into a real text widget — an xterm whose terminal is raw and runs `cat > file`,
 * so every byte that arrived is on disk exactly. Timed from the start of typing until the file
 * holds all of it; a run counts only if the bytes are exactly the text.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Desktop } from '../src/desktop/types.ts';
import { centre } from './desktop.ts';
import { figure, guarded, sleep, TARGETS, type Measurement, type Row } from './measure.ts';

const GROUP = 'Typing';
const N = 3;
const ASCII = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
const TEXT = ASCII + [...ASCII].reverse().join('');
const TITLE = 'retrace-bench-typing';

export const ROWS = {
  rate: { name: `printable ASCII into xterm (${TEXT.length} chars, every byte checked)`, unit: 'chars/s', target: TARGETS.typingCharsPerS },
} satisfies Record<string, Row>;

const SCRIPT = `stty raw -echo
: > "$OUT.ready"
exec cat > "$OUT"
`;

/** Polls until `done()` or `timeoutMs`; the time it became true, or undefined. */
async function until(done: () => boolean, timeoutMs: number): Promise<number | undefined> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (done()) return performance.now();
    await sleep(2);
  }
  return done() ? performance.now() : undefined;
}

export function benchTyping(display: Promise<Desktop>): Promise<Measurement[]> {
  return guarded(GROUP, Object.values(ROWS), async () => {
    const desktop = await display;
    const dir = mkdtempSync(join(tmpdir(), 'retrace-bench-typing-'));
    const out = join(dir, 'received');
    writeFileSync(join(dir, 'probe.sh'), SCRIPT);
    const app = await desktop.launch({
      launch: `xterm -b 0 -geometry 100x10+0+0 -title ${TITLE} -e sh probe.sh`,
      window: TITLE,
      cwd: dir,
      env: { OUT: out },
    });
    try {
      if ((await until(() => existsSync(`${out}.ready`), 10_000)) === undefined) throw new Error('the xterm probe did not start');
      const window = (await app.window()).region;
      await desktop.input.move(centre({ x: 0, y: 0, width: window.width, height: window.height }, window));
      await desktop.windows.focus((await app.window()).id);
      const rates: number[] = [];
      const wrong: string[] = [];
      let mark = 0;
      for (let i = 0; i < N; i++) {
        const read = () => readFileSync(out, 'latin1').slice(mark);
        const start = performance.now();
        await desktop.input.type(TEXT);
        const end = await until(() => read().length >= TEXT.length, 10_000);
        const got = read();
        mark += got.length;
        if (end === undefined || got !== TEXT) {
          wrong.push(`run ${i + 1}: received ${JSON.stringify(got.slice(0, 40))}… (${got.length} of ${TEXT.length} bytes)`);
          continue;
        }
        rates.push(TEXT.length / ((end - start) / 1000));
      }
      return [
        figure({
          group: GROUP,
          ...ROWS.rate,
          samples: rates,
          failed: wrong.length > 0,
          note: wrong.length ? `bytes differ: ${wrong.join('; ')}` : `all ${N} runs byte-exact (xdotool, 6 ms between keys)`,
        }),
      ];
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
