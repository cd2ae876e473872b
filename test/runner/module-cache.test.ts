/**
 * The module cache holds code the workers run: it is a private folder of the user's, and a folder
 * someone else could write to, or a link to one, is not used. Projects with packages of their own
 * get folders of their own (vitest empties a folder whose lockfile changed).
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import { moduleCacheDir } from '../../src/runner/module-cache.ts';

const temp = (): string => mkdtempSync(join(tmpdir(), 'retrace-cache-'));
const project = (): string => {
  const root = temp();
  mkdirSync(join(root, 'node_modules'));
  return root;
};

test('a new cache folder is made private under $XDG_CACHE_HOME, the same one for the same project', () => {
  const base = temp();
  const root = project();
  const dir = moduleCacheDir(root, { XDG_CACHE_HOME: base })!;
  expect(dirname(dir)).toBe(join(base, 'retrace', 'vitest-modules'));
  for (const made of [dir, dirname(dir), join(base, 'retrace')]) expect(statSync(made).mode & 0o777).toBe(0o700);
  expect(moduleCacheDir(root, { XDG_CACHE_HOME: base })).toBe(dir);
  // A folder below the project shares its packages, and its cache.
  mkdirSync(join(root, 'specs'));
  expect(moduleCacheDir(join(root, 'specs'), { XDG_CACHE_HOME: base })).toBe(dir);
});

test('two projects with packages of their own get folders of their own', () => {
  const base = temp();
  const one = moduleCacheDir(project(), { XDG_CACHE_HOME: base });
  const two = moduleCacheDir(project(), { XDG_CACHE_HOME: base });
  expect(one).not.toBe(two);
  expect(readdirSync(join(base, 'retrace', 'vitest-modules'))).toHaveLength(2);
});

test('a cache folder, or one above it, that others can write to is not used', () => {
  const base = temp();
  const root = project();
  const dir = moduleCacheDir(root, { XDG_CACHE_HOME: base })!;
  for (const open of [dir, dirname(dir), join(base, 'retrace')]) {
    chmodSync(open, 0o777);
    expect(moduleCacheDir(root, { XDG_CACHE_HOME: base })).toBeUndefined();
    chmodSync(open, 0o700);
  }
  expect(moduleCacheDir(root, { XDG_CACHE_HOME: base })).toBe(dir);
});

test('a link in place of the cache folder is not followed', () => {
  const base = temp();
  mkdirSync(join(base, 'retrace'), { mode: 0o700 });
  symlinkSync(temp(), join(base, 'retrace', 'vitest-modules'));
  expect(moduleCacheDir(project(), { XDG_CACHE_HOME: base })).toBeUndefined();
});
