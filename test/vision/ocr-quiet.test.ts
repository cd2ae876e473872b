/**
 * Tesseract prints statistics of its own ("Bottom=0, top=38, base=0, x=0", "Total count=0") when
 * it reads odd shapes. They reach the console of whatever process reads, so the reader is run in
 * a process of its own here and everything that process prints is looked at.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const READER = fileURLToPath(new URL('../../src/vision/ocr/tesseract-reader.ts', import.meta.url));
const FRAME = fileURLToPath(new URL('../../src/vision/frame.ts', import.meta.url));

// Tiny, thin and striped shapes: among them the ones that made tesseract print its statistics.
const SCRIPT = `
const { TesseractReader } = await import(${JSON.stringify(READER)});
const { createFrame } = await import(${JSON.stringify(FRAME)});
const reader = new TesseractReader();
for (const [w, h] of [[1, 1], [3, 40], [40, 3], [200, 2], [2, 200], [8, 8], [500, 12]]) {
  const f = createFrame(w, h, [255, 255, 255, 255]);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if ((x * 7 + y * 3) % 5 === 0) f.data.fill(0, (y * w + x) * 4, (y * w + x) * 4 + 3);
  for (const layout of ['block', 'line', 'char']) await reader.read(f, { layout });
}
await reader.close();
console.log('read');
`;

describe('OCR on the console', () => {
  it('prints nothing of tesseract’s own while reading', () => {
    const dir = mkdtempSync(join(tmpdir(), 'retrace-ocr-quiet-'));
    const script = join(dir, 'read.mjs');
    writeFileSync(script, SCRIPT);
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 60_000 });
    rmSync(dir, { recursive: true, force: true });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).toBe('read\n');
  }, 90_000);
});
