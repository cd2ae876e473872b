/**
 * A full disk: every write is complete or absent, and the fault is a one-line infrastructure
 * error (exit 3) naming the file, never "a bug in retrace". On a tmpfs of a few pages, a write
 * larger than what is left is cut short by the kernel (write(2) returns fewer bytes), then fails.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { writeFileAtomic } from '../../src/paths/atomic.ts';
import { decodePng } from '../../src/vision/frame.ts';
import { Project } from '../support/project.ts';
import { InfrastructureError } from '../../src/errors.ts';
import { canMount, smallDisk, type SmallDisk } from '../support/tmpfs.ts';

const disks: SmallDisk[] = [];
afterAll(() => {
  for (const disk of disks) disk.release();
});

describe.runIf(canMount())('writeFileAtomic on a full disk', () => {
  test('a short write is never renamed into place: the old file stays, no temp file is left', () => {
    const disk = smallDisk(64, 4);
    disks.push(disk);
    const file = join(disk.dir, 'g.path.json');
    writeFileSync(file, '{"old": true}\n');
    // More than the one free page: the kernel writes 4096 bytes, then refuses the rest.
    const big = `${JSON.stringify({ actions: 'x'.repeat(20_000) })}\n`;
    let thrown: unknown;
    try {
      writeFileAtomic(file, big);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InfrastructureError);
    expect((thrown as InfrastructureError).code).toBe('IO');
    expect((thrown as Error).message).toBe(`cannot write ${file}: no space left on the device (ENOSPC)`);
    expect(readFileSync(file, 'utf8')).toBe('{"old": true}\n');
    expect(readdirSync(disk.dir).sort()).toEqual(['.filler', 'g.path.json']);
  });

  test('a new file on a full disk is absent afterwards, not empty or cut off', () => {
    const disk = smallDisk(64, 4);
    disks.push(disk);
    const file = join(disk.dir, 'sub', 'image.png');
    expect(() => writeFileAtomic(file, new Uint8Array(50_000))).toThrow(
      /cannot write .*image\.png: no space left on the device \(ENOSPC\)/,
    );
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(join(disk.dir, 'sub'))).toEqual([]);
  });

  test('a write that fits is complete', () => {
    const disk = smallDisk(64, 16);
    disks.push(disk);
    const file = join(disk.dir, 'summary.json');
    const text = 'y'.repeat(10_000);
    writeFileAtomic(file, text);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});

/** Every file under `dir` (dot files included), relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));

describe.runIf(canMount())('a run whose outputs land on a full disk', () => {
  const SPEC = `name: Full
app:
  launch: \${env.FIXTURES}/open calculator
  window: Retrace Calculator
goals:
  - id: add
    steps:
      - click: "7"
      - click: "+"
      - click: "8"
      - click: "="
    expect:
      - text: "15"
`;

  const expectOneLineFault = (output: string, dir: string): void => {
    const lines = output.split('\n').filter((l) => l.includes('no space left on the device (ENOSPC)'));
    expect(lines.length, output).toBeGreaterThan(0);
    expect(
      lines.some((l) => l.includes(dir)),
      `a line names ${dir}:\n${output}`,
    ).toBe(true);
    expect(output).not.toContain('a bug in retrace');
  };

  test('--paths on a full disk: exit 3 naming the folder, and no cut-off path file or image', { timeout: 240_000 }, async () => {
    const disk = smallDisk(64, 4);
    disks.push(disk);
    const project = new Project().write('specs/full.yaml', SPEC);
    const result = await project.cli(['run', '--paths', disk.dir]);
    expect(result.code, result.stdout + result.stderr).toBe(3);
    expectOneLineFault(result.stdout + result.stderr, disk.dir);
    const left = filesUnder(disk.dir).filter((f) => f !== '.filler');
    expect(
      left.filter((f) => f.endsWith('.tmp')),
      'temp files',
    ).toEqual([]);
    for (const f of left.filter((name) => name.endsWith('.path.json')))
      expect(() => JSON.parse(readFileSync(join(disk.dir, f), 'utf8'))).not.toThrow();
    for (const f of left.filter((name) => name.endsWith('.png'))) expect(() => decodePng(readFileSync(join(disk.dir, f)))).not.toThrow();
    // A learn whose path could not be saved leaves none of its images: nothing refers to them.
    if (!left.some((f) => f.endsWith('.path.json')))
      expect(
        left.filter((f) => f.endsWith('.png')),
        'orphan images',
      ).toEqual([]);
  });

  test('--reports on a full disk: exit 3 naming the folder, never a pass and never "a bug in retrace"', { timeout: 240_000 }, async () => {
    const disk = smallDisk(64, 8);
    disks.push(disk);
    const project = new Project().write('specs/full.yaml', SPEC);
    const reports = join(disk.dir, 'reports');
    const result = await project.cli(['run', '--reports', reports]);
    expect(result.code, result.stdout + result.stderr).toBe(3);
    expectOneLineFault(result.stdout + result.stderr, reports);
    // One line of cause, not vitest's "Unhandled Error" with its stack frames.
    expect(result.stdout + result.stderr).not.toMatch(/Unhandled Error|\n\s+at [^\n]*:\d+:\d+/);
    const left = filesUnder(disk.dir).filter((f) => f !== '.filler');
    expect(
      left.filter((f) => f.endsWith('.tmp')),
      'temp files',
    ).toEqual([]);
    for (const f of left.filter((name) => name.endsWith('.json')))
      expect(() => JSON.parse(readFileSync(join(disk.dir, f), 'utf8')), f).not.toThrow();
  });
});
