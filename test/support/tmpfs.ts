/**
 * A small tmpfs of its own for disk-full tests (root only): mounted on a fresh folder, filled
 * until `freeKb` are left, and unmounted by `release()`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const canMount = (): boolean => process.getuid?.() === 0;

export interface SmallDisk {
  readonly dir: string;
  /** Bytes still free. */
  free(): number;
  release(): void;
}

export function smallDisk(sizeKb: number, freeKb: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir]);
  const free = (): number => {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  };
  writeFileSync(join(dir, '.filler'), Buffer.alloc(Math.max(0, free() - freeKb * 1024)));
  return {
    dir,
    free,
    release: () => {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
